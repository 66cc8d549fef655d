/**
 * GitHub tokens: personal access tokens, classic (`ghp_`) and fine-grained
 * (`github_pat_`), as the spec's `<GH_PAT>`; and OAuth (`gho_`),
 * user-to-server (`ghu_`), server-to-server (`ghs_`, also the stateless
 * `ghs_<app id>_<JWT>` form of 2026) and refresh (`ghr_`) tokens.
 * Templates like `ghp_XXXX…` stay.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";
import { token } from "./_token.ts";

/** Classic and fine-grained personal access tokens. */
export const githubPat: Rule = token({
  id: "github_pat",
  description: "GitHub personal access token, classic (ghp_) and fine-grained (github_pat_)",
  placeholder: "<GH_PAT>",
  keywords: ["ghp_", "github_pat_"],
  startsAtKeyword: true,
  pattern: () =>
    /(?<![A-Za-z0-9_])(?:ghp_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{40,244})(?![A-Za-z0-9_])/dg,
  validators: [notPlaceholder, minEntropy(3)],
  truePositives: [
    "GH_TOKEN=ghp_R8mW2kQz7Xv4Tn9Lp3Yb6Hc1Jd5Fs0Ga2Ue4",
    "github_pat_11ABCDE2Q0kW7mZ9xV3tR5_pL8nY2bH6cJ4dF1sG0aU7eK3iO9qT5wX2zM8vN4rB6yC1hD",
  ],
  falsePositives: [
    // A template in a README.
    "export GH_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    // The bare prefix in prose.
    "classic tokens start with ghp_ and are 40 characters",
    // Placeholder with a repeated character.
    "github_pat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  ],
});

/** OAuth, app and refresh tokens. */
export const githubToken: Rule = token({
  id: "github_token",
  description:
    "GitHub OAuth (gho_), user-to-server (ghu_), server-to-server (ghs_, also ghs_<id>_<JWT>) and refresh (ghr_) tokens",
  placeholder: "<GH_TOKEN>",
  keywords: ["gho_", "ghu_", "ghs_", "ghr_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w.-])gh[ousr]_[A-Za-z0-9_.-]{29,1500}[A-Za-z0-9_-](?![\w-])/dg,
  validators: [notPlaceholder, minEntropy(3)],
  truePositives: [
    "https://x-access-token:ghs_Lq9Zt3Vx8Rm2Kp7Wn4Yc6Hb1Jd5Fs0Ga3Ue@github.com/o/r",
    "GITHUB_TOKEN=ghs_1234567_eyJvDJ9xP94KjM0N_g2JOFphOKBiUpPFIOaTMYXxoeU.eyJpitlpOah0JSzyX68T6N-ib9WWUoFb4Ou_9elK7J20H89XcYOPvnxOKwT23QVebD9lIkpzyzjib3Vat0clr6fcADoQUl_Ndca_LQPqQmRX_5IzkzqHmw1qr976PEacdktRxUGENb_5XKICfKuYdSkoyXQEWfEquXj_yz3KKXN3EW64ZmV4uJBenuxXQ9w2qEmr1slYm4W.am4_BNx3K6E1GbMv9MbNMyN5fFG3USpzd3OFJQHSdLoxAdKh1OPn3TGSFhb8lH5MkP3QwXsNqw7VSMLKPaNui1",
    "refresh_token=ghr_IUL2ul3j7FQiApk9O3sLkBI4mROFWhaNONmkvJUr9NuEWUwk8rlTQ2fhJeVb6kWjJQzIOhPENmTb",
  ],
  falsePositives: [
    "the gho_ prefix marks OAuth tokens",
    "ghs_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  ],
});

/** The GitHub family. */
export const github: Rule[] = [githubPat, githubToken];
