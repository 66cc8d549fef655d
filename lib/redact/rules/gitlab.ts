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
  description:
    "GitLab personal (also routable), deploy, runner (and registration), trigger, feed, feature-flag, agent and CI tokens",
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
    "glagent-",
    "glffct-",
    "gr1348941",
  ],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:(?:glpat|gldt|glrt|glptt|glft|glimt|glagent|glsoat|glcbt|gloas|glffct)-|GR1348941)[A-Za-z0-9_-]{20,8192}(?:\.[a-z0-9]{2}\.?[a-z0-9]{7,9})?(?![\w.-])/dg,
  priority: 800,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: [
    "PRIVATE-TOKEN: glpat-Vq8Lm3Zx7Rt2Kw9Pn4Yb",
    "url https://oauth2:glpat-Hs5Jd1Fg0Au4Ei6Oc9Qw@gl.example.org",
    // Routable tokens end in a dot, a two-character version and a short checksum.
    "GITLAB_TOKEN=glpat-Rk3vN8qT1xW6yZ2bC5dF7gH9jK0mP4sU.01.1f0q8z2kx",
    "gitlab-runner register --registration-token GR1348941Tq7Wm2Xc9Vb4Nl6Kp3Hs8D",
    'FF_CLIENT_TOKEN="glffct-Zx4Cv7Bn2Mq9Wl5Er8Ty3"',
  ],
  falsePositives: [
    // Placeholder in docs.
    "glpat-xxxxxxxxxxxxxxxxxxxx",
  ],
};
