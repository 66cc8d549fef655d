/**
 * GitHub tokens: classic personal (`ghp_`), OAuth (`gho_`), user-to-server
 * (`ghu_`), server-to-server (`ghs_`), refresh (`ghr_`) and fine-grained
 * personal access tokens (`github_pat_`). Templates like `ghp_XXXX…` stay.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** Classic, OAuth, app and refresh tokens. */
export const githubToken: Rule = {
  id: "github-token",
  description: "GitHub classic, OAuth, app installation and refresh tokens",
  placeholder: "<GITHUB_TOKEN>",
  keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
  pattern: () => /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,}(?![A-Za-z0-9_])/dg,
  priority: 800,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: [
    "GH_TOKEN=ghp_R8mW2kQz7Xv4Tn9Lp3Yb6Hc1Jd5Fs0Ga2Ue4",
    "https://x-access-token:ghs_Lq9Zt3Vx8Rm2Kp7Wn4Yc6Hb1Jd5Fs0Ga3Ue@github.com/o/r",
  ],
  falsePositives: [
    // A template in a README.
    "export GH_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    // The bare prefix in prose.
    "classic tokens start with ghp_ and are 40 characters",
  ],
};

/** Fine-grained personal access tokens. */
export const githubFineGrainedPat: Rule = {
  id: "github-fine-grained-pat",
  description: "GitHub fine-grained personal access token",
  placeholder: "<GITHUB_TOKEN>",
  keywords: ["github_pat_"],
  pattern: () => /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{40,}(?![A-Za-z0-9_])/dg,
  priority: 800,
  validators: [notPlaceholder, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "github_pat_11ABCDE2Q0kW7mZ9xV3tR5_pL8nY2bH6cJ4dF1sG0aU7eK3iO9qT5wX2zM8vN4rB6yC1hD",
  ],
  falsePositives: [
    // Placeholder with a repeated character.
    "github_pat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  ],
};

/** The GitHub family. */
export const github: Rule[] = [githubToken, githubFineGrainedPat];
