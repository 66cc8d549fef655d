/**
 * Key names that say their value is a secret (`password`, `apiKey`,
 * `X-Auth-Token`, `client_secret`, …). Inside structured data (a tool's JSON
 * arguments) such a key makes every string under it a secret, whatever the
 * value looks like: `{"password": "hunter2"}` has nothing a text rule could
 * recognise. Pure and import-free: the hook runs it on its hot path.
 *
 * @module
 */

/** Words that name a secret on their own, in any position of a key (`db_password`). */
const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "secret",
  "secrets",
  "token",
  "auth",
  "authorization",
  "oauth",
  "cookie",
  "cookies",
  "session",
  "credential",
  "credentials",
  "creds",
  "apikey",
  "accesskey",
  "privatekey",
  "secretkey",
  "clientsecret",
  "bearer",
  "jwt",
]);

/** Two adjacent words that name a secret together (`api_key`, `accessKey`). */
const SECRET_PAIRS = new Set([
  "api key",
  "access key",
  "private key",
  "secret key",
  "signing key",
  "encryption key",
  "master key",
  "client secret",
  "pass phrase",
]);

/** A cheap first look: a key holding none of these stems cannot match. */
const STEMS = /pass|pwd|secret|token|auth|cookie|session|cred|key|bearer|jwt/i;

/** Splits `apiKey`, `API-KEY`, `x_auth.token`, `HTTPCookie` into lowercase words. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/**
 * Whether an object key names a secret, in any case and separator style
 * (`apiKey`, `API-KEY`, `api_key`, `x-api-key`, `DB_PASSWORD`).
 *
 * @example
 * ```ts
 * isSecretKeyName("clientSecret"); // true
 * isSecretKeyName("author"); // false
 * ```
 */
export function isSecretKeyName(name: string): boolean {
  if (!STEMS.test(name)) return false;
  const parts = words(name);
  for (let i = 0; i < parts.length; i++) {
    if (SECRET_WORDS.has(parts[i]!)) return true;
    if (i > 0 && SECRET_PAIRS.has(`${parts[i - 1]} ${parts[i]}`)) return true;
  }
  return false;
}
