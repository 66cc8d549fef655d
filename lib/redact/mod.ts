/**
 * The redactor: text in, redacted text and per-rule match counts out. Every
 * prompt, assistant message, tool error line and string inside tool arguments
 * passes through here before anything is hashed or sent.
 *
 * The engine (`_engine.ts`) runs the rules of `rules/` in fixed steps:
 * keyword gate, pattern, validators, allowlists, overlap resolution (most
 * specific wins), one replacement pass. `<private>…</private>` spans go
 * first and whole. Callers depend only on {@linkcode redactText},
 * {@linkcode redactValue} and {@linkcode explainText}.
 *
 * @module
 */

import { applyFindings, scanText } from "./_engine.ts";
import { RULES } from "./rules/mod.ts";

/**
 * The e-mail domains kept when the caller names none: the spec's
 * organisation domain. `install --allow-email-domain D` replaces the list.
 */
export const DEFAULT_ALLOWED_EMAIL_DOMAINS: readonly string[] = ["cyberskill.world"];

/** Options for {@linkcode redactText} and {@linkcode redactValue}. */
export interface RedactOptions {
  /**
   * E-mail domains the operator allows (their own company's); addresses at
   * these domains, or their subdomains, are kept. An empty list keeps the
   * default.
   *
   * @default {DEFAULT_ALLOWED_EMAIL_DOMAINS}
   */
  allowEmailDomains?: readonly string[];
}

/** The options the engine gets: the default allowlist where none was named. */
function engineOptions(options: RedactOptions): RedactOptions {
  const domains = options.allowEmailDomains;
  return domains === undefined || domains.length === 0
    ? { ...options, allowEmailDomains: DEFAULT_ALLOWED_EMAIL_DOMAINS }
    : options;
}

/** What one redaction pass found and did. */
export interface RedactionResult {
  /** The text with every secret replaced by its placeholder. */
  text: string;
  /** The true number of replaced spans. */
  matchCount: number;
  /** Replaced spans per metric label (a rule's id unless it names another; only those that matched). */
  counts: Record<string, number>;
}

/**
 * Redacts one text.
 *
 * @example
 * ```ts
 * redactText("key AKIAABCDEFGHIJKLMNOP").text; // "key <AWS_KEY>"
 * ```
 */
export function redactText(text: string, options: RedactOptions = {}): RedactionResult {
  const { findings } = scanText(text, RULES, engineOptions(options));
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.metricLabel] = (counts[f.metricLabel] ?? 0) + 1;
  return { text: applyFindings(text, findings), matchCount: findings.length, counts };
}

/** One replaced span, for reviewers. */
export interface ExplainedMatch {
  /** The rule that matched. */
  ruleId: string;
  /** Its placeholder. */
  placeholder: string;
  /** Offset in the original text. */
  start: number;
  /** Offset just past the span. */
  end: number;
}

/** One candidate that was kept, and why. */
export interface ExplainedRejection {
  /** The rule that proposed it. */
  ruleId: string;
  /** Offset in the original text. */
  start: number;
  /** Offset just past the span. */
  end: number;
  /** Why it was not replaced ("entropy 2.10 ≤ 3.5", "overlaps jwt …"). */
  reason: string;
}

/** What {@linkcode explainText} returns. */
export interface Explanation {
  /** Replaced spans, in text order. */
  matches: ExplainedMatch[];
  /** Rejected candidates with their reasons. */
  rejected: ExplainedRejection[];
}

/**
 * Says what {@linkcode redactText} would replace and which candidates it
 * rejected, with reasons (for `redact --explain`).
 */
export function explainText(text: string, options: RedactOptions = {}): Explanation {
  const { findings, rejections } = scanText(text, RULES, {
    ...engineOptions(options),
    explain: true,
  });
  const matches = findings.map(({ ruleId, placeholder, start, end }) => ({
    ruleId,
    placeholder,
    start,
    end,
  }));
  return { matches, rejected: rejections };
}

/** What {@linkcode redactValue} returns: the redacted copy and the summed counts. */
export interface ValueRedactionResult {
  /** A copy of the value with every string (not keys) redacted. */
  value: unknown;
  /** Replaced spans over all strings. */
  matchCount: number;
  /** Replaced spans per metric label. */
  counts: Record<string, number>;
}

/**
 * Redacts every string value inside a JSON value (objects, arrays, nested),
 * leaving keys, numbers, booleans and null alone. Iterative, so a value nested
 * 10,000 deep does not overflow the stack.
 */
export function redactValue(value: unknown, options: RedactOptions = {}): ValueRedactionResult {
  const counts: Record<string, number> = {};
  let matchCount = 0;
  const redactString = (text: string): string => {
    const result = redactText(text, options);
    if (result.matchCount === 0) return text;
    matchCount += result.matchCount;
    for (const [id, n] of Object.entries(result.counts)) counts[id] = (counts[id] ?? 0) + n;
    return result.text;
  };
  if (typeof value === "string") return { value: redactString(value), matchCount, counts };
  if (value === null || typeof value !== "object") return { value, matchCount, counts };
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<[source: unknown, target: unknown]> = [[value, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    const entries = Array.isArray(source)
      ? source.map((item, index) => [index, item] as const)
      : Object.entries(source as Record<string, unknown>);
    for (const [key, item] of entries) {
      let copy: unknown = item;
      if (typeof item === "string") copy = redactString(item);
      else if (item !== null && typeof item === "object") {
        copy = Array.isArray(item) ? [] : {};
        stack.push([item, copy]);
      }
      (target as Record<string | number, unknown>)[key] = copy;
    }
  }
  return { value: root, matchCount, counts };
}
