/**
 * The shape most vendor rules share: a token found by its own prefix, so
 * it needs no context, replaced whole. {@linkcode token} fills in what such
 * rules have in common (priority, placeholder and entropy checks, no
 * allowlist); each rule file still states its pattern and samples.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** What a prefixed-token rule states; everything else has a default. */
export type TokenSpec =
  & Pick<
    Rule,
    | "id"
    | "description"
    | "placeholder"
    | "keywords"
    | "pattern"
    | "truePositives"
    | "falsePositives"
  >
  & Partial<Rule>;

/** Priority of a vendor token: above the context rules, below private keys and `<private>`. */
export const TOKEN_PRIORITY = 800;

const TOKEN_VALIDATORS = Object.freeze([notPlaceholder, minEntropy(3)]);
const NO_ALLOWLIST: readonly RegExp[] = Object.freeze([]);

/**
 * A rule for a token that carries its own prefix. Defaults: priority 800,
 * validators "not a placeholder" and "entropy above 3 bits a character",
 * no allowlist. Its pattern is written with the leading `\b` that
 * `wordBoundaryFirst` (`_boundary_first.ts`) would give it.
 */
export function token(spec: TokenSpec): Rule {
  // The spec itself, completed: a copy of each of 100 specs cost the hook's load 0.2 ms.
  spec.priority ??= TOKEN_PRIORITY;
  spec.validators ??= TOKEN_VALIDATORS;
  spec.allowlist ??= NO_ALLOWLIST;
  return spec as Rule;
}
