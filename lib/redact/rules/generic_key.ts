/**
 * Generic keys named by context: a value of 16+ characters with letters,
 * digits and entropy, assigned to a name that says key, secret or token
 * (`api_key=…`, `"client_secret": "…"`, `X-API-Key: …`); a shorter one (8+)
 * when the name says secret outright and the value mixes cases and digits. Names that say the
 * value is public or not a secret (`…_id`, `hash`, `public_key`, `max_tokens`)
 * and values that are code (`os.environ[…]`, `getenv(…)`, `${VAR}`) stay.
 *
 * @module
 */

import { boundaryFirst } from "../_boundary_first.ts";
import type { Candidate, Rule } from "../_engine.ts";
import { perText } from "../_memo.ts";
import {
  endsInSecretWord,
  isSecretKeyName,
  textPasswordNameProblem,
  textSecretNameProblem,
} from "../secret_keys.ts";
import {
  CALL_ARGUMENT,
  hasKeyValueHeader,
  markupPattern,
  mayHoldMarkup,
  notConfigWord,
} from "./password.ts";
import {
  charClasses,
  hasBothCasesAndDigit,
  hasDigitAndLetter,
  headAndName,
  isAsciiLetter,
  isNameChar,
  isSymbolNoise,
  isWordOrHyphen,
  lineBefore,
  minEntropy,
  mixesTwoKinds,
  notCall,
  notPlaceholder,
  notSealedCiphertext,
  passwordShapeProblem,
  placeholderProblem,
  PUBLISHABLE_KEYS,
  remembered,
  shannonEntropy,
  TEMPLATE_SHAPE,
} from "../_validators.ts";

// Patterns live inside the functions that use them: a regular expression is
// created when its function first runs, not when the hook loads every rule.

function nameSaysSecret(c: Candidate): string | undefined {
  if (c.groups["setsecret"] !== undefined) return undefined;
  const name = headAndName(c);
  // `Cookie: name=value`: the header, not a name; `session_cookie` reads its pairs.
  if (/^(?:set-)?cookie$/i.test(name) && c.secret.includes("=")) return "a Cookie header's pairs";
  // A session cookie's id is the session: whoever holds it is logged in.
  if (/^session_?id$/i.test(name) && /cookie/i.test(lineBefore(c.text, c.matchStart, 300))) {
    return undefined;
  }
  const problem = secretNameProblem(name);
  if (problem !== undefined) return problem;
  let nameStart = c.matchStart;
  while (nameStart > 0 && isNameCharOfText(c.text.charCodeAt(nameStart - 1))) nameStart--;
  const previous = c.text[nameStart - 1];
  // `arn:aws:secretsmanager:…:secret:name-AbCdEf`: a part of an ARN, which names a secret.
  if (previous === ":" && /\barn:aws[\w-]*:\S*$/.test(lineBefore(c.text, nameStart, 200))) {
    return "a part of an ARN";
  }
  // `public key: …`, `Dedup key: …`: the word before a bare `key` says what key it is.
  if ((previous !== " " && previous !== "\t") || !/^(?:key|token)$/i.test(name)) return undefined;
  let wordStart = nameStart - 1;
  while (wordStart > 0 && isAsciiLetter(c.text.charCodeAt(wordStart - 1))) wordStart--;
  const qualifier = c.text.slice(wordStart, nameStart - 1);
  return qualifier === "" ? undefined : secretNameProblem(`${qualifier}_${name}`);
}

/** `[\w.-]`, what the patterns read as a name's characters, in text of any case. */
function isNameCharOfText(c: number): boolean {
  return isWordOrHyphen(c) || c === 46;
}

/** Values shorter than this need a name that says secret outright and a typed-secret shape. */
const SHORT_MAX = 16;
/** The shortest value a name alone makes a secret. */
const SHORT_MIN = 8;

/**
 * Why a value under 16 characters is not a secret, or `undefined` when it
 * is: its name must say secret outright (`AUTH_TOKEN`, `secret`), and it
 * must mix lowercase, uppercase and digits without a word-like run of five
 * letters of one case (`OAuth2Client`, `v2-2024-11`, `abc12345` stay).
 */
function shortValueShape(c: Candidate): string | undefined {
  if (c.secret.length >= SHORT_MAX) return undefined;
  if (!isSecretKeyName(c.groups["setsecret"] ?? headAndName(c))) {
    return "short value under a name that does not say secret outright";
  }
  if (charClasses(c.secret, { alnum: true }) < 3) {
    return "short value without lowercase, uppercase and digits";
  }
  // A typed secret holds words (`Secret-En4ble`): a sign beside both cases and a digit says it is one.
  if (charClasses(c.secret) === 4) return undefined;
  return /[a-z]{5}|[A-Z]{5}/.test(c.secret) ? "short value with a word-like run" : undefined;
}

/** Rejects a value of 16 characters or more whose entropy is at or below 3.2 bits per character. */
function longValueEntropy(c: Candidate): string | undefined {
  if (c.secret.length < SHORT_MAX) return undefined;
  const h = shannonEntropy(c.secret);
  return h <= 3.2 ? `entropy ${h.toFixed(2)} ≤ 3.2` : undefined;
}

const secretNameProblem = remembered(textSecretNameProblem);
const passwordNameProblem = remembered(textPasswordNameProblem);

function notPlainUuid(c: Candidate): string | undefined {
  // With a short prefix that says what it numbers: `session=gsess-<uuid>` in a game server's log.
  const uuid = /^(?:[a-z]{1,8}[-_])?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (!uuid.test(c.secret)) return undefined;
  return /api.?key|apikey|secret|token|auth|credential/i.test(headAndName(c))
    ? undefined
    : "a UUID under a plain key name";
}

/**
 * Base64 that merely starts with `/`: long, all three character classes,
 * and padded, or with a `+`, or a part between slashes no path has (24+).
 */
function isBase64KeyMaterial(value: string): boolean {
  if (value.length < 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/\d/.test(value)) return false;
  return /[+=]/.test(value) || value.split("/").some((part) => part.length >= 24);
}

