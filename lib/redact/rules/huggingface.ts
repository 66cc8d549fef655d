/**
 * Hugging Face user and organisation tokens (`hf_…`, `api_org_…`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** `hf_` plus at least 30 alphanumerics. */
export const huggingface: Rule = {
  id: "huggingface-token",
  description: "Hugging Face access token",
  placeholder: "<HF_TOKEN>",
  keywords: ["hf_", "api_org_"],
  pattern: () => /(?<![\w-])(?:hf_|api_org_)[A-Za-z0-9]{30,}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: ["HF_TOKEN=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"],
  falsePositives: [
    // A snake_case name that happens to start with hf_.
    "hf_dataset_loader_configuration_default",
  ],
};
