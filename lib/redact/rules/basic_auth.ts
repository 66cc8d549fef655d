/**
 * HTTP Basic credentials: the base64 after `Basic`, replaced when it
 * decodes to printable `user:password`, or stands in an Authorization header
 * (a REST key sent as the whole credential).
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { isBase64 } from "../_validators.ts";

/** What stands before `Basic` in an Authorization header: `Authorization: `, `"Authorization": "`. */
const AUTHORIZATION_HEADER = /authorization["']?[ \t]*[:=][ \t]*["']?$/i;

function decodesToUserPass(c: Candidate): string | undefined {
  if (!isBase64(c.secret)) return "not base64";
  const decoded = atob(c.secret);
  // SMTP's `AUTH PLAIN`: `\0user\0password`.
  if (c.groups["plain"] !== undefined) {
    return /^[^\0]*\0[^\0]+\0[^\0]+$/.test(decoded) ? undefined : "not \\0user\\0password";
  }
  if (!decoded.includes(":")) {
    // OneSignal's and others' REST keys go as the whole Basic credential: in an Authorization
    // header it is a credential whatever it decodes to.
    const before = c.text.slice(Math.max(0, c.matchStart - 40), c.matchStart);
    return c.secret.length >= 16 && AUTHORIZATION_HEADER.test(before)
      ? undefined
      : "decoded value has no colon";
  }
  if (!/^[\x20-\x7e\x80-\xff]+$/.test(decoded)) return "decoded value not printable";
  return undefined;
}

/** `Authorization: Basic <base64(user:pass)>`. */
export const basicAuth: Rule = {
  id: "basic_auth",
  description:
    "HTTP Basic auth credentials (base64 of user:password), SMTP AUTH PLAIN (base64 of \\0user\\0password)",
  placeholder: "<BASIC_AUTH>",
  keywords: ["basic", "auth plain"],
  pattern: () =>
    /\b(?:Basic|BASIC|basic|(?<plain>AUTH[ \t]+PLAIN))[ \t]+(?<secret>[A-Za-z0-9+/]{8,8192}={0,2})(?![A-Za-z0-9+/=])/dg,
  secretGroup: "secret",
  priority: 650,
  validators: [decodesToUserPass],
  allowlist: [],
  truePositives: [
    "Authorization: Basic ZGVwbG95OlE4bSFMejN4VjdydA==",
    // SMTP, as smtplib's debug output prints it.
    "send: 'AUTH PLAIN AGhvYWRvbkBhbnBoYXQubG9jYWwASEM3bVZLWDRwVk0u\\r\\n'",
    // A REST key sent as the whole credential (OneSignal).
    "curl https://onesignal.com/api/v1/notifications --header 'Authorization: Basic NGQ3YjFlOWEtMmM1Zi00YThiLTllM2QtNmYwYTFiMmMzZDRl'",
  ],
  falsePositives: [
    // "Basic" followed by an ordinary word.
    "Basic authentication is deprecated here",
    "the Basic plan costs 9 dollars, the Basic QWxsIHBsYW5zIGluY2x1ZGUgc3VwcG9ydA== banner too",
  ],
};
