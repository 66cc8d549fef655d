/**
 * npm access tokens (`npm_…`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** `npm_` plus 36 alphanumerics. */
export const npm: Rule = {
  id: "npm_token",
  description: "npm access token",
  placeholder: "<NPM_TOKEN>",
  keywords: ["npm_"],
  startsAtKeyword: true,
  // Not after a dot: `process.env.npm_packageConfig…` is npm's own variable.
  pattern: () => /\b(?<![\w.-])npm_[A-Za-z0-9]{30,8192}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: ["//registry.npmjs.org/:_authToken=npm_Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4"],
  falsePositives: [
    "const override = process.env.npm_packageConfigurationOverrideSettings;",
    // An environment variable name, not a token.
    "npm_config_registry_url_for_the_private_mirror",
  ],
};
