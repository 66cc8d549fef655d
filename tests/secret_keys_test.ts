/**
 * `isSecretKeyName()`: key names that make their value a secret, in every
 * case and separator style, and the near misses that must stay plain.
 *
 * @module
 */

import assert from "node:assert/strict";
import { isSecretKeyName } from "../lib/redact/secret_keys.ts";

const SECRET = [
  "password",
  "Password",
  "PASSWORD",
  "db_password",
  "dbPassword",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "client_secret",
  "clientSecret",
  "CLIENT-SECRET",
  "token",
  "access_token",
  "accessToken",
  "X-Auth-Token",
  "api_key",
  "apiKey",
  "API-KEY",
  "APIKEY",
  "apikey",
  "x-api-key",
  "access_key",
  "AccessKey",
  "aws_secret_access_key",
  "private_key",
  "privateKeyPem",
  "credentials",
  "creds",
  "auth",
  "Authorization",
  "proxy-authorization",
  "cookie",
  "Set-Cookie",
  "session",
  "sessionToken",
  "bearer",
];

const PLAIN = [
  "command",
  "description",
  "file_path",
  "old_string",
  "author",
  "authors",
  "keyboard",
  "key",
  "monkey",
  "passenger",
  "tokens",
  "max_tokens",
  "compass",
  "timeout",
  "pattern",
  "",
];

Deno.test({
  name: "isSecretKeyName() accepts secret key names in any case and separator style",
  permissions: "none",
  fn() {
    for (const name of SECRET) assert.equal(isSecretKeyName(name), true, name);
  },
});

Deno.test({
  name: "isSecretKeyName() refuses names that only contain a secret word's letters",
  permissions: "none",
  fn() {
    for (const name of PLAIN) assert.equal(isSecretKeyName(name), false, name);
  },
});
