/**
 * Key names that say their value is a secret (`password`, `apiKey`,
 * `X-Auth-Token`, `client_secret`, …). Inside structured data (a tool's JSON
 * arguments) such a key makes every string under it a secret, whatever the
 * value looks like: `{"password": "hunter2"}` has nothing a text rule could
 * recognise. Pure, importing only `_memo.ts`: the hook runs it on its hot path.
 *
 * The text rules (`rules/generic_key.ts`, `rules/password.ts`) read their
 * key names here too ({@linkcode textSecretNameProblem},
 * {@linkcode textPasswordNameProblem}), so every fact about key names lives
 * in this one file.
 *
 * @module
 */

import { memoize } from "./_memo.ts";

/**
 * Secret words that as often name a kind of thing as hold the value: an auth
 * scheme, a session or cookie store, a credential type (`OAUTH`, `SESSION`
 * and `JWT` alone, where `AUTH_PROVIDER` and `SESSION_DRIVER` end elsewhere).
 */
const KIND_WORDS = [
  "auth",
  "authorization",
  "oauth",
  "cookie",
  "cookies",
  "session",
  "credential",
  "credentials",
  "creds",
  "bearer",
  "jwt",
];

/**
 * Digest algorithms: a name holding one (`password_sha256`, Asterisk's
 * `md5secret`) names a digest of the secret, not the secret.
 */
const DIGEST_ALGORITHMS = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"];

/** {@linkcode DIGEST_ALGORITHMS} as a pattern's alternatives. */
const DIGEST_ALGORITHM = DIGEST_ALGORITHMS.join("|");

/** A name led by a digest's algorithm and a word (`md5secret`, `sha256_token`). */
const LEADING_DIGEST = new RegExp(`^(?:${DIGEST_ALGORITHM})(?=[_.-]?[a-z])`, "i");

/** Words that name a secret on their own, in any position of a key (`db_password`). */
const SECRET_WORDS = new Set([
  ...KIND_WORDS,
  "password",
  "passwd",
  "passphrase",
  "pwd",
  // Misspellings people type as key names.
  "passwrd",
  "pasword",
  "paswd",
  "pswd",
  "pw",
  "secret",
  // Misspelt.
  "secert",
  "sercet",
  "scret",
  "secrets",
  "token",
  "apikey",
  "accesskey",
  "privatekey",
  "secretkey",
  "clientsecret",
  // sssd's `ldap_default_authtok`, pfSense's and nslcd's `bindpw`.
  "authtok",
  "bindpw",
]);

/**
 * Consul's and Nomad's ACL token, printed as `SecretID`: an id in name, the
 * credential itself. AWS's `SecretId`, Terraform's `secret_id` and a
 * `--secret-id` name a stored secret, and stay names.
 */
function isTokenNamedId(name: string): boolean {
  return name === "SecretID";
}

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

/**
 * Words that say a key holds something about a secret, not the secret
 * (`token_count`, `session_id`, `password_hash`, `secretName`): with one of
 * them the key names no secret. A service account's `private_key_id` is the
 * exception: it travels with the key.
 */
const NOT_THE_SECRET = new Set([
  "id",
  "ids",
  "count",
  "type",
  "name",
  "names",
  "url",
  "uri",
  "path",
  "file",
  "ref",
  "expires",
  "expiry",
  "ttl",
  "timeout",
  "length",
  "len",
  "max",
  "min",
  "limit",
  "hash",
  "digest",
  ...DIGEST_ALGORITHMS,
  "public",
  "required",
  "enabled",
  "endpoint",
  "header",
  "prefix",
  "format",
  "version",
  "policy",
  "mode",
  "usage",
  "fingerprint",
  "scope",
  "scopes",
]);

/** A cheap first look: a key holding none of these stems cannot match. */
const STEMS =
  /pass|pasw|pswd|pw|secret|secert|sercet|scret|token|auth|cookie|session|cred|key|bearer|jwt/i;

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
  return rememberedSecretKeyName(name);
}

