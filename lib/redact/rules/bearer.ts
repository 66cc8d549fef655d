/**
 * Opaque bearer tokens: whatever follows `Bearer`, Okta's `SSWS`, or a vendor's own
 * scheme after `Authorization:` (`token`, `Api-Token`, Discord's `Bot`, `OAuth`,
 * Opsgenie's `GenieKey`, Splunk, Zoho, DeepL, Klaviyo)
 * when it looks like a token: 16+ characters with letters and digits and
 * some entropy. Variables (`$TOKEN`) and templates stay; a JWT after
 * `Bearer` goes to the JWT rule, which ranks higher.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";

/** Schemes after `Authorization:` that name what follows a token: vendors' own, and OneSignal's `Key`. */
const SCHEMES =
  "[Tt]oken|TOKEN|[Aa]pi-?[Tt]oken|Bot|OAuth|GenieKey|Splunk|Zoho-oauthtoken|DeepL-Auth-Key|Klaviyo-API-Key|Key";

/** The token after `Bearer` / `Authorization: token`. */
export const bearer: Rule = {
  id: "bearer_token",
  description:
    "Opaque bearer token after Bearer, SSWS or a vendor scheme in Authorization (token, Api-Token, Bot, GenieKey, …)",
  placeholder: "<REDACTED>",
  keywords: ["bearer", "authorization", "ssws"],
  pattern: () =>
    new RegExp(
      "(?:\\b(?:[Bb]earer|BEARER|SSWS)" +
        // Also a call's two arguments: `.header("Authorization", "Token …")`.
        `|(?:[Aa]uthorization|AUTHORIZATION)(?:\\\\?["'])?[ \\t]*[:=,][ \\t]*(?:\\\\?["'])?(?:${SCHEMES})` +
        // Swift: `setValue("Token …", forHTTPHeaderField: "Authorization")`.
        `|"(?=(?:${SCHEMES})[ \\t]+[^"\\n]{15,8192}",[ \\t]*forHTTPHeaderField:[ \\t]*"Authorization")(?:${SCHEMES})` +
        // The scheme and the token joined by code: `paste("Bearer", "…")`, `"Bearer " + "…"`.
        "|\\b(?:[Bb]earer|BEARER)[ \\t]?\\\\?[\"'][ \\t]{0,4}(?:,|\\+|\\.{1,2})[ \\t]{0,4}\\\\?[\"'])" +
        "(?:[ \\t]+|(?<=[\"']))(?<secret>[A-Za-z0-9._~+/-]{15,8192}[A-Za-z0-9_~+/-]={0,2})",
      "dg",
    ),
  secretGroup: "secret",
  priority: 500,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  allowlist: [],
  truePositives: [
    'curl -H "Authorization: Bearer q8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2" https://api.example.org',
    "Authorization: token Zx7Cv3Bn8Ml1Kj5Hg9Fd2Sa6Pq0Wo4Ie",
    // Vendor schemes: Dynatrace, Opsgenie, Discord.
    "curl -H 'Authorization: Api-Token Tq7Wm2Xc9Vb4Nl6Kp3Hs8Dq5Rz1Fy0Gu' https://acme.live.dynatrace.com/api/v2/metrics",
    "Authorization: GenieKey 3c9f0a1e-7b2d-4c8e-9f6a-5d1b3e7c9a2f",
    '"Authorization": "Bot Mz5Nq8Rt2Wx4Yb7Lc1Kd9Fh3Gj6Pv0Sm"',
    // Okta's scheme.
    "Authorization: SSWS 00Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw",
    // OneSignal's scheme; a header set by a call.
    "Authorization: Key os_v2_app_q8lm3vx7rt2kw9pn4yb6hc1jd5fs0ga2",
    'conn.header("Authorization", "Token 9f3c0a1e7b2d4c8e9f6a5d1b3e7c9a2f")',
    // Django's test client sets the header as a WSGI variable.
    'client.credentials(HTTP_AUTHORIZATION="Token 928dcb1bccd0f05083e2a98df2c08abe8256a55f")',
    'request.setValue("Token 9f3c0a1e7b2d4c8e9f6a5d1b3e7c9a2f", forHTTPHeaderField: "Authorization")',
    'httr::add_headers(Authorization = paste("Bearer", "Vq3Tm8Lx2Rk7Wn9Pb4Yc6Hd1Jf5Gs0Za"))',
    "headers: { Authorization: 'Bearer ' + 'Vq3Tm8Lx2Rk7Wn9Pb4Yc6Hd1Jf5Gs0Za' },",
  ],
  falsePositives: [
    // A variable reference.
    'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.org',
    // Prose.
    "prefer a short-lived Bearer token over cookies",
    // An OpenAPI scheme name on the next line.
    "scheme: bearer\n  bearerFormat: JWT",
    'request.setValue("Token \\(apiKey)", forHTTPHeaderField: "Authorization")',
    // The scheme in a list or an OAuth response, beside other strings.
    '{"token_type": "Bearer", "access_token_expires_in_seconds": 3600}',
    'const schemes = ["Bearer", "Basic", "Digest"];',
  ],
};
