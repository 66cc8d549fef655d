/**
 * Google API keys (`AIza…`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { notPlaceholder } from "../_validators.ts";

/** `AIza` plus 35 URL-safe characters. */
export const google: Rule = {
  id: "google-api-key",
  description: "Google API key",
  placeholder: "<GOOGLE_API_KEY>",
  keywords: ["aiza"],
  pattern: () => /(?<![\w-])AIza[A-Za-z0-9_-]{30,40}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: ["maps/api/js?key=AIzaSyQ8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2U&callback=init"],
  falsePositives: [
    // A template.
    "key=AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  ],
};
