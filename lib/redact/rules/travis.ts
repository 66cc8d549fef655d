/**
 * Travis CI encrypted variables (`secure: "…"`): the ciphertext only the
 * repository's key opens, but it names a secret and the issue's policy
 * redacts it like one.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy } from "../_validators.ts";

/** The base64 after `secure:`. */
export const travisSecure: Rule = {
  id: "travis_secure",
  description: 'Travis CI encrypted variable (secure: "base64")',
  placeholder: "<SECRET>",
  keywords: ["secure:"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])secure:[ \t]*(?<q>["']?)(?<secret>[A-Za-z0-9+/]{40,4096}={0,2})\k<q>(?![A-Za-z0-9+/=])/dg,
  secretGroup: "secret",
  priority: 420,
  validators: [minEntropy(4)],
  allowlist: [],
  truePositives: [
    'env:\n  global:\n    - secure: "kq3Vb8Xw2Yz9Ld7Hs4Jf1Tg6Rn0Pm5QcZx7Cv3Bn8Ml1Kj5Hg9Fd2Sa6Pq0Wo4Ie8Ur3Yt+/Aa1="',
  ],
  falsePositives: [
    // A boolean flag, not a ciphertext.
    "cookie:\n  secure: true",
  ],
};
