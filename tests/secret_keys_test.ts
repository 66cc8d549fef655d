/**
 * `isSecretKeyName()`: key names that make their value a secret, in every
 * case and separator style, and the near misses that must stay plain.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  endsInSecretWord,
  isSecretKeyName,
  textPasswordNameProblem,
  textSecretNameProblem,
} from "../lib/redact/secret_keys.ts";

const SECRET = [
  "password",
  "Password",
  "PASSWORD",
  "db_password",
  "dbPassword",
  "passwd",
  "pwd",
  "passwrd",
  "DB_PASWORD",
  "paswd",
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
  "bind_pw",
  "ldap_bindpw",
  "ldap_default_authtok",
  "SMTP_PW",
  "client_secert",
  "private_key_id",
  // Consul's ACL token.
  "SecretID",
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
  "token_count",
  "session_id",
  "password_hash",
  "password_sha256",
  "tokenDigest",
  "secretName",
  "tokenType",
  "auth_url",
  "pwm_duty",
  // AWS's and Terraform's name of a stored secret.
  "SecretId",
  "secret_id",
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

Deno.test({
  name: "textSecretNameProblem() takes parts of words and names ending in key, not public names",
  permissions: "none",
  fn() {
    for (
      const name of [
        "DBSECRET",
        "authkey",
        "appKey",
        "license_key",
        "creds",
        "authorization",
        "sharedSecret",
      ]
    ) {
      assert.equal(textSecretNameProblem(name), undefined, name);
    }
    // A public word before the secret word says whose secret it is; numbered keys; a hash's secret.
    for (
      const name of ["GEM_HOST_API_KEY", "AZURE_STORAGE_KEY", "key1", "VNP_HASH_SECRET", "SecretID"]
    ) {
      assert.equal(textSecretNameProblem(name), undefined, name);
    }
    for (
      const name of [
        "author",
        "public_key",
        "max_tokens",
        "session_timeout",
        "key_id",
        "monkey",
        "PublicKey",
        "publishableKey",
        "token_type",
        "API_KEY_FILE",
        "idempotency_key",
        "SecretId",
        "secret-id",
        // Digests, named by their algorithm (Asterisk's `md5secret`).
        "md5secret",
        "sha256Token",
      ]
    ) {
      assert.notEqual(textSecretNameProblem(name), undefined, name);
    }
  },
});

Deno.test({
  name:
    "textPasswordNameProblem() takes password names and misspellings, not names about passwords",
  permissions: "none",
  fn() {
    for (
      const name of [
        "DB_PASS",
        "passwd",
        "passwrd",
        "DB_PASWORD",
        "dbPass",
        "pwd",
        "DBPASS",
        "REDISPASS",
      ]
    ) {
      assert.equal(textPasswordNameProblem(name), undefined, name);
    }
    // Words about a password inside another word say nothing.
    for (
      const name of [
        "sonatypePassword",
        "-PsonatypePassword",
        "account_password",
        "platform_password",
        "SUPPORT_PASSWORD",
        "corporate_password",
        "reporting_db_password",
        "portal_pass",
        "ClearTextPassword",
      ]
    ) {
      assert.equal(textPasswordNameProblem(name), undefined, name);
    }
    for (
      const name of [
        "password_hash",
        "password_sha256",
        "passwordMd5",
        "password_min_length",
        "bypass",
        "compass",
        "BYPASS",
        "SSL_BYPASS",
        "passwordVariable",
        "admin.passwordMtime",
        "user",
        "password_type",
        "passwordFile",
        "pwdfile",
        "password_command",
        "passwordeval",
        "passwordless",
        "db_password_user",
        "hashed_password",
      ]
    ) {
      assert.notEqual(textPasswordNameProblem(name), undefined, name);
    }
  },
});

Deno.test({
  name: "endsInSecretWord() wants the secret word last, and not a word that names a kind of thing",
  permissions: "none",
  fn() {
    for (
      const name of [
        "MOMO_ACCESS_KEY",
        "auth_server_shared_secret",
        "appSigningKey",
        "api_token",
        "SECRET_KEY",
        "db.password",
      ]
    ) {
      assert.ok(endsInSecretWord(name), name);
    }
    for (
      const name of [
        "SESSION_DRIVER",
        "AUTH_PROVIDER",
        "auth",
        "session",
        "key",
        "password_policy",
        "secret_name",
      ]
    ) {
      assert.ok(!endsInSecretWord(name), name);
    }
  },
});