// Text built to be slow repeats the same names thousands of times.
const rememberedSecretKeyName = memoize(namesSecret);

function namesSecret(name: string): boolean {
  if (!STEMS.test(name)) return false;
  const parts = words(name);
  if (parts.join("_") === "private_key_id") return true;
  if (isTokenNamedId(name)) return true;
  if (parts.some((part) => NOT_THE_SECRET.has(part))) return false;
  for (let i = 0; i < parts.length; i++) {
    if (SECRET_WORDS.has(parts[i]!)) return true;
    if (i > 0 && SECRET_PAIRS.has(`${parts[i - 1]} ${parts[i]}`)) return true;
  }
  return false;
}

/** {@linkcode KIND_WORDS}, for lookups. */
const KIND = new Set(KIND_WORDS);

/**
 * Whether `name` names a secret ({@linkcode isSecretKeyName}) and its last
 * word or two say its value is the secret itself (`MOMO_ACCESS_KEY`,
 * `auth_server_shared_secret`, `appSigningKey`), not a mode, a driver or a
 * store for one (`SESSION_DRIVER`, `AUTH_PROVIDER`).
 *
 * @example
 * ```ts
 * endsInSecretWord("MOMO_ACCESS_KEY"); // true
 * endsInSecretWord("SESSION_DRIVER"); // false
 * ```
 */
export function endsInSecretWord(name: string): boolean {
  if (!isSecretKeyName(name)) return false;
  const parts = words(name);
  const last = parts[parts.length - 1];
  if (last === undefined) return false;
  if (parts.length > 1 && SECRET_PAIRS.has(`${parts[parts.length - 2]} ${last}`)) return true;
  return SECRET_WORDS.has(last) && !KIND.has(last);
}

/**
 * Why a name in text (`NAME=…`, `name: …`, `--name …`) does not say its
 * value is a secret, or `undefined` when it does. Looser than
 * {@linkcode isSecretKeyName}: a part of a word counts (`DBSECRET`,
 * `authkey`, `appKey`, a name ending in `key`), since the text rules also
 * want the value to look like a secret; a name that says its value is
 * public or not the secret itself (`…_id`, `hash`, `public_key`,
 * `max_tokens`, `session_timeout`) does not.
 */
export function textSecretNameProblem(name: string): string | undefined {
  // `algoliaAdminKeyB64`, `DB_PASSWORD_BASE64`: the same secret, encoded.
  const encoded = /^(.+?)[_.-]?(?:b64|B64|base64|Base64|BASE64)$/.exec(name);
  if (encoded !== null) return textSecretNameProblem(encoded[1]!);
  const saysSecret =
    /api.?key|apikey|secret|secert|sercet|scret|token(?!i[sz])|access.?key|account.?key|private.?key|cred|auth(?!or(?!iz))|cookie|session|(?:^|[^a-z])secure$|(?:^|[^a-z])key\d{0,2}$|(?:^|[^a-z])app.?keys$/i;
  // `appKey`, `signingKey`: a camelCase name ending in Key (case matters here).
  const camelKey = /[a-z]Key\d{0,2}$/;
  if (!saysSecret.test(name) && !camelKey.test(name)) return `name ${name} does not say secret`;
  // Asterisk's `md5secret`, a `sha256_token`: a digest of the secret, named by its algorithm.
  if (LEADING_DIGEST.test(name)) {
    return `name ${name} names a digest`;
  }
  // A service account file's `private_key_id` travels with the key and names it to Google.
  if (/^private_key_id$/i.test(name)) return undefined;
  if (isTokenNamedId(name)) return undefined;
  const parts = words(name);
  // VNPay's `vnp_HashSecret`: the secret a hash is keyed with.
  if (/^hash$/.test(parts.at(-2) ?? "") && /^secret$/.test(parts.at(-1) ?? "")) return undefined;
  // A name that ends in `secret` names one whoever uses it (`REQUEST_SIGNING_SECRET`,
  // `cache_secret`): only a part that says public or counts still says otherwise.
  const vetoes = /^secrets?$/.test(parts.at(-1) ?? "") ? NOT_A_SECRET_EVEN_LAST : PUBLIC_ANYWHERE;
  if (
    // NextAuth's `next-auth.session-token` is no pagination token.
    parts.some((part, i) => vetoes.has(part) && !(part === "next" && parts[i + 1] === "auth")) ||
    PUBLIC_LAST.has(parts.at(-1) ?? "") ||
    /[a-z]Id$|Hash$/.test(name) || /[a-z](?:Name|Ref|Path|File|Type|Url|Arn|Id)$/.test(name)
  ) {
    return `name ${name} says not a secret`;
  }
  return undefined;
}

