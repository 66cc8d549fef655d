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

/**
 * A registry login in Docker's (and Podman's, Helm's) `config.json`:
 * `"auths": {"host": {"auth": "<base64(user:password)>"}}`.
 */
export const registryAuth: Rule = {
  id: "registry_auth",
  description:
    'Registry login in a Docker/Podman config.json ("auths" … "auth": base64 of user:password)',
  placeholder: "<BASIC_AUTH>",
  keywords: ['auths\\"', 'auths"'],
  pattern: () =>
    /"auth\\{0,3}"[ \t]*:[ \t]*\\{0,3}"(?<secret>[A-Za-z0-9+/]{8,8192}={0,2})\\{0,3}"/dg,
  secretGroup: "secret",
  priority: 650,
  validators: [
    function inAuths(c) {
      // Inside the `auths` map: its name stands within the 1,000 characters before.
      return c.text.slice(Math.max(0, c.matchStart - 1000), c.matchStart).includes("auths")
        ? undefined
        : "outside an auths map";
    },
    decodesToUserPass,
  ],
  allowlist: [],
  truePositives: [
    '$ cat ~/.docker/config.json\n{\n\t"auths": {\n\t\t"registry.gitlab.com": {\n\t\t\t"auth": "Y2ktYm90OkxxOC1WeDIta1I3LW1aMw=="\n\t\t}\n\t}\n}',
  ],
  falsePositives: [
    '{"auths": {"ghcr.io": {}}, "credsStore": "desktop"}',
    '{"auths": {"registry.lan": {"auth": ""}}}',
  ],
};
