/**
 * Hugging Face user and organisation tokens (`hf_…`, `api_org_…`).
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/**
 * Rejects a value with few capitals: a random token has about one capital
 * in two letters, a camelCase name (`hf_requiredCharacteristics…`) one in six
 * and seldom a digit. One in four alone was too strict (0.4 % of random
 * tokens have fewer), so the bar falls as digits show it is no name: one in
 * four without digits, one in six with one or two, none with three or more.
 */
function capitalsLikeRandom(c: Candidate): string | undefined {
  let letters = 0;
  let capitals = 0;
  let digits = 0;
  for (const ch of c.secret.slice(c.secret.indexOf("_") + 1)) {
    if (/[a-z]/.test(ch)) letters++;
    else if (/[A-Z]/.test(ch)) {
      letters++;
      capitals++;
    } else if (/[0-9]/.test(ch)) digits++;
  }
  if (digits >= 3) return undefined;
  const share = digits > 0 ? 6 : 4;
  return capitals * share >= letters ? undefined : `${capitals} capitals in ${letters} letters`;
}

/** `hf_` plus 34 to 37 alphanumerics. */
export const huggingface: Rule = {
  id: "huggingface_token",
  description: "Hugging Face access token",
  placeholder: "<HF_TOKEN>",
  keywords: ["hf_", "api_org_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:hf_|api_org_)[A-Za-z0-9]{34,37}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder, capitalsLikeRandom, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "HF_TOKEN=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",
    // Random tokens with few capitals, once rejected as camelCase names.
    "token hf_iwzVjecgQejnojnvPYFu0ecde2hhnqtpLS",
    "token hf_7c3uozkNKlsahv0bngp1cu2mg49yttznVK",
  ],
  falsePositives: [
    // A snake_case name that happens to start with hf_.
    "hf_dataset_loader_configuration_default",
    // A camelCase name, longer than any token.
    "hf_requiredCharacteristicsForTheModelLoaderInThisRepo = True",
    // A camelCase name of a token's length.
    "hf_requiredCharacteristicsForModels",
  ],
};
