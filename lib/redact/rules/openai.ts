/**
 * OpenAI keys (`sk-…`, `sk-proj-…`, `sk-svcacct-…`, `sk-admin-…`). The
 * lookbehind keeps identifiers that merely contain `sk-` (`task-…`,
 * `disk-…`); `sk-ant-` belongs to the Anthropic rule; templates stay.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, longestRun, minEntropy, notPlaceholder } from "../_validators.ts";

/** OpenAI API keys. */
export const openai: Rule = {
  id: "openai_key",
  description: "OpenAI API key, legacy and project / service-account / admin forms",
  placeholder: "<OPENAI_KEY>",
  keywords: ["sk-"],
  startsAtKeyword: true,
  // `task-`, `disk-` and `risk-` hold the keyword too; only a word that starts with it can match.
  precheck: (facts) => facts.startsWord("sk-"),
  pattern: () =>
    /\b(?<![\w-])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,8192}(?![\w-])/dg,
  priority: 790,
  validators: [notPlaceholder, hasDigitAndLetter, longestRun(16), minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "OPENAI_API_KEY=sk-Tq7Vz3Lm9Rx2Kp8Wn4Yb5Hc1T3BlbkFJd6Fs0Ga2Ue7Io",
    'client = OpenAI(api_key="sk-proj-Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7T3BlbkFJ_2aB4cD6eF8gH0iJ")',
  ],
  falsePositives: [
    // A task id that contains "sk-".
    "task-3f9a2c7e1b5d4a8f9c0e2b4d6f8a1c3e",
    // A template.
    "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    // A kebab-case name after sk-.
    "uses sk-learn-compatible-estimator-wrapper-v2",
  ],
};
