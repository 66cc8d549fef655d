/**
 * HTTP Basic credentials: the base64 after `Basic`, kept only when it
 * decodes to printable `user:password`.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { isBase64 } from "../_validators.ts";

function decodesToUserPass(c: Candidate): string | undefined {
  if (!isBase64(c.secret)) return "not base64";
  const decoded = atob(c.secret);
  // SMTP's `AUTH PLAIN`: `\0user\0password`.
  if (c.groups["plain"] !== undefined) {
    return /^[^\0]*\0[^\0]+\0[^\0]+$/.test(decoded) ? undefined : "not \\0user\\0password";
  }
  if (!decoded.includes(":")) return "decoded value has no colon";
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
  ],
  falsePositives: [
    // "Basic" followed by an ordinary word.
    "Basic authentication is deprecated here",
  ],
};
