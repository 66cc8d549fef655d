/**
 * GitLab tokens by their documented prefixes (personal, deploy, runner,
 * pipeline trigger, feed, CI build, OAuth application secrets, …).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** Prefixed GitLab tokens. */
export const gitlab: Rule = {
  id: "gitlab_token",
  description: "GitLab personal, deploy, runner, trigger, feed and CI tokens",
  placeholder: "<GITLAB_TOKEN>",
  keywords: [
    "glpat-",
    "gldt-",
    "glrt-",
    "glptt-",
    "glft-",
    "glimt-",
    "glsoat-",
    "glcbt-",
    "gloas-",
  ],
  pattern: () =>
    /(?<![\w-])(?:glpat|gldt|glrt|glptt|glft|glimt|glagent|glsoat|glcbt|gloas)-[A-Za-z0-9_-]{20,8192}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: [
    "PRIVATE-TOKEN: glpat-Vq8Lm3Zx7Rt2Kw9Pn4Yb",
    "url https://oauth2:glpat-Hs5Jd1Fg0Au4Ei6Oc9Qw@gl.example.org",
  ],
  falsePositives: [
    // Placeholder in docs.
    "glpat-xxxxxxxxxxxxxxxxxxxx",
  ],
};
