/**
 * Google credentials: API keys (`AIza…`), OAuth client secrets
 * (`GOCSPX-…`), OAuth access tokens (`ya29.…`) and refresh tokens
 * (`1//0…`). A service account's `private_key` is a PEM block (the private
 * key rule); its `private_key_id` is found by context (`generic_api_key`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { token } from "./_token.ts";

/** `AIza` plus 35 URL-safe characters. */
export const googleApiKey: Rule = token({
  id: "google_api_key",
  description: "Google API key",
  placeholder: "<GOOGLE_API_KEY>",
  keywords: ["aiza"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])AIza[A-Za-z0-9_-]{35}(?![\w-])/dg,
  validators: [notPlaceholder],
  truePositives: ["maps/api/js?key=AIzaSyQ8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2U&callback=init"],
  falsePositives: [
    // A template.
    "key=AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  ],
});

/** OAuth client secrets, access and refresh tokens. */
export const googleOauth: Rule = token({
  id: "google_oauth_token",
  description:
    "Google OAuth client secret (GOCSPX-), access token (ya29.) and refresh token (1//0…)",
  placeholder: "<GOOGLE_OAUTH_TOKEN>",
  keywords: ["gocspx-", "ya29.", "1//0"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:GOCSPX-[\w-]{28}|ya29\.[\w-]{30,2000}|1\/\/0[\w-]{40,500})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    '"client_secret": "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"',
    "curl -H 'Authorization: Bearer ya29.a0BA5wqY2EFoj4J1oKzwZR5l817Uq4JrDuLNiMnM0D0NT6ijgR0Pwx1R9UJaHhuIpHk6sGt7xVWso7PwqI57c07_YvsjYZNv67B0N4IpEtNoJap5-_MFTnRRMTePNvW7ebimYmH3ev5Ym7MxfE0SBOo6' https://www.googleapis.com/drive/v3/files",
    "refresh_token=1//0gWxCzjCgdHTDONV4vM6IOT7EkhtDTV91oA8vGri-uIQsGXpV-4JlpZBowjTMaddMJGhA9xtAssZHOLAPjYMnojMt9-beTJYlcAo",
  ],
  falsePositives: ["ya29.placeholder"],
});

/** The Google family. */
export const google: Rule[] = [googleApiKey, googleOauth];