/**
 * Name parts that say a value is public or counts something, wherever they
 * stand and even before a final `secret` (`public_secret`, `max_secret_len`).
 */
const PUBLIC_OR_COUNTED = [
  "hashed",
  "public",
  "publishable",
  "pub",
  "pubkey",
  "max",
  "min",
  "count",
  "limit",
  "length",
  "len",
  "fingerprint",
];

/** The parts of {@linkcode PUBLIC_ANYWHERE} that say so before a final `secret` too. */
const NOT_A_SECRET_EVEN_LAST = new Set(PUBLIC_OR_COUNTED);

/**
 * Name parts that say a value is public or not the secret itself wherever
 * they stand (`public_key`, `max_tokens`, `idempotency_key`, `key_id`).
 */
const PUBLIC_ANYWHERE = new Set([
  ...PUBLIC_OR_COUNTED,
  "id",
  "ids",
  "idempotency",
  "dedup",
  "request",
  "sort",
  "partition",
  "primary",
  "foreign",
  "lookup",
  "cache",
  "index",
  "usage",
  "kid",
  // Pagination: AWS's `NextToken`, `nextPageToken`, `continuation_token`, cursors.
  "next",
  "page",
  "paging",
  "pagination",
  "continuation",
  "cursor",
  // `Sec-WebSocket-Key`: a handshake's nonce.
  "websocket",
  "socket",
]);

/**
 * Parts that say so as the name's last part, what it names (`DB_HOST`,
 * `token_type`, `KEY_FILE`, `session_timeout`); before a secret word they
 * say whose it is (`GEM_HOST_API_KEY`, `AZURE_STORAGE_KEY`).
 */
const PUBLIC_LAST = new Set([
  // AES-GCM's authentication tag, kept beside its ciphertext (Chef's encrypted data bags).
  "tag",
  "digest",
  "path",
  "file",
  "url",
  "uri",
  "name",
  "type",
  "expires",
  "expire",
  "expiry",
  "ttl",
  "version",
  "format",
  "prefix",
  "header",
  "field",
  "label",
  "endpoint",
  "host",
  "region",
  "bucket",
  "domain",
  "timeout",
  "samesite",
  "age",
  "duration",
  "storage",
  "store",
  "hash",
  "sha",
  "digest",
  "checksum",
  "scope",
  "scopes",
]);

/**
 * Why a name in text does not say its value is a password, or `undefined`
 * when it does (`DB_PASS`, `passwd`, `passwrd`, `dbPass`); names of things
 * about a password (`password_hash`, `password_min_length`, `user`) do not.
 */
export function textPasswordNameProblem(name: string): string | undefined {
  const saysPassword =
    /pas{1,2}(?:w(?:or|ro|r|o)?d|ow?rd)|pas+word|pswd|passphrase|pwd|(?:^|[^a-z])p(?:ass|w)(?:[^a-z]|$)|[a-z]P(?:ass|w)(?:[^a-z]|$)|passwort|kennwort|contrase|senha|wachtwoord|mot_?de_?passe|mdp|authtok|bind_?pw|bindpass/;
  // `<from 1Password: item>`: the password manager, not a password's name.
  if (/^1password$/i.test(name)) return "1Password, a password manager";
  // `adminPasswordKey: admin-password` names a key inside a Kubernetes Secret.
  if (
    /[Pp]as+(?:word)?(?:Key|Ref|Name|SecretName|SecretKey)$|[Pp]as+(?:word)?_(?:key|ref|secret_name)$/
      .test(name)
  ) {
    return `name ${name} names where the password is kept`;
  }
  // Capitals glued to PASS (`DBPASS`, `REDISPASS`), not `BYPASS` or `COMPASS`.
  const gluedCapitals = /^[A-Z0-9_]*[A-Z0-9](?<!BY|COM|SUR|TRES)PASS$/;
  if (
    !saysPassword.test(name) && !saysPassword.test(name.toLowerCase()) && !gluedCapitals.test(name)
  ) {
    return `name ${name} does not say password`;
  }
  return aboutAPassword(name) ? `name ${name} is not the password itself` : undefined;
}