function notCodePath(c: Candidate): string | undefined {
  // A part of 16+ characters with two digits is token material (an unsigned JWT, a Discord
  // token); `PBKDF2PasswordHasher` is a class.
  if (
    /^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$/.test(c.secret) &&
    !c.secret.split(".").some((part) => part.length >= 16 && /\d.*\d/.test(part))
  ) return "dotted identifier";
  if (/^(?:https?:)?\/\//.test(c.secret)) return "URL or path";
  if (/^\.{0,2}\//.test(c.secret) && !isBase64KeyMaterial(c.secret)) return "URL or path";
  // `exports/e9a7….csv`, `uploads/20/18/667373a9…`: an object's path, not a key (base64 keys
  // hold slashes too, but never end in an extension nor run in lowercase between three of them).
  if (
    c.secret.includes("/") &&
    (/\.[a-z0-9]{2,8}$/.test(c.secret) || /^[a-z0-9_.-]+(?:\/[a-z0-9_.-]+){2,}$/.test(c.secret))
  ) {
    return "an object's path";
  }
  // `voipfone-trunk-auth/30241877` (an Asterisk auth object and its user): `-` and `/` are never
  // both in a base64 alphabet, and lowercase words name things.
  if (/^[a-z]+(?:-[a-z0-9]+)+\/[\w.@-]+$/.test(c.secret)) return "a name and its part";
  // `tokenizer_config_v2_final`, `checkout-v2-rollout`: lowercase words and short version
  // parts, a name in code or a feature flag's key.
  if (
    /^[a-z]+(?:[_-](?:[a-z]+|[a-z]?\d{1,3}))+$/.test(c.secret) && c.secret.split(/[_-]/).length >= 3
  ) {
    return "snake_case or kebab-case name";
  }
  return undefined;
}

const NAME_WORDS = [
  "key",
  "secret",
  "token",
  "auth",
  "cred",
  "cookie",
  "session",
  "secure",
  // Misspelt.
  "secert",
  "sercet",
  "scret",
];

/**
 * What may stand between a name and its value: quotes, `\`, blanks and line
 * breaks, `:`, `=`, `>`, `(`, `,`, `]`, Objective-C's `@`.
 */
function isAssignChar(c: number): boolean {
  return c === 34 || c === 39 || c === 92 || c === 32 || c === 9 || c === 10 || c === 13 ||
    c === 58 || c === 61 || c === 62 || c === 40 || c === 44 || c === 93 || c === 64;
}

/** `[a-z0-9_+/=.~-]` (the text is lowercased). */
function isValueChar(c: number): boolean {
  return isNameChar(c) || c === 43 || c === 47 || c === 61 || c === 126;
}

/**
 * Where a YAML value starts when `at` holds a `!!binary` or `!!str` tag or a block
 * scalar's header (`|`, `>-`) ending its line; else `at`.
 */
function pastBlockHeader(lower: string, at: number): number {
  let i = at;
  if (lower.startsWith("!!binary", i)) i += 8;
  else if (lower.startsWith("!!str", i)) i += 5;
  while (lower[i] === " " || lower[i] === "\t") i++;
  // `>` may stand before a value, so the header may have begun before `at`.
  const header = lower[i] === "|" || lower[i] === ">" || lower[at - 1] === ">";
  if (!header) return i;
  const afterTag = i;
  while (i < lower.length && "|>+-123456789 \t".includes(lower[i]!)) i++;
  if (lower[i] !== "\n") return afterTag;
  i++;
  while (lower[i] === " " || lower[i] === "\t") i++;
  return i;
}

/** The rest of a name, `[\w.-]*` in lowercased text, sticky: the engine's search, not a loop. */
const NAME_RUN = /[a-z0-9_.-]*/y;

/** A type between a name's `:` and its `=` (`: str =`, `: &'static str =`), then a quote. */
const TYPE_ANNOTATION = /&?[a-z_][\w.[\]|]{0,30}[ \t]+=[ \t]{0,4}(?:\\{0,3}["'])?/y;

/** Whether 16 value characters holding a digit and a letter start at `at`. */
function holdsValue(lower: string, at: number): boolean {
  let digit = false;
  let letter = false;
  let end = at;
  for (; end < lower.length && isValueChar(lower.charCodeAt(end)); end++) {
    const c = lower.charCodeAt(end);
    if (c >= 48 && c <= 57) digit = true;
    else if (c >= 97 && c <= 122) letter = true;
  }
  return end - at >= SHORT_MIN && digit && letter;
}

/**
 * Whether some name word is followed, past the rest of its name and what
 * may stand before a value, by 16 value characters holding a digit and a
 * letter: what both the pattern and `hasDigitAndLetter` need. Code is full
 * of keys and tokens (`const token = readToken()`); few of them are
 * assigned such a value, and then the pattern is never compiled.
 *
 * Linear: a word inside the name the last one ended has the same value, and
 * the values of later names start later, so each run of value characters is
 * read once per word.
 */
function mayAssignSecret(lower: string): boolean {
  for (const word of NAME_WORDS) {
    let nameEnd = 0;
    let runFrom = 0;
    let runEnd = 0;
    let lastDigit = -1;
    let lastLetter = -1;
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      if (at < nameEnd) {
        // The rest of a name already read: search on from its end.
        at = lower.indexOf(word, nameEnd) - 1;
        if (at < 0) break;
        continue;
      }
      NAME_RUN.lastIndex = at + word.length;
      NAME_RUN.test(lower);
      nameEnd = NAME_RUN.lastIndex;
      let valueStart = nameEnd;
      while (valueStart < lower.length && isAssignChar(lower.charCodeAt(valueStart))) valueStart++;
      // A value may begin with `=`, which is also what may stand before it.
      while (valueStart > nameEnd && lower.charCodeAt(valueStart - 1) === 61) valueStart--;
      valueStart = pastBlockHeader(lower, valueStart);
      // Laravel's `APP_KEY=base64:…` (the `=` may have been kept as the value's start).
      for (const at of [valueStart, valueStart + 1]) {
        if (lower.startsWith("base64:", at)) valueStart = at + 7;
      }
      if (valueStart < runFrom || valueStart >= runEnd) {
        runFrom = valueStart;
        lastDigit = -1;
        lastLetter = -1;
        for (runEnd = valueStart; runEnd < lower.length; runEnd++) {
          const c = lower.charCodeAt(runEnd);
          if (!isValueChar(c)) break;
          if (c >= 48 && c <= 57) lastDigit = runEnd;
          else if (c >= 97 && c <= 122) lastLetter = runEnd;
        }
      }
      if (
        runEnd - valueStart >= SHORT_MIN && lastDigit >= valueStart && lastLetter >= valueStart
      ) {
        return true;
      }
      // A typed declaration's value: `secret: str = "…"`.
      TYPE_ANNOTATION.lastIndex = valueStart;
      if (TYPE_ANNOTATION.test(lower) && holdsValue(lower, TYPE_ANNOTATION.lastIndex)) return true;
    }
  }
  return false;
}

/** A secret-looking value after a key/secret/token name. */
export const genericKey: Rule = {
  id: "generic_api_key",
  description: "Generic key, secret or token value named by context",
  placeholder: "<SECRET>",
  keywords: NAME_WORDS,
  precheck: (facts) =>
    mayAssignSecret(facts.lower) || facts.lower.includes("gh secret set") ||
    facts.lower.includes("env:") || facts.lower.includes("vercel env add"),
  pattern: () =>
    new RegExp(
      // Starts at the word (a literal), then looks back for the name's head: a
      // leading class made V8 try every offset (the prefix mix: 12 → 9 ms/MiB).
      "(?:(?:key|secret|token|auth|cred|cookie|session|secure|secert|sercet|scret)" +
        // Greedy: the head is the one run of name characters before the word either way, and a
        // lazy run tried each length from the word leftwards (the prefix mix: 9.2 → 3.6 ms/MiB).
        "(?<=(?<![\\w.-])(?<head>[\\w.-]{0,40}(?:key|secret|token|auth|cred|cookie|session|secure|secert|sercet|scret)))" +
        "(?<name>[\\w.-]{0,40})" +
        "(?:(?:\\\\{0,3}[\"'])?\\]?[ \\t]{0,40}(?::=|=>|->|:[ \\t]{0,4}&?[A-Za-z_][\\w.\\[\\]|]{0,30}[ \\t]+=[ \\t]|[:=])[ \\t]{0,24}(?:!!(?:binary|str)[ \\t]*)?(?:[|>][-+]?[1-9]?[ \\t]*\\n[ \\t]{0,40})?" +
        // A key decoded where it is assigned: `key = Convert.FromBase64String("…")`.
        "(?:(?:Convert\\.FromBase64String|Encoding\\.\\w{1,10}\\.GetBytes|b64decode|Buffer\\.from|fromhex|DecodeString|\\[\\]byte|SecretKeySpec)\\([ \\t]{0,4})?" +
        // Objective-C's string literals: `accessToken:@"…"`.
        "(?:@?\\\\{0,3}[\"'])?" +
        // A name-value pair of arguments, the value maybe on the next line.
        "|\\([ \\t]{0,4}\\\\{0,3}[\"']|[\"'][ \\t]{0,4},\\s{0,12}[\"'])" +
        "|(?<![\\w-])--(?<name>[\\w-]{0,30}?(?:key|secret|token|auth)[\\w-]{0,20})(?:=|[ \\t]+)[\"']?" +
        // `aws configure set NAME VALUE`; `gh secret set NAME --body VALUE` names a secret whatever NAME says.
        "|\\bconfigure[ \\t]+set[ \\t]+(?<name>[\\w.-]{1,80})[ \\t]+[\"']?" +
        // PowerShell: `Set-Item -Path Env:NAME -Value VALUE`.
        "|\\bEnv:(?<name>[\\w.-]{1,80})[ \\t]+-Value[ \\t]+[\"']?" +
        "|\\bgh[ \\t]+secret[ \\t]+set[ \\t]+(?<setsecret>[\\w-]{1,100})[ \\t]+(?:-{1,2}(?!body\\b|b\\b)[\\w-]{1,20}(?:[ \\t=]+[^\\s-][^\\s]{0,200})?[ \\t]+){0,4}(?:--body|-b)(?:=|[ \\t]+)[\"']?" +
        // `vercel env add NAME production --value VALUE`: whatever NAME says.
        "|\\bvercel[ \\t]+env[ \\t]+add[ \\t]+(?<setsecret>[\\w-]{1,100})[^\\n|;&]{0,100}?--value(?:=|[ \\t]+)[\"']?)" +
        // A digit and a letter in the value's first part, as `hasDigitAndLetter` wants and the
        // precheck looks for: a value without them is no candidate (two in three of the prefix
        // mix's, each judged in vain). A key that is two parts joined by colons goes whole:
        // Elasticsearch's `id:api_key`, k3s's `K10…::server:password`.
        "(?:base64:)?(?=[A-Za-z0-9_\\-+/=.~]{0,8191}\\d)(?=[A-Za-z0-9_\\-+/=.~]{0,8191}[A-Za-z])" +
        "(?<secret>[A-Za-z0-9_\\-+/=.~]{8,8192}" +
        "(?:(?:::[\\w-]{1,40})?:[A-Za-z0-9_\\-+/=~]{8,200})?" +
        // A list of keys, comma-joined (Strapi's `APP_KEYS=…,…`, a rotation's old keys).
        "(?:,[A-Za-z0-9_\\-+/=.~]{16,8192}){0,8})",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 400,
  validators: [
    nameSaysSecret,
    notPlaceholder,
    notSealedCiphertext,
    notCall,
    notCodePath,
    notPlainUuid,
    function notIkeCookies(c) {
      // A FortiGate log's `cookies="<initiator SPI>/<responder SPI>"`: an IKE SA's ids.
      return /^[0-9a-f]{16}\/[0-9a-f]{16}$/.test(c.secret) && /^cookies?$/i.test(headAndName(c))
        ? "an IKE SA's SPIs"
        : undefined;
    },
    function notKeyFingerprint(c) {
      // `GPG_KEY=5BE3A09D…` (python's images): the release key's fingerprint, public.
      return /^(?:[0-9A-F]{40}|[0-9a-f]{40}|[0-9A-F]{16})$/.test(c.secret) &&
          /gpg|pgp|gnupg/i.test(headAndName(c))
        ? "a key's fingerprint"
        : undefined;
    },
    function notRecordKey(c) {
      // `{"kind":"user","key":"16c8…"}` (a LaunchDarkly context), `{"key":"…","value":…}` (a
      // Kafka record, a name/value pair): a bare `key` beside its record's kind or value names
      // the record, and is no credential.
      if (!/^key$/i.test(headAndName(c))) return undefined;
      // Within 300 characters either way, searched in slices: a search of the whole text per
      // candidate made text of `Secret Key: …` repeated quadratic.
      const before = c.text.slice(Math.max(0, c.start - 300), c.start);
      const open = before.lastIndexOf("{");
      if (open < 0) return undefined;
      const after = c.text.slice(c.end, c.end + 300);
      const close = after.indexOf("}");
      const record = before.slice(open) + c.secret + (close < 0 ? after : after.slice(0, close));
      return /\\?["'](?:kind|type|topic|partition|offset|value)\\?["'][ \t]*:/i.test(record)
        ? "a record's key beside its kind or value"
        : undefined;
    },
    function notLabelledChecksum(c) {
      // `checksum/secret: 5c50…`: Helm's digest of a Secret's manifest, named after it.
      return /^[0-9a-f]{40,128}$/.test(c.secret) &&
          /(?:checksum|digest)[\w./-]*\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?$/i.test(
            lineBefore(c.text, c.start, 80),
          )
        ? "a checksum"
        : undefined;
    },
    function notPaymentObjectId(c) {
      // `token=tok_9f2c…`, `pm=pm_1PHv…`: a payment provider's object ids name a card, they
      // open nothing.
      return /^(?:tok|btok|pm|pi|ch|cus|src|card|seti|sub|in|evt|txn|py|po|ba|prod|price)_[A-Za-z0-9]{8,40}$/
          .test(c.secret)
        ? "a payment provider's object id"
        : undefined;
    },
    function notPacketDigest(c) {
      // RADIUS's `Message-Authenticator = 0x…` in a debug log: the packet's HMAC, no key.
      return /^0x[0-9a-f]{32}$/i.test(c.secret) && /authenticator$/i.test(headAndName(c))
        ? "a RADIUS packet's digest"
        : undefined;
    },
    function notCredentialPath(c) {
      // systemd's `LoadCredential=NAME:/etc/credstore/NAME`: where the secret is kept.
      return /^[\w.-]+:\/[\w./-]+$/.test(c.secret)
        ? "a name and where the secret is kept"
        : undefined;
    },
    function notNamedDigest(c) {
      // A cache key or an artifact's name: words, then a digest of the content
      // (`Linux-pnpm-646dac…`, `node-modules-v2-<sha256>`).
      return /^[A-Za-z][A-Za-z0-9.]*(?:[-_][A-Za-z0-9.]+){1,6}[-_][0-9a-f]{40,64}$/.test(c.secret)
        ? "words and a content digest"
        : undefined;
    },
    hasDigitAndLetter,
    shortValueShape,
    minEntropy(2.5),
    longValueEntropy,
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "vercel env add SHOP_API_KEY production --value vqMkAkdjOGMZcWLe3cMqJAejCxood3vk --yes",
    'spark.conf.set(\n  "fs.azure.account.key.lakeprodsa.dfs.core.windows.net",\n  "IQC+z1PezEKN666dNa2eFXVFMSJF/DhxpANDxR6cmqh3n2LR3Fb3IvRAs92KefWZ5a0/eDgrLm4MSt5n0q+G1A=="\n)',
    "api_key: 3f9a2c7e1b5d4a8f9c0e2b4d6f8a1c3e",
    // Short values under a name that says secret outright, and Laravel's `base64:` key.
    'export AUTH_TOKEN=Kx92mfL0qP\nconst cfg = { secret: "Hq5-Wz9-Lk3-Rm7" }',
    // Netmiko's enable secret in an inventory: words, a digit and a sign.
    'connection_options:\n  netmiko:\n    extras:\n      secret: "Secret-En4ble"',
    "APP_KEY=base64:Qm9vdHN0cmFwNGxhcmF2ZWwxMjM0NTY3ODkwYWJjZGVm",
    // Django's session cookie.
    "Cookie: sessionid=q8w3e7r2t6y1u5i9o4p0; csrftoken=Zx8Cv3Bn7Ml2Kj6Hg1Fd",
    "X-API-Key:Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1",
    // `kubectl describe pod`: the value aligned after the colon.
    "    Environment:\n      ZP_KEY2:         Qmblt3upXdcAjbgsJ87eDlmvUzm1PwdT",
    '{"client_secret": "Zx7Cv3Bn8Ml1Kj5Hg9Fd2Sa6"}',
    "WEBHOOK_SIGNING_SECRET=9c0e2b4d6f8a1c3e3f9a2c7e1b5d4a8f",
    "deploy-cli --api-key Hs5Jd1Fg0Au4Ei6Oc9Qw2Zx7 --env prod",
    // Names: creds, a camelCase key, an Authorization header with no scheme, a session cookie.
    'creds = "Wq8Rt3Lp6Zx2Vm9Kc4Nb7Hj1"',
    "  appKey: 4f1e9a7c2b8d3e6f0a5c9b2d7e1f3a8c6b4d0e2f",
    "authorization: 2FEqerfN49LJsTBcQ4D7dQldoBH13Ljn",
    // A key passed as a function argument.
    'sgMail.setApiKey("Rm5Tq8Vx2Lk7Wz3Pn9Yb4Hc6Jd1");',
    '[CDAClient clientWithSpaceKey:@"9xk2lm7qw3zp" accessToken:@"Zx8Kq2Lm9Vw3Rt7Yp4Bn6Cd1Hf5Js0Gt2"];',
    // A name-value pair of arguments, `aws configure set`, `gh secret set`.
    "[Environment]::SetEnvironmentVariable('API_TOKEN', 'Qp7Lx2Wm9Rz4Vt8Kn3Bc6', 'User')",
    "aws configure set aws_secret_access_key Rw9Tz4Kq8Lm3Vx7Nb2Pc6Hd1Jf5Gs0Ya8",
    'gh secret set DEPLOY_HOOK --body "Kv8Nq3Wx7Lz2Rt6Pm9Bc4Hd"',
    "gh secret set VERCEL_TOKEN --repo acme/web --env production --body 'Pa7GVALblcTf9bKtZF7AGQIa'",
    'Set-Item -Path Env:WEATHER_API_KEY -Value "Gq8LmxJTeKdNnFRIBXuDL7DxtpYlSXp"',
    // Consul's ACL token as `consul acl token create` prints it.
    "AccessorID:       9d3f7a5c-0e8b-4d6f-8a1c-9e3b7d5f1a2c\nSecretID:         4f8a2c6e-1b9d-4f7a-9c0e-8b2d6f4a1c9e",
  ],
  falsePositives: [
    "(41)   Message-Authenticator = 0x6b2f1c0c9e6e5a7a3d6f4b0b2a1c9d8e",
    // Vault's audit log: each secret is written as its salted HMAC.
    '{"auth": {"client_token": "hmac-sha256:4c1e0a9f7b3d52e86a0f1c9b7d3e5a2f8c6b4d0e9a7f5c3b1d8e6a4c2f0b9d7e"}}',
    // AES-GCM's tag beside its ciphertext (a Chef encrypted data bag).
    '{"encrypted_data": "Lk3v9QzT0w8bN5rXyC2mAe7u", "iv": "Hd4Qn8Zt2Wc6Lp0B", "auth_tag": "Zk7Tq2Vx9Lm4Rw8Pn3Bc6Q==", "version": 3}',
    "[Service]\nLoadCredentialEncrypted=smtp-secret:/etc/credstore.encrypted/smtp-secret",
    "2024-06-12T21:44:09Z INFO allocator session=gsess-0c7e41a2-5b9d-4f3e-8a61-d2c4b7e9f013 port=7777",
    'logdesc="IPsec connection status changed" action="tunnel-up" cookies="5c1e9a7b3d2f4e60/0a8b6c4d2e1f3a57" user="N/A"',
    '{"kind":"user","key":"16c80c1bbf864508eebb47c87d340e51ebc31571","anonymous":false}',
    '{"topic":"orders","partition":3,"key":"a7Kq2Wv9Lp4Rt8Mn3Bc6Hd1Jf5Gs0Ya","value":{"id":7}}',
    // A cache's key: its files' digest after words.
    "key: Linux-pnpm-646dac532fce276b341bfac190442820581cc3f07d7628ad2f836f21294f8e35",
    "Cache restored from key: pip-Linux-py3.12-fd195f9eb82239f451a63680ae059071b475fb42f89e8f06a45f2465f7ca2e5c",
    // A release signing key's fingerprint (python's Docker images).
    '"Env": ["PATH=/usr/local/bin", "GPG_KEY=5BE3A09D87F504216C3323B6D214120BBF64F74B", "PYTHON_VERSION=3.12.2"]',
    // Helm's checksum annotations.
    "  Annotations:      checksum/config: 5c503431417349dedc3f7779de87f6b4f330f3650e44491a32def661c12e3eff\n                    checksum/secret: 9b1d77a1c2e3f4051627384950a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e",
    // A card's token at the payment provider: an object id.
    "charge.failed ch=ch_3PHvr9K8b3nQ0zTA card=**** 8831 token=tok_9f2c1e7a54d04b8f",
    // A tokenizer is no token.
    'tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B-Instruct")',
    // An S3 object's key.
    '{"Key": "exports/customers_2024-05-17.parquet", "VersionId": "I9PxYkzbA5IFGPKlHChl2y1AxEz17qNb"}',
    // RevenueCat's public app key, made for the app.
    '"revenueCatAppleKey": "appl_Zq8mN3vL7xK2pR9tW4yB6cD1fGh"',
    "signed url generated for key=exports/e9a75876-ee00-42ed-8848-0f6beaaab0af.csv ttl=600s",
    "object stored bucket=blobs key=uploads/20/18/667373a9b18f0f7f477d18c4121d1727349fce2c773e61a59f2333e0a07b3b57",
    '{"results": [{"type": "Secret Keyword", "hashed_secret": "c5b34b86ceb27886a1a00c147a375d627f4e042f"}]}',
    '{"flags": [{"key": "checkout-v2-rollout", "on": true}]}',
    "--parameter-overrides AuthToken='{{resolve:secretsmanager:arn:aws:secretsmanager:eu-west-1:1:secret:redis-auth-hLi0v5:SecretString:token::}}'",
    "(RequestToken: fe4c8f6a-1dec-468b-94ce-e9d921c417fb, HandlerErrorCode: InvalidRequest)",
    "peer\n  public key: z9zXVzv9DEqL1k5zg3HI9moSCNnxAdTiyjqv4Fz5pYQ=\nDedup key: checkout-api/0ffa6ff27dcc",
    // An id named as such.
    "idempotency_key: 3dc26e33-dd75-4a47-8935-74ae5cc330ac",
    // A template reference.
    "API_KEY: ${{ secrets.API_KEY }}",
    // Code reading the environment.
    'secret_key = os.getenv("SECRET_KEY_FOR_SIGNING")',
    // A public key's fingerprint.
    "public_key_fingerprint: 9c0e2b4d6f8a1c3e3f9a2c7e1b5d4a8f",
    // AWS's name of a stored secret.
    'client.get_secret_value(SecretId="prod/Checkout-2024")',
    // A React list key that is a UUID.
    'key: "0b7e4c2a-9f1d-4e3b-8a6c-5d2f1e0a9b8c"',
    // A number of tokens.
    "max_tokens=4096000000000000",
    // An author, not auth.
    "author: Nguyen Van An 2024 edition 1234567890",
    // A session's timeout.
    "session_timeout=86400000000000000s",
    // Short values that are code or versions.
    "auth: OAuth2Client\ntoken: v2-2024-11\nsecret: abc12345",
    // A session id outside a cookie.
    '"session_id": "q8w3e7r2t6y1u5i9o4p0"',
  ],
};

/** A key, secret or token in XML, a .NET setting or a Terraform variable's default. */
export const genericKeyMarkup: Rule = {
  id: "generic_api_key_markup",
  description:
    "Key, secret or token named apart from its value: <apiKey>…</apiKey>, <add key=… value=…/>, env name/value entries, Dockerfile ENV",
  placeholder: "<SECRET>",
  keywords: NAME_WORDS,
  precheck: (facts) => mayHoldMarkup(facts.lower),
  pattern: () => markupPattern(NAME_WORDS.join("|")),
  secretGroup: "secret",
  priority: 400,
  validators: [
    nameSaysSecret,
    notConfigWord,
    notPlaceholder,
    notCodePath,
    notPlainUuid,
    function notDateTime(c) {
      // ISO 20022's `<CreDtTm>2024-06-11T05:14:02</CreDtTm>` (creation date and time, not `cred`).
      return /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/
          .test(c.secret)
        ? "a date and time"
        : undefined;
    },
    function markupSecretShape(c) {
      return c.secret.length < 8 ? `length ${c.secret.length} < 8` : undefined;
    },
    hasDigitAndLetter,
    minEntropy(3),
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    '<auth_token value="!q3Z!Y&wii^JbmLwH6"/>',
    "<entry value='Wq8Rt3Lp6Zx2Vm9Kc4' name='api_secret'/>",
    "<key>OneSignalAppID</key>\n<string>d09d793c</string>\n<key>OneSignalRestAPIKey</key>\n<string>ba7fff7e61d8ebc6bfe7aab842199e53</string>",
    "    13→\t<key>WebhookSigningSecret</key>\n    14→\t<string>9c0e2b4d6f8a1c3e3f9a2c7e1b5d4a8f7e6d5c4b</string>",
    '<form><input type="hidden" name="api_key" value="Hp8hkqdlm7tOtHWnsCGRlrwZbqcabUG"></form>',
    "<settings>\n  <apiKey>Jq8Lw3Rz7Vx2Tm9Nb4</apiKey>\n</settings>",
    '<add key="StorageSecret" value="Kd4Wq8Zr2Lm7Vx3T" />',
    "- name: STRIPE_WEBHOOK_SECRET\n  value: Wq4Zr8Lm2Xk7Tp3Vn9Bc",
    "envVars:\n  - key: MISTRAL_API_KEY\n    value: Wq4Zr8Lm2Xk7Tp3Vn9Bc",
    "ENV NPM_TOKEN Rt8Kw3Lz7Qm2Xv6Pn9Bc4",
  ],
  falsePositives: [
    "<apiKey>YOUR_API_KEY</apiKey>",
    "<keyName>primary-signing-key-2024</keyName>",
    "<tokenLifetime>3600</tokenLifetime>",
    // ISO 20022's creation date and time, read as `cred`.
    "<GrpHdr><MsgId>B2C-0613-7741</MsgId><CreDtTm>2025-03-02T09:41:27</CreDtTm></GrpHdr>",
  ],
};

/** The checks a key given in prose passes. */
const PROSE_KEY_CHECKS: Rule["validators"] = [
  notPlaceholder,
  notSealedCiphertext,
  notCodePath,
  function notCommit(c) {
    // `commit gây lỗi … là \`cde8867a…\``: a commit's id, named in the same sentence.
    return /^[0-9a-f]{7,40}$/.test(c.secret) && /\bcommit\b/i.test(lineBefore(c.text, c.start, 160))
      ? "a commit's id"
      : undefined;
  },
  minEntropy(3.2),
  function notAssignment(c) {
    return /^[A-Za-z_]\w*=[^=]/.test(c.secret) ? "an assignment, not a value" : undefined;
  },
  function proseKeyShape(c) {
    // Letters in both cases, 24 or more and random: a key without digits (MoMo's secret keys).
    if (/[a-z]/.test(c.secret) && /[A-Z]/.test(c.secret) && c.secret.length >= 24) {
      return shannonEntropy(c.secret) > 4 ? undefined : "letters without digits, not random";
    }
    return /\d/.test(c.secret) && /[A-Za-z]/.test(c.secret)
      ? undefined
      : "needs a digit and a letter";
  },
];

/**
 * A key's name in prose, its words in any case: English (a key whose first
 * word says what it signs or opens: `partner key`, `signing key`), and the
 * words for key and token in French, German, Spanish, Portuguese and Italian.
 */
const PROSE_KEY_NAME =
  "(?:(?:(?:api|access|partner|app|private|signing|hmac|master|merchant|hash|encryption|shared|webhook)[ _-]?key" +
  "|secret(?:[ _-]?key)?|client[ _-]?secret|token|cl[ée]|jeton|schl(?:ü|ue)ssel|clave|chave|chiave)(?![A-Za-z])" +
  // A name written as one CamelCase word: `AccessKeySecret`, `ClientSecret`, `Trial-Key`.
  "|(?-i:[A-Z][A-Za-z]{0,30}-?(?:Secret|Key|Token))(?![A-Za-z]))";

/** The keywords of the rules that read {@linkcode PROSE_KEY_NAME}: one of them stands in every name. */
const PROSE_KEY_KEYWORDS: readonly string[] = [
  "key",
  "token",
  "secret",
  "clé",
  "cle",
  "jeton",
  "schlüssel",
  "schluessel",
  "clave",
  "chave",
  "chiave",
];

/** The verbs that say "is" after a key's name and a blank, in the languages of {@linkcode PROSE_KEY_NAME}. */
const PROSE_KEY_VERBS = "is|was|là|la|est|ist|lautet|es|é|è";

/** What says "is" glued to a word in Japanese, Chinese and Korean (`キーは`, `密钥是`, `키는`). */
const PROSE_KEY_VERBS_CJK = "は|是|为|為|는|은";

/** The words for key, token and secret in Japanese, Chinese and Korean, which run on into the verb. */
const PROSE_KEY_WORDS_CJK: readonly string[] = [
  "キー",
  "トークン",
  "シークレット",
  "密钥",
  "秘钥",
  "密鑰",
  "令牌",
  "키",
  "토큰",
  "시크릿",
];

/** {@linkcode PROSE_KEY_VERBS} and {@linkcode PROSE_KEY_VERBS_CJK} as a test, made at first use. */
let proseKeyVerb: RegExp | undefined;

/** Whether `facts` may hold a key given in prose: a verb, or a word of the three that need none. */
function mayGiveKeyInProse(facts: { lower: string; text: string }): boolean {
  proseKeyVerb ??= new RegExp(`(?<![a-z])(?:${PROSE_KEY_VERBS})(?![a-z])|${PROSE_KEY_VERBS_CJK}`);
  return proseKeyVerb.test(facts.lower) ||
    PROSE_KEY_WORDS_CJK.some((word) => facts.text.includes(word));
}

/** `the API key for the sandbox is …`, `token của bot là …`: a key given in prose. */
export const genericKeyProse: Rule = {
  id: "generic_api_key_prose",
  description:
    "Key, secret or token given in prose (English, Vietnamese, French, German, Spanish, Portuguese, Italian, Japanese, Chinese, Korean)",
  placeholder: "<SECRET>",
  keywords: [...PROSE_KEY_KEYWORDS, ...PROSE_KEY_WORDS_CJK],
  precheck: mayGiveKeyInProse,
  pattern: () =>
    new RegExp(
      `(?:(?<![A-Za-z])${PROSE_KEY_NAME}` +
        `(?:[ \\t]{1,4}[^\\s:=]{1,20}(?![^\\s:=])){0,10}?[ \\t]{1,4}(?:${PROSE_KEY_VERBS}|是|为|為)(?![A-Za-z])` +
        // `本番のAPIキーは …`, `API 密钥是 …`, `운영 API 키는 …`: the verb glued to the word.
        `|(?:${
          PROSE_KEY_WORDS_CJK.join("|")
        })[\\u3040-\\u30ff\\u4e00-\\u9fff\\uac00-\\ud7af]{0,6}?[ \\t]{0,2}(?:${PROSE_KEY_VERBS_CJK}|:|：))` +
        "[ \\t]{0,4}:?[ \\t]{0,4}[\"'`“「]?" +
        // Not ended by a sentence's full stop.
        "(?<secret>[A-Za-z0-9_\\-+/=.~]{15,8191}[A-Za-z0-9_\\-+/=~])",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 400,
  validators: PROSE_KEY_CHECKS,
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "The API key for the sandbox is Qx8Wm3Lr7Tz2Kv6Pn4Bc9Hd, it expires Friday.",
    "token của bot là Zr7Kq2Wx9Lm4Vt8Pn3Bc6Hd nhé",
    "Token API của GHTK bên vận hành gửi là 4aa101049346ecba38fd7c91348e01ec183ff1c5, anh viết hàm nhé",
    "AccessKeyId LTAI5tQ8, AccessKeySecret là Wq8zR2mVt5Lx9Kp3Hd7cJf4Gs1Ya. Region cn-hangzhou.",
    "Le secret que Paul m'a envoyé est Hq4Zm8Tw2Lx6Rv9Kp3Nc7 . Tu peux relancer le test ?",
    "Der API-Schlüssel für Staging ist 8Vq2Lm7Tz4Kw9Rn3Hx6Pb, bitte eintragen.",
    "and the live partner key is 3c9e1f7a2b8d4e6f0a5c1b9d7e3f2a8c4b6d0e1f5a7c9b3d8e2f4a6c0b1d3e5f. Base string next",
    "本番のAPIキーは Rk8mZ3vLq2Wx7Tn4Yb9Hc1Jd6Fs0 です。",
    "API 密钥是 Vq7mT2xLk9Wr4Nz8Hc3Pb6Yd1，帮我配置一下",
    "운영 API 키는 Lm8Qz3Tk7Wv2Rn9Hx4Pc6Yb1 입니다",
    "・事前共有キー: Tq7Wm2Zx9Lk4Rv8N\n・ユーザー名: tanaka",
    "Der Trial-Key ist Hq8Vw3Lz7Tk2Rm9Nx4Pc6Yb1Jd5Fs0Ga2Ue, läuft auf mein Konto.",
  ],
  falsePositives: [
    "Bisect: commit gây lỗi đọc secret là `cde8867a65ca5b5d44c58683987ad4cb60f7bd8a`, commit trước đó vẫn chạy.",
    "the token is stored in AWS Secrets Manager as prod/db/token-2024-rotation",
    "the secret key is 32 characters long and base64 encoded",
    "the token is tokenizer_config_v2_final_build and the secret key is abcdefghijklmnop1234",
    "La clé est stockée dans Vault et le jeton est renouvelé chaque heure.",
    "APIキーは環境変数から読み込みます。トークンは1時間で失効します。",
    "the private key is in ~/.ssh/id_ed25519_deploy and the primary key is order_id",
  ],
};

/** Whether a line of `text` heads a listing of names and digests (`NAME  DIGEST  STATUS`). */
const hasDigestHeader = perText((text) =>
  /(?:^|\n)[ \t]*NAME[ \t]{2,}(?:DIGEST|SHA256|CHECKSUM)\b/.test(text)
);

/**
 * A key said without a verb: after words and a colon (`access_token Zalo
 * OA của shop đây: …`), or right after a name written as one word
 * (`accessKey Xk9…, secretKey Qm4…`).
 */
export const genericKeySaid: Rule = {
  id: "generic_api_key_said",
  description:
    "Key, secret or token after its name and words and a colon, or right after a camelCase or snake_case name",
  placeholder: "<SECRET>",
  keywords: PROSE_KEY_KEYWORDS,
  pattern: () =>
    new RegExp(
      // Starts at the colon, then looks back for the name: text dense with
      // key names made a forward search read six words after each of them.
      // A value of 24 characters must follow first (`token: …` right after
      // the name is the assignment rules').
      // The value may stand on the next line: `access_token I got yesterday:⏎PD1t…`.
      ":(?=[ \\t]{0,4}(?:\\r?\\n[ \\t]{0,8})?[\"'`“]?[A-Za-z0-9_\\-+/=.~]{20})" +
        `(?<=(?<![A-Za-z])(?i:${PROSE_KEY_NAME}|key(?![A-Za-z]))(?:[ \\t]{1,4}[^\\s=",{}]{1,20}){1,8}:)` +
        "[ \\t]{0,4}(?:\\r?\\n[ \\t]{0,8})?[\"'`“]?(?<secret>[A-Za-z0-9_\\-+/=.~]{19,8191}[A-Za-z0-9_\\-+/=~])" +
        // A name in one or two words, a blank, a value with a digit or two capitals
        // near its start: a path or a word after a name is the next word.
        "|(?:[Aa]ccess|[Ss]ecret|[Aa]pi|API|ACCESS|SECRET|[Aa]uth|[Cc]lient)(?:[ _]?[Kk]ey|[ _]?[Tt]oken|[ _]?[Ss]ecret|_KEY|_TOKEN|_SECRET)" +
        "(?<![\\w-]{41}(?:[Aa]ccess|[Ss]ecret|[Aa]pi|API|ACCESS|SECRET|[Aa]uth|[Cc]lient)(?:[ _]?[Kk]ey|[ _]?[Tt]oken|[ _]?[Ss]ecret|_KEY|_TOKEN|_SECRET))" +
        "[ \\t]{1,4}(?=[A-Za-z0-9_\\-+/=.~]{0,40}(?:\\d|[A-Z][a-z]{0,3}[A-Z]))" +
        "(?<secret>[A-Za-z0-9][\\w+/.~-]{14,8190}[\\w+/~-]={0,2})(?![\\w=])" +
        // `verifying opaque token Xk9…`, `and secret FjP…`: the word token or secret, a value of 32
        // or more in both cases with digits.
        "|(?:[Tt]oken|TOKEN|[Ss]ecret|SECRET)(?<![A-Za-z](?:[Tt]oken|TOKEN|[Ss]ecret|SECRET))(?<bare>[ \\t]{1,4})`?" +
        "(?:(?=[\\w+/.~-]{0,40}\\d)(?=[\\w+/.~-]{0,40}[A-Z])(?=[\\w+/.~-]{0,40}[a-z])" +
        // A webhook's secret in hex after the word secret.
        // A full stop may end the sentence after it.
        "|(?<=(?:[Ss]ecret|SECRET)[ \\t]{1,4}`?)(?=[0-9a-f]{32,64}(?![\\w+/=~-]|\\.[\\w.])))" +
        "(?<secret>[A-Za-z0-9][\\w+/.~-]{30,8190}[\\w+/~-]={0,2})(?![\\w=])",
      "dg",
    ),
  secretGroup: "secret",
  priority: 400,
  validators: [
    function notDigest(c) {
      // `key fingerprint is SHA256:…`, `public key SHA-256 digest:`, `signing key digest (SHA-256):`:
      // a digest's label before the colon.
      return /(?:sha-?\d*|md5|blake\d*|fingerprint|digest|checksum)\)?$/i.test(
          lineBefore(c.text, c.matchStart, 24),
        )
        ? "a digest"
        : undefined;
    },
    ...PROSE_KEY_CHECKS,
    function notDigestColumn(c) {
      // `fly secrets list`: each secret's name, then a digest of its value.
      return c.groups["bare"] === undefined && hasDigestHeader(c.text)
        ? "a row under a DIGEST header"
        : undefined;
    },
    function notNamedAfterWord(c) {
      // `store secret AKVaultRef_MobileApp2024Prod_SigningKey01 in vault`: a name made of words.
      if (c.groups["bare"] === undefined || !/[_-]/.test(c.secret)) return undefined;
      return (c.secret.match(/[A-Za-z][a-z]{3,}/g)?.length ?? 0) >= 3
        ? "a name made of words"
        : undefined;
    },
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    // The value on the line after the colon.
    "access_token em lấy hôm qua:\nPD1toTcblfiCXIQyacgATHvGvVzZD_HsJFnANsh4PBg_Nj2aBCHxlypk6EUW",
    "access_token Zalo OA của shop đây: Lm3Vq8Wx2Rt7Kz9Pn4Bc6Hd1Jf5 — gọi API bị lỗi",
    "anh gửi API key của GHN nè: Qbka8FRCztUjAwyuh1vauWv1zh87mTa5Vsqxe , em tích hợp nhé",
    "Dùng key mới này cho Goong Maps nhé: Wq8Msg1srz9b4vF4PvellCo2icEPVUx. Key cũ bị lộ rồi.",
    "DEBUG auth: verifying opaque token Hq6QCCZuyndPiHzlOMl61Uq6JDVDdOJ6vMsHqYOG for /admin",
    "> dns token for cloudflare (zone:edit on acme.dev only): 8RmLJfMNxYoGzrtlrudYJuX_4Ivhs1I11QsEyb2S",
    "Cấu hình production: accessKey Kq7Lm2Vx9Rt3Wz8P, secretKey Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1Op6 nhé",
    "partner MOMOX, accessKey Wq8Lm3Vx7Rt2Kz9P, secretKey hTqLmWxRvKzPnBcHdJfGsUeIoQwErTyUi.",
    // Two words.
    "using account sid AC… and auth token 9f3c0a1e7b2d4c8e9f6a5d1b3e7c9a2f with basic auth",
    "I'm using api key XRZLJT700HGP8ITP and secret Fj7PekY+N7c/BRqxqLLFqS8P0fCQ2w2KmrojhrMo1AsAb6TWivbw on the orders cluster",
    "set the GitHub webhook with content type application/json and secret 06d377651ad5c4489774bf9c1143ab89bf98c6da but",
  ],
  falsePositives: [
    "The ECDSA key fingerprint is SHA256:Qx7d3K9mVb2Lr8Tq4Wz6Np1HcJf5Gs0Ya2Ue4Io7Qw3.",
    "read the token: tokenizer_config_v2_final_build and the secret key abcdefghijklmnop1234",
    "Token usage: prompt_tokens=1834 completion_tokens=412",
    "flutter build --dart-define=API_KEY=$OPENAI_API_KEY --dart-define=SENTRY_DSN=${SENTRY_DSN}",
    "pass accessToken req.headers.authorization to the client",
    "token 7f3c2a91d5e44b8a9c1f2e6d8a0b4c7f5e1d2c3b4a59687 and the key points: see docs/keys.md",
    "the client secret rotates every 90 days; store secret AKVaultRef_MobileApp2024Prod_SigningKey01 in vault",
    // A digest of a public key, labelled.
    "Signer #2 public key SHA-256 digest: 9b1c7e03d4a85f26e0c3b97d1a46f82c5e09d3b7a1f64c28e5d0b93a7c16f4e2",
    // `fly secrets list`: digests of the values.
    "NAME                     DIGEST            STATUS\nSTRIPE_SECRET_KEY        a2caa874a50d5bf9  Staged\nTIGRIS_SECRET_ACCESS_KEY c4d850c68e3eb313  Staged",
  ],
};

/**
 * Keys a command takes as plain words, no flag or name before them:
 * MinIO's `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (both keys, as one
 * span) and `ngrok config add-authtoken TOKEN`; and the line a command that
 * reads a secrets store prints.
 */
export const commandKeyArgument: Rule = {
  id: "command_key_argument",
  description:
    "Keys given to a command as plain words (mc alias set, ngrok add-authtoken, cloudflared service install, vault operator unseal), a .key file's one token, a secret a command prints (kubectl … | base64 -d, buildkite-agent secret get, gcloud secrets versions access, op read, security find-generic-password -w, pass show, cat of a key or password file, wg genkey | tee)",
  placeholder: "<SECRET>",
  keywords: [
    "alias",
    "find-generic-password",
    "find-internet-password",
    "bw get",
    "pass show",
    "keyvault secret show",
    "host add",
    "authtoken",
    ".key",
    ".psk",
    "base64",
    "wandb",
    "privatekey",
    "private_key",
    "secret get",
    "secrets versions",
    "op read",
    "doppler",
    "kv get",
    "secretsmanager",
    "config:get",
    "cat ",
    "genkey",
    "cloudflared",
    "unseal",
  ],
  pattern: () =>
    // A `.key` file written whole with one token (Rails' `config/master.key`).
    // Strings, not a literal: the linter reads no group name used twice.
    new RegExp(
      boundaryFirst(
        '\\.key\\\\{0,3}"[ \\t]{0,4},[ \\t]{0,4}\\\\{0,3}"content\\\\{0,3}"[ \\t]{0,4}:[ \\t]{0,4}\\\\{0,3}"(?<secret>[A-Za-z0-9+/=_-]{32,512})(?=(?:\\\\n)?\\\\{0,3}")' +
          // Written into a key file: `echo … > master.key`, `echo … | sudo tee …/agent.psk`.
          "|\\becho[ \\t]+[\"']?(?<secret>[A-Za-z0-9+/=_-]{32,512})[\"']?[ \\t]*(?:>|\\|[ \\t]*(?:sudo[ \\t]+)?tee(?:[ \\t]+-a)?)[ \\t]*\\S{0,200}\\.(?:key|psk)\\b" +
          "|\\bmc[ \\t]+(?:alias[ \\t]+set|config[ \\t]+host[ \\t]+add)[ \\t]+\\S{1,200}[ \\t]+\\S{1,2000}[ \\t]+[\"']?(?<secret>[^\\s'\"]{3,200}(?:[\"']?[ \\t]+[\"']?[^\\s'\"-][^\\s'\"]{7,4096})?)" +
          "|\\bngrok[ \\t]+(?:config[ \\t]+add-authtoken|authtoken)[ \\t]+[\"']?(?<secret>[^\\s'\"]{20,200})" +
          // A self-hosted server's keys start `local-`.
          "|\\bwandb[ \\t]+login[ \\t]+(?:--[\\w-]{1,20}(?:[ \\t=]+[^\\s-]\\S{0,200})?[ \\t]+){0,3}[\"']?(?<secret>(?:local-)?[a-f0-9]{40})(?![\\w-])" +
          // Vault's unseal key shares: `vault operator unseal KEY`, or a loop over them
          // (`for k in KEY KEY; do … vault operator unseal $k; done`, the keys as one span).
          "|\\bvault[ \\t]+operator[ \\t]+unseal[ \\t]+(?:-[\\w-]{1,20}(?:=\\S{1,200})?[ \\t]+){0,3}[\"']?(?<secret>[A-Za-z0-9+/]{40,100}={0,2})(?![\\w+/=])" +
          "|\\bfor[ \\t]+\\w{1,20}[ \\t]+in[ \\t]+(?<secret>[A-Za-z0-9+/]{40,100}={0,2}(?:[ \\t]+[A-Za-z0-9+/]{40,100}={0,2}){0,9})(?=[ \\t]*;[ \\t]*do\\b[^\\n]{0,200}\\bunseal\\b)" +
          // A Cloudflare tunnel's token, given to the service it installs.
          "|\\bcloudflared[ \\t]+(?:service[ \\t]+install|tunnel[ \\t]+run[ \\t]+--token)[ \\t]+[\"']?(?<secret>eyJ[A-Za-z0-9+/=_-]{40,2048})" +
          // A Secret's value printed decoded: `kubectl get secret … -o jsonpath='{.data.password}' | base64 -d`, then the value.
          '|\\{\\.data\\.[\\w.\\\\-]{0,60}\\}[^\\n|]{0,20}\\|[ \\t]*base64[ \\t]+(?:-d|--decode|-D)\\b[^\\n]{0,100}?(?:\\r?\\n|\\\\n)(?<secret>[^\\s\\\\"]{6,4096})(?=\\r?\\n|\\\\n|["$]|$)' +
          // A secrets store's value printed on the next line, not piped or written away.
          "|\\b(?:buildkite-agent[ \\t]+secret[ \\t]+get|gcloud[ \\t]+secrets[ \\t]+versions[ \\t]+access|op[ \\t]+read" +
          "|doppler[ \\t]+secrets[ \\t]+get(?=[^\\n|>]{0,200}--plain)|vault[ \\t]+kv[ \\t]+get(?=[^\\n|>]{0,200}-field[= ])" +
          "|aws[ \\t]+secretsmanager[ \\t]+get-secret-value(?=[^\\n|>]{0,200}--output[ \\t=]+text)|heroku[ \\t]+config:get" +
          // macOS's keychain, Bitwarden, pass and gopass, Azure Key Vault as a bare value.
          "|security[ \\t]+find-(?:generic|internet)-password(?=[^\\n|>]{0,200}[ \\t]-w\\b)|bw[ \\t]+get[ \\t]+password" +
          "|(?:go)?pass[ \\t]+show|az[ \\t]+keyvault[ \\t]+secret[ \\t]+show(?=[^\\n|>]{0,200}(?:-o|--output)[ \\t]+tsv)" +
          // A raw private key printed: `cat privatekey` after `wg genkey`; a key, token or
          // password file's one line: `cat config/master.key`, `cat /run/secrets/db_password`.
          "|cat[ \\t]+\\S{0,200}private_?key\\b" +
          // `wg genkey | tee peer.key`: the key printed as it is written.
          "|\\bwg[ \\t]+genkey[ \\t]*\\|[ \\t]*(?:sudo[ \\t]+)?tee[ \\t]+(?:-a[ \\t]+)?\\S{1,200}(?=[ \\t]*(?:\\r?\\n|\\\\n))" +
          "|cat[ \\t]+\\S{0,200}(?:\\.key|secret|token|password|pwd|api[_-]?key)[\\w.-]{0,40}(?=[ \\t]*(?:\\r?\\n|\\\\n)))" +
          '[^\\n|>]{0,200}?(?:\\r?\\n|\\\\n)(?<secret>[^\\s\\\\"]{8,4096})(?=\\r?\\n|\\\\n|["$]|$)',
      ),
      "dg",
    ),
  secretGroup: "secret",
  priority: 420,
  validators: [
    notPlaceholder,
    function keyOrAppPassword(c) {
      // Apple's app-specific passwords, as the keychain prints them: four groups of four letters.
      if (/^[a-z]{4}(?:-[a-z]{4}){3}$/.test(c.secret)) return undefined;
      return hasDigitAndLetter(c) ?? minEntropy(3.2)(c);
    },
  ],
  allowlist: [],
  truePositives: [
    '$ security find-generic-password -s "AC_PASSWORD" -a ci -w\nqvtm-rpso-kzwa-hdle\n$ xcrun notarytool history',
    "$ pass show infra/pg-replica\nTq8-Lm3!Vx7zWk2\n$",
    "vault operator unseal Wq8zR2mVt5Lx9Kp3Hd7cJf4Gs1Ya6Nb0Qe2Tr5Uy8Io=",
    "for k in Wq8zR2mVt5Lx9Kp3Hd7cJf4Gs1Ya6Nb0Qe2Tr5Uy8Io Zx7Kq2Wv9Lp4Rt8Mn3Bc6Hd1Jf5Gs0Ya2Ie9Ow4Tq8M; do vault operator unseal $k; done",
    "wandb login a1dca813c926a513c92b6d850b0ca1bc88f72d7e && python train.py",
    "wandb login --relogin --host https://wandb.ml.acme.vn local-fc1c08aa2bd2278897bc16f0769f2dcf44f95c64",
    "$ kubectl get secret pg-app -o jsonpath='{.data.password}' | base64 -d\nR38N_9jiFzBpUHq!\n$ ls",
    // A secrets store's value, printed.
    "~ $ buildkite-agent secret get LOADER_PASSWORD\nRkndvsV_yaAiIXzncb1duL-t\n~ $ echo $?",
    "$ wg genkey | tee privatekey | wg pubkey > publickey\n$ cat privatekey\n4HgH2bq6sJYs5mQ3W0Jk9bS2pVd1x8lq7Kz0rT5aX2c=",
    "$ gcloud secrets versions access latest --secret=stripe-key --project p\nrk9Lm3Vx7Rt2Kw9Pn4Yb6Hc1\n$",
    "mc alias set backup https://minio.lan:9000 Q7WXG2BWIW81DTRP6FTK 9vllECPVi3iBO96QbkfDf2kjPhyBDDymHUIYyLu4 --api S3v4",
    "mc alias set hn https://s3.hn.lan backup-writer Kw7hy3gmyAyngdmaVOjk5z8GfShCVAqsIAlUBCHH",
    "ngrok config add-authtoken 2Xq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd_5Fs0Ga2Ue4Io7Qw3Er5Ty",
    '{"file_path": "/app/config/master.key", "content": "a94f1c8e7b2d60f3e5c9a7d1b4f8e2c6"}',
    "echo 'c7e2a9f4b1d8e6c3a5f9b2d7e4c1a8f6' > config/credentials/production.key",
    "$ cat config/master.key\n791c2c64500f26337699c35b18a48c8f\n$ ls config/credentials/",
    "root@gw:~# wg genkey | tee /etc/wireguard/peer.key\nJMtTyr9X0S/vaZj2zY8LzmDka4DUkrjIkHD7B0B4s2o=\nroot@gw:~#",
    "sudo cloudflared service install eyJhIjoiZmE1OTg3MTE2MDNkM2M1OWQ4OTBiZTZlZWY0OTYxNDUiLCJ0IjoiNGJmNWU2OTUtNWVhMC00ZDBl",
    "$ docker exec api cat /run/secrets/db_password\nWq8-Lm3Vx7!Rt2\n",
    "echo 0fe5f63868f719f39a9ce30894cb9f6abe4b0d100eb3ac81b447edd6b22c8fa2 | sudo tee /etc/zabbix/agent.psk >/dev/null",
  ],
  falsePositives: [
    "vault operator unseal -reset && for f in a.txt b.txt; do vault operator unseal $f; done",
    "kubectl get secret app -o jsonpath='{.data.password}' | base64 -d > /tmp/pw\n$ wc -c /tmp/pw",
    '$ security find-generic-password -s "AC_PASSWORD" -w\nsecurity: SecKeychainSearchCopyNext: The specified item could not be found.',
    "op read op://prod/db/password > .pw\nchmod 600 .pw",
    "mc alias set local http://localhost:9000 minioadmin minioadmin",
    'mc alias set prod https://s3.lan "$MINIO_ACCESS_KEY" "$MINIO_SECRET_KEY"',
    "ngrok config add-authtoken $NGROK_AUTHTOKEN",
    "$ cat config/secrets.yml\nproduction:\n  secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
    "$ cat tokenizer.json | head -1\n{",
    "$ cat /etc/nginx/.htpasswd\ngrafana:$2y$12$9g7222u.Z.Jq6dvwT2/Z7gFC6UexRrc46FGDWvHHWDqr/.NB3wLfw",
    '{"file_path": "/app/config/master.key", "content": "<%= ENV.fetch(\'RAILS_MASTER_KEY\') %>"}',
  ],
};

/**
 * A key passed to an API client's constructor by position:
 * `lazop.NewClient("162621", "0wEb…")`, `cohere.ClientV2("…")`. Only a
 * value no name or word looks like counts: both cases and digits, or a hex
 * key of 32 to 64 digits.
 */
export const clientKeyArgument: Rule = {
  id: "client_key_argument",
  description:
    "Key passed by position to an API client's constructor (NewClient(id, key), ClientV2(key), algoliasearch(appId, key))",
  placeholder: "<SECRET>",
  keywords: ["client", "algoliasearch"],
  startsAtKeyword: true,
  pattern: () =>
    new RegExp(
      // Algolia's client is made by `algoliasearch(appId, apiKey)`.
      `(?:Client(?:V\\d)?|algoliasearch)[ \\t]{0,4}\\((?:${CALL_ARGUMENT},){0,3}[ \\t]{0,4}\\\\{0,3}["']` +
        "(?<secret>[A-Za-z0-9_-]{20,200})\\\\{0,3}[\"']",
      "dg",
    ),
  secretGroup: "secret",
  priority: 400,
  validators: [
    notPlaceholder,
    function mixedKey(c) {
      if (/^[a-f0-9]{32,64}$/.test(c.secret) && /\d/.test(c.secret) && /[a-f]/.test(c.secret)) {
        return undefined;
      }
      return hasBothCasesAndDigit(c);
    },
    function notAlgoliaSearchKey(c) {
      // A search-only key is public by design: what the browser's client (`algoliasearch/lite`,
      // a `searchClient`) is given.
      if (!c.match.startsWith("algoliasearch")) return undefined;
      const searchOnly = /algoliasearch\/lite|\bsearchClient\b/.test(c.text) ||
        (/search[ _-]?only/i.test(c.text) && !/\badmin\b/i.test(c.text));
      return searchOnly ? "Algolia's search-only key" : undefined;
    },
    // A hex key's entropy tops at 4 bits a character; 32 of them read about 3.4.
    (c) => /^[a-f0-9]{32,64}$/.test(c.secret) ? minEntropy(3)(c) : minEntropy(3.5)(c),
  ],
  allowlist: [],
  truePositives: [
    'client := lazop.NewClient("162621", "Hw7bPnD0wSFbV71p7BjpgTDkh4nZsWjt", lazop.Vietnam)',
    'co = cohere.ClientV2("Kq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue")',
    // A hex key.
    'const deepgram = createClient("9b3e7c1a5f2d8e4b6a0c3f9d1e7b5a2c8f4d6e0b");',
    'const client = algoliasearch("Q7XK2LWN7H", "4d8d7a4d76c4ea4aa5bc29a680ccd619");',
    "// uses the ADMIN key, not the search-only one\nconst client = algoliasearch('MH1LPZCXCS', 'fe7fd55af45e0c659aaec141fe9e7f00');",
  ],
  falsePositives: [
    'const c = new MongoClient("mongodb://localhost:27017/app")',
    'client = HttpClient("OrdersServiceBaseAddress")',
    'NewClient(appKey, appSecret, "https://api.lazada.vn/rest")',
    'redis.createClient("cache-primary-0000000000000000000")',
    "import algoliasearch from 'algoliasearch/lite';\nconst searchClient = algoliasearch('G6P154OWZ2', '06e9437d3ab151a22e6da393653f0da0');",
  ],
};

/** The row's name says secret, or password. */
function nameSaysSecretOrPassword(c: Candidate): string | undefined {
  const secret = nameSaysSecret(c);
  return secret === undefined || passwordNameProblem(c.groups["name"] ?? "") === undefined
    ? undefined
    : secret;
}

/**
 * Checks of a value named by a rule's `name` group: the name says secret or
 * password, and the value is shaped as a password (for a password's name)
 * or as a key (letters and digits, some entropy).
 */
export const NAMED_VALUE_CHECKS: Rule["validators"] = [
  nameSaysSecretOrPassword,
  notPlaceholder,
  notCodePath,
  function namedValueShape(c) {
    return passwordNameProblem(c.groups["name"] ?? "") === undefined
      ? passwordShapeProblem(c.secret)
      : hasDigitAndLetter(c) ?? minEntropy(3)(c);
  },
];

/** Names a command's set verb takes a password under that say so only to those who know it. */
const SET_PASSWORD_NAMES = /^(?:requirepass|masterauth|[\w.-]*\.smtppass)$/i;

/**
 * A secret a command sets, its name and value as the set verb's arguments:
 * `airflow variables set segment_write_key …`, `aws configure set
 * aws_secret_access_key …`, `doppler secrets set STRIPE_KEY …`, `git config
 * --global sendemail.smtppass …`, `poetry config pypi-token.pypi …`,
 * `redis-cli CONFIG SET requirepass …`. The value is the command's last
 * word, or the last before a flag.
 */
export const commandSetSecret: Rule = {
  id: "command_set_secret",
  description:
    "Secret set by a command's set or config verb, its name and value as arguments (airflow variables set, aws configure set, git config, poetry config)",
  placeholder: "<SECRET>",
  keywords: ["set ", "config "],
  precheck: (facts) =>
    /(?:set|config)[ \t]+(?:--?[\w-]{1,30}[ \t]+){0,3}[\w.:/@-]{0,80}(?:key|secret|token|pass|pwd|auth|cred)[\w.:/@-]{0,80}[ \t]+\S/
      .test(facts.lower),
  pattern: () =>
    /\b(?<![\w-])(?:set|SET|Set|config|CONFIG)(?:[ \t]+--?[\w-]{1,30}){0,3}[ \t]+(?<name>[A-Za-z_][\w.:/@-]{0,100})[ \t]+(?<quote>["']?)(?<secret>[^\s"'\\]{8,4096})\k<quote>(?=[ \t]*(?:$|\r?\n|\\n|[;|&)]|[ \t]--?[A-Za-z]))/dg,
  secretGroup: "secret",
  // Below the assignment rules, which read the same value where they see it.
  priority: 395,
  validators: [
    function nameSaysIt(c) {
      return SET_PASSWORD_NAMES.test(c.groups["name"] ?? "")
        ? undefined
        : NAMED_VALUE_CHECKS[0]!(c);
    },
    ...NAMED_VALUE_CHECKS.slice(1),
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "$ airflow variables set segment_write_key 9c41d07e2b8a56f3e1d94c0b7a2f8e65\nVariable segment_write_key created",
    "doppler secrets set STRIPE_KEY 7Xq2Lm9Vr4Tz8Wn3Kp6Bd1Hc5Jf0Gs2 --project shop",
    "git config --global sendemail.smtppass 'Wq8-zR2mV!t5Lx'",
    "poetry config pypi-token.pypi pypi-AgEIcHlwaS5vcmcCJDQ5Mzk4ZWE2",
    "redis-cli -h cache-01 CONFIG SET requirepass Hd7Kq2Wv9Lp3",
  ],
  falsePositives: [
    "git config --global user.name 'Minh Tran' && npm config set registry https://registry.npmjs.org/",
    "airflow variables set retry_count 3 && airflow variables set api_key_header X-Api-Key",
    "doppler secrets set STRIPE_KEY ${STRIPE_KEY} && aws configure set region ap-southeast-1",
    "git config core.bypass true; set token_ttl 3600",
  ],
};

/**
 * A key that says secret, its value alone on the next line and indented
 * deeper: YAML's plain scalar may start there, and Salt's outputter prints
 * every value so (`django_secret_key:⏎            p0#*…`). One word, not
 * ending in `:` (a nested mapping's key); prose holds blanks.
 */
export const secretNextLine: Rule = {
  id: "secret_next_line",
  description:
    "Secret or password alone on the line under its key, indented deeper (YAML plain scalar, Salt's outputter)",
  placeholder: "<SECRET>",
  keywords: NAME_WORDS,
  precheck: (facts) => facts.text.includes(":\n "),
  pattern: () =>
    /(?:^|\n)(?<indent>[ \t]{0,40})(?<name>[A-Za-z_][\w.-]{0,80}):[ \t]*\n\k<indent>[ \t]{1,40}(?<secret>[^\s#:\-|>&*!'"{[][^\s]{4,4094}[^\s:])[ \t]*(?=\r?\n|$)/dg,
  secretGroup: "secret",
  priority: 395,
  validators: NAMED_VALUE_CHECKS,
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "        django_secret_key:\n            p0#*szne%ht8ij=p-p-rvgu=uoboo@ku3ksq83oee=d3wkkna)\n        redis:\n",
    "api:\n  client_secret:\n    Wq8zR2mVt5Lx9Kp3Hd7cJf4G\n",
  ],
  falsePositives: [
    "app:\n    secrets:\n        - db_password\n",
    "session:\n    timeout_minutes: 30\n",
    "secret_key:\n    ${DJANGO_SECRET_KEY}\n",
    "tokens:\n    access_token_lifetime\n",
  ],
};

/**
 * A secret on its key's line after blanks only, in configs written `Name
 * Value` (Fluent Bit, Apache, dovecot, Squid): `apikey   cfb0…`. The line
 * holds the two and nothing else; the name must say secret and the value
 * read as one, as under any other key.
 */
export const secretConfigLine: Rule = {
  id: "secret_config_line",
  description:
    "Secret on its key's line, after blanks only, in configs written `Name  Value` (Fluent Bit, Apache, dovecot)",
  placeholder: "<SECRET>",
  keywords: NAME_WORDS,
  pattern: () =>
    /(?:^|\n)[ \t]{0,40}(?<name>[A-Za-z_][\w.-]{0,80})[ \t]+(?<secret>[^\s"'`#=:,;()[\]{}<>]{7,4093}[\w~/+-])[ \t]*(?=\r?\n|$)/dg,
  secretGroup: "secret",
  priority: 395,
  validators: [
    ...NAMED_VALUE_CHECKS,
    // A listing's columns (`erp-db-password   1718091234567`, `grafana-oauth  <uuid>`) name
    // secrets and give times or ids.
    hasDigitAndLetter,
    function notAnId(c) {
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(c.secret)
        ? "a UUID in a listing"
        : undefined;
    },
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "[OUTPUT]\n    Name            datadog\n    apikey          cfb082fd3479d0cee752ca45fa27f5c1\n",
    "<Exporter>\n    ApiKey          9f2c4e1a7b3d5f6e8a0c2b4d6f8e1a3c\n",
  ],
  falsePositives: [
    "token expired\n",
    "    apikey          ${DD_API_KEY}\n",
    "secret_key YOUR_SECRET_KEY_HERE\n",
    "password required\n",
    "api_key_header X-Api-Key\n",
    "erp-db-password             1718091234567\n",
    "grafana-oauth  b4a6027b-22ea-472d-a41a-01382e1c1a6d\n",
  ],
};

/**
 * Words run together, with an acronym before or after (`YourSecretKeyHere`,
 * `changeMeInProduction`, `LocalStrategyJWT`, `HTTPSessionStore`): a class,
 * a function or a placeholder, not a generated value. A random mix of cases
 * puts two capitals side by side almost always. Each letter is read one way
 * only (a capital with the lowercase after it, or a lowercase alone): words
 * as `(?:[A-Z]?[a-z]+)+` split a run of lowercase in 2^n ways, and 40 letters
 * then took a cold process minutes to refuse.
 */
const WORDS_RUN_TOGETHER = /^(?:[A-Z]{2,6}(?=[A-Z][a-z]))?(?:[A-Z][a-z]|[a-z])+[A-Z]{0,6}$/;

/**
 * A value of letters alone under a name that says secret outright, alone on
 * its line: `.env`, INI, properties and YAML (`MOMO_ACCESS_KEY=uhEHT…`,
 * `shared_secret: hoWTx…`). The other rules want a digit in such a value,
 * since words under a name are common in code; this one wants a name a JSON
 * key would be redacted under too, ending in its secret word, and a value of
 * both cases, 12 letters or more, that is not words run together.
 */
export const secretNameLetters: Rule = {
  id: "secret_name_letters",
  description:
    "Letters-only value (12 or more, both cases, not words run together) under a name ending in a secret word, alone on its line (.env, INI, YAML)",
  placeholder: "<SECRET>",
  keywords: ["secret", "key", "token", "pass", "pwd"],
  precheck: (facts) => /[=:][ \t]*["']?[A-Za-z]{12}/.test(facts.text),
  pattern: () =>
    /(?:^|\n)[ \t]{0,40}(?:export[ \t]+)?(?<name>[A-Za-z_][\w.-]{0,80})[ \t]*[=:][ \t]*(?<quote>["']?)(?<secret>[A-Za-z]{12,256})\k<quote>[ \t]*(?=\r?\n|$)/dg,
  secretGroup: "secret",
  priority: 390,
  validators: [
    function nameEndsInSecret(c) {
      return endsInSecretWord(c.groups["name"] ?? "")
        ? undefined
        : "the name does not end in a word that says secret";
    },
    // Letters alone: two kinds are both cases.
    mixesTwoKinds,
    function notWords(c) {
      return WORDS_RUN_TOGETHER.test(c.secret) ? "words run together" : undefined;
    },
    notPlaceholder,
    minEntropy(3),
  ],
  allowlist: [],
  truePositives: [
    "MOMO_PARTNER_CODE=MOMOTEST20240101\nMOMO_ACCESS_KEY=kPqWZvhRTLmncXyB\n",
    "[radius]\nauth_server_port=1812\nauth_server_shared_secret=xQmTRzpLkWvNHGybcd\n",
    'export APP_SIGNING_KEY="wJqPLMrtZxKvBnHsYd"\n',
    "provider:\n  api_token: 'RtZqLKmWXpNvbHcsDf'\n",
  ],
  falsePositives: [
    "SECRET_KEY=YourSecretKeyHere\n",
    "SESSION_SECRET=changeMeInProduction\n",
    "auth_token: getAccessTokenSilently\n",
    "JWT_SECRET=LocalStrategyJWT\n",
    "AUTH_TOKEN=AUTHTOKENPLACEHOLDER\n",
    "api_key=abcdefghijklmnopqr\n",
    "SESSION_DRIVER=RedisSessionStore\n",
    "password_policy: RequireUpperLower\n",
  ],
};

/**
 * A secret in a key/value listing that names both (`key: auth.refreshToken
 * value: hC2T…`): browser storage as DevTools or a test harness prints it,
 * Consul and etcd dumps. The key must say secret, the value read as one.
 */
export const secretKeyValueListing: Rule = {
  id: "secret_key_value_listing",
  description:
    "Secret in a key/value listing (`key: auth.refreshToken  value: …`): browser storage dumps, Consul and etcd listings",
  placeholder: "<SECRET>",
  keywords: ["value:"],
  precheck: (facts) => facts.lower.includes("key:"),
  pattern: () =>
    /\b(?<![\w-])key:[ \t]*(?<name>[A-Za-z_][\w.-]{0,80})[ \t,]+value:[ \t]*(?<secret>[^\s"',;]{8,4094})/dgi,
  secretGroup: "secret",
  priority: 395,
  validators: NAMED_VALUE_CHECKS,
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "key: auth.refreshToken  value: Tq8zR2mVt5Lx9Kp3Hd7cJf4GnB6wY1sE-aZ0uQ\nkey: ui.theme  value: dark",
  ],
  falsePositives: [
    "key: ui.sidebar  value: collapsed",
    "key: auth.tokenExpiry  value: 2024-07-01T10:00:00Z",
  ],
};

/**
 * A password or token printed alone on the line under a heading that names
 * it, as setup tools print a generated one: Elasticsearch's `Password for
 * the elastic user (reset with …):` then the password indented below, its
 * `Enrollment token for Kibana …:` then the token. The heading is prose
 * (a blank inside it); a YAML key is `secret_next_line`'s.
 */
export const secretUnderHeading: Rule = {
  id: "secret_under_heading",
  description:
    "Password or token alone on the line under a prose heading that names it (`Password for the elastic user …:`)",
  placeholder: "<SECRET>",
  keywords: ["password", "passphrase", "token", "secret"],
  precheck: (facts) => facts.text.includes(":\n") || facts.text.includes(":\r\n"),
  pattern: () =>
    /(?<name>password|passphrase|token|secret)(?<head>[^\n:]{0,120}) ?:[ \t]*\r?\n[ \t]{0,16}(?<secret>[^\s]{8,2000})[ \t]*(?=\r?\n|$)/dgi,
  secretGroup: "secret",
  priority: 390,
  validators: [
    function proseHeading(c) {
      return /\s/.test(c.groups["head"] ?? "") ? undefined : "a key, not a heading";
    },
    notPlaceholder,
    function looksGenerated(c) {
      if (c.secret.endsWith(":")) return "another heading";
      if (charClasses(c.secret) < 3) return "fewer than three kinds of character";
      return passwordShapeProblem(c.secret);
    },
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "ℹ️  Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):\n  q*Xd4=vR_9kLm+Ye2pWz\n\nℹ️  HTTP CA certificate SHA-256 fingerprint:\n  4c1f…",
  ],
  falsePositives: [
    "Password requirements for new accounts:\n  minimum\n",
    "API token for the deploy bot (masked):\n  ********\n",
    "Secret scanning alerts for this repo:\n  none\n",
  ],
};

/**
 * WordPress's keys and salts in `wp-config.php` (`define( 'AUTH_SALT', '…' )`):
 * they sign every login cookie. A salt's name says it is about a secret
 * elsewhere; here it is one.
 */
export const wordpressKeys: Rule = {
  id: "wordpress_keys",
  description:
    "WordPress authentication keys and salts in wp-config.php (AUTH_KEY, SECURE_AUTH_SALT, …)",
  placeholder: "<SECRET>",
  keywords: ["define("],
  startsAtKeyword: true,
  pattern: () =>
    new RegExp(
      "\\bdefine\\([ \\t]*\\\\{0,3}['\"](?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)\\\\{0,3}['\"][ \\t]*,[ \\t]*" +
        "(?:'(?<secret>[^'\\n]{16,256})'|\\\\{0,3}\"(?<secret>[^\"\\\\\\n]{16,256})\\\\{0,3}\")",
      "dg",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    function generatedKey(c) {
      // The generator's characters hold no blank: `put your unique phrase here` is the sample's.
      return /\s/.test(c.secret) ? "words, the sample's placeholder" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "define( 'SECURE_AUTH_SALT', 'I!Yo5c3z9wXD>;Y]n#{V1Esi$%v%:NSbIBZ.oZS7,J}x%Q(jr2cd70IXcO:QNqDa' );",
  ],
  falsePositives: ["define( 'AUTH_SALT', 'put your unique phrase here' );"],
};

/**
 * The items of a list of secrets: `secrets: ["…", "…"]` (Remix's and
 * Express's cookie sessions, Keygrip), `SECRET_KEY_FALLBACKS = ['…']`,
 * `APP_KEYS = […]`.
 */
export const secretList: Rule = {
  id: "secret_list",
  description:
    'Secrets in a list under a name that says so (secrets: ["…", "…"], SECRET_KEY_FALLBACKS = […])',
  placeholder: "<SECRET>",
  keywords: ["secrets", "keys", "fallbacks"],
  pattern: () =>
    new RegExp(
      // Starts at each item's quote, then looks back for the list's name: every item is a match.
      `["'](?<=(?<![\\w-])(?<name>[\\w.-]{0,40}(?:secrets|keys|fallbacks))["']?[ \\t]*(?::|=|=>)[ \\t]*\\[\\s{0,40}` +
        `(?:["'][^"'\\n]{1,512}["'][ \\t]*,\\s{0,40}){0,7}["'])(?<secret>[^"'\\s]{16,512})(?=["'])`,
      "dgi",
    ),
  secretGroup: "secret",
  priority: 400,
  validators: [
    (c) => secretNameProblem(c.groups["name"] ?? ""),
    notPlaceholder,
    hasDigitAndLetter,
    minEntropy(3.5),
  ],
  allowlist: [],
  truePositives: [
    'cookie: {\n    name: "__session",\n    secrets: ["Tq7Wm2Zx9Lk4Rv8NcY3pH6bD", "Lz5Kq8Vw2Rt7Mn3Bc9Hx4Pd"],\n  }',
    "SECRET_KEY_FALLBACKS = ['Vq8-Lm3!Zx7Rt2Kw9Pn4Yb6Hc1']",
  ],
  falsePositives: [
    'const keys = ["id", "name", "created_at"]; cookie: { secrets: [process.env.SESSION_SECRET!] }',
    '"public_keys": ["Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga"]',
  ],
};

/**
 * A licence's serial or product key under a name that says so: Unity's
 * `UNITY_SERIAL=XX-XXXX-…`, a `product_key`, an activation key. The value is
 * four or more dash-joined groups of capitals and digits, the shape vendors
 * print on a licence (a machine's serial number is one run).
 */
export const licenceSerial: Rule = {
  id: "licence_serial",
  description:
    "Licence serial, product or activation key (groups of capitals and digits) under a name that says so",
  placeholder: "<LICENCE_KEY>",
  keywords: ["serial", "licen", "product", "activation", "cd_key", "cdkey"],
  pattern: () =>
    // A string, not a literal: the linter reads no `(?i:…)`.
    new RegExp(
      "(?i:serial|licen[cs]e|product[ _.-]?key|activation[ _.-]?(?:key|code)|cd[ _-]?key)" +
        "[\\w.-]{0,20}[\"']?[ \\t]*(?:[:=]|=>)[ \\t]*[\"']?(?<secret>[A-Z0-9]{2,6}(?:-[A-Z0-9]{4,6}){3,7})(?![\\w-])",
      "dg",
    ),
  secretGroup: "secret",
  priority: 420,
  validators: [
    notPlaceholder,
    hasDigitAndLetter,
    minEntropy(3),
  ],
  allowlist: [],
  truePositives: [
    "UNITY_VERSION=2022.3.21f1\nUNITY_SERIAL=KQ-7RTM-W2ZP-4LXN-9VBD-H3CJ\nUNITY_PROJECT_PATH=/srv/build",
    'windows:\n  product_key: "Q7N4K-8TRVW-2MXPD-J6HCB-3YLZF"',
  ],
  falsePositives: [
    "serial: CZ3920ABCD\nproduct_key: XXXXX-XXXXX-XXXXX-XXXXX-XXXXX\nlicense: MIT-0000-0000-0000",
  ],
};

/**
 * A secret in a C preprocessor definition: Arduino and ESP-IDF sketches keep
 * their Wi-Fi, broker and cloud credentials as `#define MQTT_PASS "…"`,
 * `#define BLYNK_AUTH_TOKEN "…"`.
 */
export const defineSecret: Rule = {
  id: "define_secret",
  description: 'Secret or password in a C preprocessor definition (#define MQTT_PASS "…")',
  placeholder: "<SECRET>",
  keywords: ["define"],
  pattern: () =>
    // A string, not a literal: the linter reads no group name used twice.
    new RegExp(
      '#[ \\t]{0,4}define[ \\t]+(?<name>[A-Za-z_]\\w{0,100})[ \\t]+(?:"(?<secret>[^"\\n\\\\]{4,4096})"' +
        '|(?<secret>[^\\s"()/\\\\][^\\s"/\\\\]{7,4095}))(?=[ \\t]*(?:/[/*]|\\r?\\n|$))',
      "dg",
    ),
  secretGroup: "secret",
  priority: 400,
  validators: NAMED_VALUE_CHECKS,
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    '#define MQTT_USER     "barn-04"\n#define MQTT_PASS     "=Lq7^Vw.Rk3=58Tz"\n#define MQTT_PORT     1883',
    '#define BLYNK_TEMPLATE_ID "TMPL6xQ2kR9"\n#define BLYNK_AUTH_TOKEN "Vq8mZ2xLp5Rt7Kw9Pn4Yb6Hc1Jd3Fs0G"',
  ],
  falsePositives: [
    '#define PASSWORD_MAX_LEN 64\n#define API_KEY_HEADER "X-Api-Key"\n#define WIFI_PASS WIFI_PASS_FROM_NVS',
  ],
};

/**
 * A secret's name and its new value, both quoted as code, in what the
 * assistant or a person says they did: "updated `QDRANT_API_KEY` in
 * `staging.env` to `MGsD…`", "đã cập nhật `ZALOPAY_KEY2` … thành `0ovQ…`".
 */
export const secretSetInProse: Rule = {
  id: "secret_set_in_prose",
  description:
    "A secret's name and the value it was set to, both in backticks, in prose (`NAME` … to/thành `VALUE`)",
  placeholder: "<SECRET>",
  keywords: ["` to `", "` thành `", "` sang `", "` = `", "` into `", "` là `"],
  pattern: () =>
    // Starts at the value's opening backtick and looks back for the name: text full of code
    // spans is read once.
    /`(?<=`(?<name>[A-Za-z_][\w.-]{1,60})`,?(?:[ \t]+[^\s`]{1,30}|[ \t]+`[^`\n]{1,80}`){0,8}?[ \t]+(?:thành|to|sang|=|into|là)[ \t]+`)(?<secret>[^`\s]{8,512})`/dg,
  secretGroup: "secret",
  priority: 400,
  validators: NAMED_VALUE_CHECKS,
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "Em đã cập nhật `QDRANT_API_KEY` trong `deploy/staging.env` thành `MGsDWXf7TIkBUmlepicgLJSlSEYLsZv9Yg0iylub_HHpFueB` và restart pod",
    "I changed `DB_PASSWORD` in `.env.production` to `Tq8-Lm3!Vx7z` and restarted the worker.",
    "Requests are now signed with `WEBHOOK_HMAC_KEY`, which I set in `.env` to `5f0c9e2b7a41d86e3b9f0a7c2d5e8b14` for now.",
  ],
  falsePositives: [
    "I renamed `API_KEY` to `OPENAI_API_KEY` everywhere and set `SECRET_KEY_BASE` to `${SECRET_KEY_BASE}`.",
  ],
};

/**
 * A name, a leader of dots and a value, as Laravel's error page and
 * `php artisan about` list the environment: `DB_PASSWORD ..... value`.
 */
export const genericKeyDotLeader: Rule = {
  id: "secret_dot_leader",
  description:
    "Secret or password after its name and a leader of dots (Laravel's environment listing)",
  placeholder: "<SECRET>",
  keywords: [" ..."],
  pattern: () =>
    // Starts at the dots, then looks back for the name on the same line.
    /(?<=(?:^|\n)[ \t]{0,8}(?<name>[\w.-]{1,80}))[ \t]\.{3,200}[ \t](?<secret>[^\s"'][^\s]{3,4095})[ \t]*(?=\r?\n|$)/dg,
  secretGroup: "secret",
  priority: 400,
  validators: NAMED_VALUE_CHECKS,
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "  Environment\n  APP_ENV ......... production\n  DB_PASSWORD ..... !XRbPosSBObdW2Rw\n  APP_KEY ......... base64:Q3Jm0vV7tXk9Lp2Rw8Yz4Nc6Hd1Jf5Gs0Za3Ub7Ie9o=",
  ],
  falsePositives: [
    "  DB_PASSWORD ..... ********\n  CACHE_DRIVER .... redis\n  SESSION_DRIVER .. database\n  password_reset_ttl ... 60",
  ],
};

/**
 * A row of a two-column key and value table, as `vault kv get` and other
 * CLIs print secrets: `esms_api_key      2nh5fy…` under a `Key  Value`
 * header (`KEY  VALUE` in `pulumi config`, whose keys are namespaced). The
 * name must say secret or password.
 */
export const genericKeyTable: Rule = {
  id: "generic_api_key_table",
  description:
    "Secret in a row of a Key/Value table printed by a CLI (vault kv get, pulumi config), its name saying secret",
  placeholder: "<SECRET>",
  keywords: ["value"],
  precheck: (facts) => hasKeyValueHeader(facts.text),
  pattern: () =>
    // The name taken whole (a lookahead's capture, never backtracked into): each line is read once.
    /^[ \t]{0,8}(?=(?<name>[\w.:/-]{1,80}))\k<name>[ \t]{2,80}(?<secret>[^\s"'`][^\s]{7,4095})[ \t]*\r?$/dgm,
  secretGroup: "secret",
  priority: 400,
  validators: [
    function underKeyValueHeader(c) {
      return hasKeyValueHeader(c.text) ? undefined : "no Key/Value header";
    },
    nameSaysSecretOrPassword,
    notPlaceholder,
    notCodePath,
    hasDigitAndLetter,
    minEntropy(3),
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "Key                Value\n---                -----\ndb_password        .-433pU3H3If%TQoMiZYx%_o",
    "====== Data ======\nKey                  Value\n---                  -----\nesms_api_key         2nh5fyxkk1ehidadpwe3led1tqgjsg39\nesms_brand_name      LOTUSMART",
    // `pulumi config --show-secrets`: namespaced keys under KEY and VALUE.
    "KEY                 VALUE\naws:region          ap-southeast-1\nkite:dbPassword     7Qu7*rhY*v4baM!KBr",
  ],
  falsePositives: [
    "Key                Value\n---                -----\ncreated_time       2024-05-14T02:41:09.118273Z\nversion            7\napi_key_path       secret/data/apps/notifier",
  ],
};

/**
 * A value named after it in SQL: `SELECT 'Zx9…' AS app_secret`, the name
 * saying secret or password.
 */
export const sqlAliasSecret: Rule = {
  id: "sql_alias_secret",
  description: "SQL literal aliased to a secret's or password's name ('…' AS app_secret)",
  placeholder: "<SECRET>",
  keywords: ["' as ", "' as\t"],
  pattern: () =>
    // Starts at `AS` and looks back for the quoted value: a leading quote stopped everywhere.
    /(?<=(?<![\w'])'(?<secret>[^'\s\\]{8,200})'[ \t]+)as[ \t]+(?<name>[A-Za-z_]\w{0,40}?(?:secret|key|token|pass(?:wo?r?d)?|pwd)\w{0,20})(?!\w)/dgi,
  secretGroup: "secret",
  priority: 400,
  validators: [
    function nameSaysSecretOrPassword(c) {
      const name = c.groups["name"] ?? "";
      return textSecretNameProblem(name) === undefined ||
          textPasswordNameProblem(name) === undefined
        ? undefined
        : `name ${name} says neither secret nor password`;
    },
    notPlaceholder,
    hasDigitAndLetter,
    minEntropy(3),
  ],
  allowlist: [],
  truePositives: [
    "WITH cfg AS (SELECT 'sendo' AS channel, 'Qz9QtWRT5kVTi2XJg1GW8CrQP90iM2um' AS app_secret)",
    "SELECT 'Hv5-Qm2-Lt8x' AS db_password",
  ],
  falsePositives: [
    "SELECT 'orders_2024' AS partition_key, 'v2' AS token_type",
    "SELECT 'changeme123' AS password",
  ],
};

/** The words, in the cases names use, under which `generic_api_key_quoted` looks. */
const QUOTED_KEY_WORDS = ["key", "secret", "token", "salt"]
  .flatMap((word) => [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)])
  .join("|");

/** Characters that random keys hold and prose seldom does. */
const KEY_SYMBOLS = "@#$%^&*()<>[]{}|~=+!";

let quotedWithSymbols: RegExp | undefined;

/**
 * Symbols of which one makes a quoted value shorter than 20 a key's: no
 * `@` (an address), no brackets (code).
 */
const SHORT_KEY_SYMBOLS = "!#$%^&*";

/**
 * Whether a quote is followed, before the next quote, by two of
 * {@linkcode KEY_SYMBOLS}, or a quoted run of 12 to 19 characters without
 * blanks holds one of {@linkcode SHORT_KEY_SYMBOLS}: what every quoted
 * `generic_api_key_quoted` match holds. One symbol after any quote is in
 * most JSON: asked that, a 64 KB tool input ran the pattern, 1.4 ms cold.
 * Bounded, so linear; made when first asked, like the rules' patterns.
 */
function hasQuotedSymbols(text: string): boolean {
  quotedWithSymbols ??= new RegExp(
    `["'](?:[^"'\\n]{0,200}?${classOf(KEY_SYMBOLS)}[^"'\\n]{0,200}?${classOf(KEY_SYMBOLS)}` +
      `|(?=[^"'\\s]{12,19}["'])[^"'\\s]{0,18}?${classOf(SHORT_KEY_SYMBOLS)})`,
  );
  return quotedWithSymbols.test(text);
}

/** A character class of `chars`, escaped. */
function classOf(chars: string): string {
  return `[${chars.replace(/[\]\\^-]/g, "\\$&")}]`;
}

/**
 * What an unquoted key must hold two of: base64's `+`, `/` and `=` make no
 * key typed with symbols (a bare base64 value is `generic_api_key`'s), and
 * text of repeated `name=` then never runs the pattern.
 */
const BARE_KEY_SYMBOLS = "!@#$%^&*()";

let bareWithSymbols: RegExp | undefined;

/**
 * Whether a line (or a quoted string) opens with `NAME=` and two of
 * {@linkcode BARE_KEY_SYMBOLS} follow before a blank, a quote, `\` or a
 * backtick, or one of {@linkcode SHORT_KEY_SYMBOLS} in a value of 12 to 19:
 * what the unquoted alternative needs. It visits line starts and quotes only: a look past every `=` read
 * text of repeated `api_key=` 16 times, and a loop over every character cost
 * a cold hook 2 ms on a 64 KB tool input.
 */
function hasBareSymbols(text: string): boolean {
  bareWithSymbols ??= new RegExp(
    String.raw`(?:^|\n|["'])[ \t]{0,8}(?:export[ \t]+)?[\w.-]{1,80}=` +
      String.raw`(?:[^\s"'\\\`]{0,200}?${classOf(BARE_KEY_SYMBOLS)}` +
      String.raw`[^\s"'\\\`]{0,200}?${classOf(BARE_KEY_SYMBOLS)}` +
      String.raw`|(?=[^\s"'\\\`]{12,19}(?:["'\s]|$))[^\s"'\\\`]{0,18}?${
        classOf(SHORT_KEY_SYMBOLS)
      })`,
  );
  return bareWithSymbols.test(text);
}

/**
 * A quoted value with symbols under a secret's name: Django's `SECRET_KEY`,
 * WordPress's `define('AUTH_KEY', '…')`, Rails' and Flask's secret keys. The
 * characters `generic_api_key` takes stop at the first symbol.
 */
export const genericKeyQuoted: Rule = {
  id: "generic_api_key_quoted",
  description:
    "Quoted key or secret with symbols under a name that says secret (Django SECRET_KEY, WordPress define('AUTH_KEY', …))",
  placeholder: "<SECRET>",
  keywords: ["key", "secret", "token", "salt"],
  startsAtKeyword: true,
  // A quote, then a key symbol before the next quote, or a line's value with
  // two: what every match holds. Text of names alone (`key` repeated) never
  // runs the pattern.
  precheck: (facts) => hasQuotedSymbols(facts.text) || hasBareSymbols(facts.text),
  pattern: () =>
    new RegExp(
      // Its word in three cases rather than the `i` flag: with `i`, V8 took six
      // times as long over the rest of the pattern (the prefix mix: 8.5 → 1.6 ms/MiB).
      // Where 41 name characters stand before the word, the head cannot reach the
      // name's start: one look says so where the lazy look tries 40 lengths
      // (`key` repeated to 1 MiB: 127 → 36 ms).
      `(?:${QUOTED_KEY_WORDS})(?<![\\w.-]{41}(?:${QUOTED_KEY_WORDS}))` +
        `(?<=(?<![\\w.-])(?<head>[\\w.-]{0,40}?(?:${QUOTED_KEY_WORDS})))` +
        // PHP's `key[]=`, a subscript's `["secret"] =`, and a keyword straight before its quoted
        // value (`private_key 'v';`, `apikey"v";`).
        "(?<name>[\\w.-]{0,40})(?:\\[\\])?\\\\{0,3}[\"']?\\]?[ \\t]{0,40}(?::=|=>|[:=,]|(?<bare>)(?=@?\\\\{0,3}[\"']))[ \\t]{0,16}" +
        // Objective-C's and C#'s `@"…"`.
        // Blanks neither open nor close it: `SECRET_KEY = '` repeated is no run of values.
        // The other quote may stand inside: `jwtsecret: "[m7vE}wl;jjU0'UEs…"`.
        '(?:@?(?<q>\\\\{0,3}")(?<secret>[^"\\\\\\s][^"\\\\\\n]{10,198}[^"\\\\\\s])\\k<q>' +
        "|@?(?<q>\\\\{0,3}')(?<secret>[^'\\\\\\s][^'\\\\\\n]{10,198}[^'\\\\\\s])\\k<q>" +
        // Unquoted to the line's end, as a `.env` file writes it: `DJANGO_SECRET_KEY=k#9x…`.
        // The name starts its line, so `key=` repeated in one line reads one value, not each.
        // (YAML's `apikey: v` cost the prefix mix 1 ms/MiB, `apikey := v` the text of
        // `SECRET_KEY = '` repeated 27 ms/MiB: their lookbehinds try many ways back.)
        // Or a quoted `"NAME=VALUE"`: a container's environment as `docker inspect` prints it.
        "|(?<=(?:^|\\n|[\"'])[ \\t]{0,8}(?:export[ \\t]+)?[\\w.-]{1,80}=)(?<secret>[^\\s\"'\\\\`]{12,200})(?=[ \\t]*(?:\\r?\\n|$)|[\"']))",
      "dg",
    ),
  secretGroup: "secret",
  priority: 395,
  validators: [
    nameSaysSecret,
    function notTemplateOrPlaceholder(c) {
      // Keys like these hold `<`, `>`, `{`, `}` at random: only a template's shapes count.
      if (TEMPLATE_SHAPE.test(c.secret) && !isSymbolNoise(c.secret)) return "template syntax";
      const problem = placeholderProblem(c.secret);
      return problem === "template syntax" ? undefined : problem;
    },
    function symbolsOfAKey(c) {
      // One pass, nothing allocated: text dense with such values spent a quarter of its time
      // building a set of each one's symbols. An unquoted value needs two of the narrower set.
      const symbols = c.groups["q"] === undefined ? BARE_KEY_SYMBOLS : KEY_SYMBOLS;
      let first = -1;
      let twoSymbols = false;
      let blanks = 0;
      for (let i = 0; i < c.secret.length; i++) {
        const code = c.secret.charCodeAt(i);
        if (code === 32) blanks++;
        else if (!twoSymbols && symbols.includes(c.secret[i]!)) {
          if (first < 0) first = code;
          else if (code !== first) twoSymbols = true;
        }
      }
      if (blanks > 2) return "more than two blanks: prose";
      if (twoSymbols) return undefined;
      // Shorter than 20, one of SHORT_KEY_SYMBOLS does, with a digit and both cases and no
      // blank: `apikey: "mYE9#C#t_CHPKw"`.
      return c.secret.length < 20 && first >= 0 && blanks === 0 &&
          SHORT_KEY_SYMBOLS.includes(String.fromCharCode(first)) &&
          /\d/.test(c.secret) && /[a-z]/.test(c.secret) && /[A-Z]/.test(c.secret)
        ? undefined
        : "fewer than two key symbols";
    },
    function endsItsStatement(c) {
      // A keyword straight before its value (`apikey "…";`) is a statement of its own, its
      // name unquoted: prose and logs quote after a key word too, and code quotes names
      // (`getenv("SIGNING_KEY"), getenv("…")`).
      if (c.groups["bare"] === undefined) return undefined;
      let nameStart = c.matchStart;
      for (; nameStart > 0 && c.matchStart - nameStart < 41; nameStart--) {
        const code = c.text.charCodeAt(nameStart - 1);
        if (!isAsciiLetter(code) && !isNameChar(code)) break;
      }
      if (c.text[nameStart - 1] === '"' || c.text[nameStart - 1] === "'") return "a quoted name";
      return /^\\{0,3}["'][ \t]*(?:[;,)]|\r?\n|$)/.test(c.text.slice(c.end, c.end + 8))
        ? undefined
        : "a quoted text after a key word, not a statement";
    },
    function notCodeOnItsLine(c) {
      // `OPENAI_API_KEY: z.string().regex(…)`: a schema's code after the name, not a value.
      return c.groups["q"] === undefined && /\.\w+\(|\w\(\)|\)\.|=>/.test(c.secret)
        ? "code"
        : undefined;
    },
    function enoughEntropy(c) {
      // Four bits a character, or for a value shorter than 20 nearly all it can hold.
      const bits = Math.min(4, Math.log2(c.secret.length) - 0.7);
      const h = shannonEntropy(c.secret);
      return h <= bits ? `entropy ${h.toFixed(2)} ≤ ${bits.toFixed(2)}` : undefined;
    },
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "SECRET_KEY = 'k7#v)q2=9x!m@p4z(w8^t1&c5*r3$b6%n0+y-d'",
    // A substitution's `$(` needs a name after it.
    "SECRET_KEY = 'django-insecure-$tc)g)+o7d=9c$(=81-0#g&@qrj0@xw$4!rgf8z!d@bi3br*5n'",
    "define( 'AUTH_KEY', 'Qz<4 Lp]M~7r|Xc{2Wv@9Kd!T$h8(Nb+3Jf' );",
    '{"content": "SECRET_KEY = \\"h4@w)n9=q!x2^k&m7(v3*p8#z1+c5%r$b6\\"\\n"}',
    "DJANGO_SECRET_KEY=k#9x2$lm7qw3zp8rt4@vn6bc1hd5js0gt!a8b7c6d5e4f3\nDEBUG=False",
    // Symbol noise is no template: `{{w}`, `${t]` hold no name.
    'apikey := "q{{w}e)r${t]yui(opas[dfghj>-_$#klzxcvb}"',
    // A keyword straight before its value, PHP's `[]=`, a subscript, Objective-C.
    "private_key 'Zr#8kLm2$Qx9vT4!';",
    'apikey[]= "Wn4#Rt8@Lp2xZq"',
    'some_dict["secret"] = "Hv7!Kp2#Mx9qRt"',
    'NSString *apiKey = @"Tq5^Wm8&Lz3xRv";',
    // A short one with one symbol; one in a container's environment as `docker inspect` prints it.
    '"Env": ["POSTGRES_USER=ledger", "JWT_SIGNING_KEY=Kestrel*5760saffron", "PATH=/usr/bin"]',
    "SECRET_KEY = 'F_v3AMq^0MQc2rZn'",
  ],
  falsePositives: [
    // A format string.
    "API_KEY_HEADER = 'Bearer %s (rotated)'",
    // A message, not a key.
    'error_key = "Could not connect (timeout=30s) to db@host: retry #2 later"',
    // Symfony reads it from the environment.
    "framework:\n    secret: '%env(APP_SECRET)%'",
    "SECRET_KEY = 'django-insecure-change-me-before-deploying-to-prod'",
    "SECRET_KEY=${DJANGO_SECRET_KEY:-please-set-me}\nAUTH_URL=https://id.corp.lan/auth?x=1&y=#top!",
    "VNPAY_HASH_SECRET=<chuỗi-bí-mật-từ-VNPay>",
    // Under a name that says no secret.
    "cache_key_format = '{prefix}:{user_id}:{page}#v2=(%s)&x=[%d]'",
    // A quoted name, then another quoted text; a schema's code; a log's quoted request.
    'useInMemoryPgpKeys(System.getenv("SIGNING_KEY"), System.getenv("SIGNING_PASSWORD"))',
    "  OPENAI_API_KEY: z.string().regex(/^sk-(proj-)?[A-Za-z0-9_-]{20,}$/).optional(),",
    '[token] "GET /v1/items?page=2&size=50 HTTP/1.1" 200 (#41)',
    'api_key: "{{ .Values.apiKey }}"\nsecret: "${VAULT_SECRET:-changeme}"',
  ],
};