/** Stems that make a name about a password wherever they stand (`hashed_password`, `PasswordMinLength`). */
const ABOUT_A_PASSWORD_STEMS = new RegExp(
  `hash|salt|length|policy|reset|placeholder|strength|expir|digest|${DIGEST_ALGORITHM}|encrypt|bcrypt|protected|regex|pattern`,
  "i",
);

/**
 * Words that make a name about a password when they follow the password
 * word as a whole part of the name (`password_type`, `passwordFile`,
 * `pwdfile`); inside another word they say nothing (`sonatypePassword`,
 * `support_password`).
 */
const ABOUT_A_PASSWORD_AFTER = new Set([
  "len",
  "min",
  "max",
  "url",
  "uri",
  "file",
  "path",
  "field",
  "label",
  "prompt",
  "hint",
  "type",
  "rule",
  "changed",
  "updated",
  "required",
  "enabled",
  "mode",
  "manager",
  "input",
  "form",
  "column",
  "error",
  "message",
  "text",
  "title",
  "less",
  "through",
  "rate",
  "count",
  "port",
  // Jenkins' `passwordVariable: 'NEXUS_PW'` names the variable that will hold it.
  "variable",
  "var",
  // A command that prints it: aerc's `password_command`, msmtp's `passwordeval`.
  "command",
  "cmd",
  "eval",
  // When it changed: Argo CD's `admin.passwordMtime`, Active Directory's `pwdLastSet`.
  "mtime",
  "last",
  "time",
  "date",
]);

/**
 * Those that do so before it (`min_password_len`, `form_password`,
 * `passwordInput`); a word before the password word otherwise says whose
 * password it is (`account_password`, `ClearTextPassword`, `file_password`).
 */
const ABOUT_A_PASSWORD_BEFORE = new Set([
  "len",
  "min",
  "max",
  "field",
  "label",
  "prompt",
  "hint",
  "input",
  "form",
  "column",
  "error",
  "message",
  "title",
  "rule",
  "mode",
  "type",
]);

/** A password word leading a part written without separators (`passwordfile`, `pwdless`). */
const LEADING_PASSWORD_WORD = /^(?:pass(?:word|wd|wrd)?|pwd|pw)/;

/** Whether a password's name says it holds something about it, not the password. */
function aboutAPassword(name: string): boolean {
  if (ABOUT_A_PASSWORD_STEMS.test(name)) return true;
  const parts = words(name);
  if (/^user(?:name)?$/.test(parts.at(-1) ?? "")) return true;
  const at = parts.findIndex((part) =>
    LEADING_PASSWORD_WORD.test(part) || PASSWORD_PART.test(part)
  );
  // A word before says so right before the password's (`label_password`, not the product
  // in `LABEL_STUDIO_PASSWORD`).
  return parts.some((part, i) =>
    i < at ? i === at - 1 && ABOUT_A_PASSWORD_BEFORE.has(part) : ABOUT_A_PASSWORD_AFTER.has(part) ||
      ABOUT_A_PASSWORD_AFTER.has(part.replace(LEADING_PASSWORD_WORD, ""))
  );
}

/** A part of a name that says password (`dbpass`, `passwrd`, `mot_de_passe`'s `passe`). */
const PASSWORD_PART = /pas+w|pwd|pswd|passe$|pass$|passwort|kennwort|contrase|senha|wachtwoord/;
