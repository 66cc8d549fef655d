/**
 * Format checks the rules share: Shannon entropy for generic keys, Luhn for
 * card numbers, ISO 13616 mod-97 for IBANs, the structure of a Vietnamese
 * citizen id (CCCD), and the placeholder test that keeps templates such as
 * `sk-xxxx…` or `<your-api-key>` untouched. Pure functions, no allocation
 * beyond small locals.
 *
 * @module
 */

import { memoize } from "./_memo.ts";

/**
 * Shannon entropy of a string in bits per character.
 *
 * @example
 * ```ts
 * shannonEntropy("aaaa"); // 0
 * ```
 */
export function shannonEntropy(value: string): number {
  return value.length === 0 ? 0 : rememberedEntropy(value);
}

const rememberedEntropy = memoize(entropyOf);

function entropyOf(value: string): number {
  // ASCII counts in a reused table (a Map per call cost most of a dense text's time).
  asciiCounts.fill(0);
  let others: Map<number, number> | undefined;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 128) asciiCounts[code]!++;
    else (others ??= new Map()).set(code, (others.get(code) ?? 0) + 1);
  }
  // The same sums in the same order as ever (a threshold must not move by a
  // rounding), without a closure per call: that cost a fifth of a dense text's time.
  let bits = 0;
  for (let code = 0; code < 128; code++) {
    if (asciiCounts[code] === 0) continue;
    const p = asciiCounts[code]! / value.length;
    bits -= p * Math.log2(p);
  }
  for (const n of others?.values() ?? []) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

const asciiCounts = new Int32Array(128);

/** True when the digits of `value` (separators ignored) pass the Luhn check. */
export function luhnValid(value: string): boolean {
  let sum = 0;
  let double = false;
  let digits = 0;
  for (let i = value.length - 1; i >= 0; i--) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) continue;
    let d = code - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
    digits++;
  }
  return digits > 0 && sum % 10 === 0;
}

/**
 * IBAN lengths per country (ISO 13616 registry), packed as `CCnn` pairs so
 * nothing is built at import beyond one short string.
 */
const IBAN_LENGTHS =
  "AD24AE23AL28AT20AZ28BA20BE16BG22BH22BR29BY28CH21CR22CY28CZ24DE22DK18DO28EE20EG29ES24FI18FO18" +
  "FR27GB22GE22GI23GL18GR27GT28HR21HU28IE22IL23IQ23IS26IT27JO30KW30KZ20LB28LC32LI21LT20LU20LV21" +
  "MC27MD24ME22MK19MR27MT31MU30NL18NO15PK24PL28PS29PT25QA29RO24RS22SA24SC31SE24SI19SK24SM27ST25" +
  "SV28TL23TN24TR26UA29VA22VG24XK20";

/** The registered IBAN length for a two-letter country code, or 0 when unknown. */
export function ibanLength(country: string): number {
  // A map made on first use: a scan of the list per candidate was a tenth of
  // the time of text dense with IBANs.
  if (ibanLengths === undefined) {
    ibanLengths = new Map();
    for (let i = 0; i < IBAN_LENGTHS.length; i += 4) {
      ibanLengths.set(IBAN_LENGTHS.slice(i, i + 2), Number(IBAN_LENGTHS.slice(i + 2, i + 4)));
    }
  }
  return ibanLengths.get(country) ?? 0;
}

let ibanLengths: Map<string, number> | undefined;

/**
 * True when `value` (spaces ignored) has its country's registered length and
 * passes the ISO 7064 mod-97 check.
 */
export function mod97Valid(value: string): boolean {
  // Text built to be slow repeats the same candidates thousands of times.
  const known = mod97Checked.get(value);
  if (known !== undefined) return known;
  if (mod97Checked.size >= 1024) mod97Checked.clear();
  const valid = mod97ValidOf(value);
  mod97Checked.set(value, valid);
  return valid;
}

const mod97Checked = new Map<string, boolean>();

/**
 * Whether offset `at` of `text` follows a group of four digits, or the head
 * of a grouped IBAN, and a blank (`DE37 5710 7128 `, a USPS tracking
 * number's `9400 1373 `): digits there are part of a longer number, even an
 * IBAN whose check digits fail, never a card or a phone number of their own.
 */
export function followsDigitGroups(text: string, at: number): boolean {
  return /(?:\b[A-Z]{2}\d\d(?: [0-9A-Z]{4}){0,7}|(?<![\d.,])\d{4}) $/.test(
    text.slice(Math.max(0, at - 40), at),
  );
}

function mod97ValidOf(value: string): boolean {
  const iban = value.replace(/ /g, "").toUpperCase();
  if (iban.length < 5 || ibanLength(iban.slice(0, 2)) !== iban.length) return false;
  const rotated = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let i = 0; i < rotated.length; i++) {
    const code = rotated.charCodeAt(i);
    if (code >= 48 && code <= 57) remainder = (remainder * 10 + (code - 48)) % 97;
    else if (code >= 65 && code <= 90) remainder = (remainder * 100 + (code - 55)) % 97;
    else return false;
  }
  return remainder === 1;
}

/**
 * Whether `word` is one of the words of `list`, a space-separated string.
 * Word lists stay strings, so loading the rules builds no `Set` (0.1 ms of
 * every hook run for the three lists). The first lookups search the string
 * itself: a hook run asks a list a few times, and making the `Set` of the
 * 403 public TLDs cost a fresh process 0.3 ms against 0.02 for a search.
 * Past {@linkcode SEARCHES_BEFORE_SET} lookups the list's `Set` is made,
 * since text dense with candidates asks thousands of times.
 *
 * @example
 * ```ts
 * inWordList("png jpg gif", "jpg"); // true
 * ```
 */
export function inWordList(list: string, word: string): boolean {
  // A word with a space is never one of the list's words.
  if (word.length === 0 || word.includes(" ")) return false;
  let lookup = wordLists.get(list);
  if (lookup === undefined) wordLists.set(list, lookup = { spaced: ` ${list} `, asked: 0 });
  if (lookup.words === undefined && ++lookup.asked > SEARCHES_BEFORE_SET) {
    lookup.words = new Set(list.split(" "));
  }
  return lookup.words === undefined ? lookup.spaced.includes(` ${word} `) : lookup.words.has(word);
}

/** Lookups of a word list answered by searching it before its `Set` is made. */
export const SEARCHES_BEFORE_SET = 16;

/** Each list's lookups: the list between spaces, and its words once asked often. */
const wordLists = new Map<string, { spaced: string; asked: number; words?: Set<string> }>();

/** Whether a UTF-16 code is `[A-Za-z]`. */
export function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** Whether a UTF-16 code is `[A-Za-z0-9]`. */
export function isAsciiAlnum(c: number): boolean {
  return isAsciiLetter(c) || (c >= 48 && c <= 57);
}

/** Whether a UTF-16 code is `[A-Za-z0-9_-]` (what `[\w-]` matches). */
export function isWordOrHyphen(c: number): boolean {
  return isAsciiAlnum(c) || c === 95 || c === 45;
}

/**
 * Whether a UTF-16 code continues a name as the rules' patterns read one,
 * `[\w.-]`, in lowercased text: `[a-z0-9_.-]`.
 */
export function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

/** Province and city codes that open a CCCD (Circular 07/2016/TT-BCA). */
const CCCD_PROVINCES =
  "001 002 004 006 008 010 011 012 014 015 017 019 020 022 024 025 026 027 030 031 033 034 035 " +
  "036 037 038 040 042 044 045 046 048 049 051 052 054 056 058 060 062 064 066 067 068 070 072 " +
  "074 075 077 079 080 082 083 084 086 087 089 091 092 093 094 095 096";

/**
 * Why a 12-digit string cannot be a CCCD, or `undefined` when its structure
 * is valid: a known province code and a century-and-sex digit for
 * 1900–2099. The birth year is not checked: ids made up for tests and
 * seeds carry any two digits there, and the rule wants id context anyway.
 */
export function cccdProblem(digits: string): string | undefined {
  if (!/^\d{12}$/.test(digits)) return "not 12 digits";
  if (!inWordList(CCCD_PROVINCES, digits.slice(0, 3))) {
    return `province code ${digits.slice(0, 3)} unknown`;
  }
  const century = Number(digits[3]);
  return century > 3 ? `century digit ${century} outside 1900–2099` : undefined;
}

function isPlaceholderWord(value: string): boolean {
  return /^(?:x+|\*+|\.+|#+|-+|_+|0+)$/.test(value) ||
    inWordList(PLACEHOLDER_WORDS, unwrapped(value.toLowerCase()));
}

/**
 * `value` without one pair of the marks that set a stand-in apart:
 * `[FILTERED]` (Rails' logs), `__SET_ME__`, `(hidden)`, `*SENSITIVE*DATA*DELETED*`
 * (what Windows Setup leaves of an answer file's passwords).
 */
function unwrapped(value: string): string {
  return value.replace(/^\[(.*)\]$|^__(.*)__$|^\((.*)\)$|^\*(.*)\*$/, "$1$2$3$4");
}

/** Words whose presence sends a value to the full placeholder checks below. */
const TEMPLATE_HINTS = [
  "your",
  "my",
  "insert",
  "replace",
  "enter",
  "fake",
  "dummy",
  "example",
  "test",
  "sample",
  "mock",
  "placeholder",
  "here",
];

/**
 * True when none of the checks of {@linkcode placeholderProblem} can fire:
 * printable ASCII without `$ % < > { }`, no character four times in a row, no
 * `..`/`**`, not one repeated character, no template word. A plain scan, so a
 * typical secret is cleared without compiling the checks' patterns (which
 * dominates in a short-lived process); anything else goes through them.
 */
function plainlyNotPlaceholder(value: string): boolean {
  let previous = -1;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (
      c < 32 || c > 126 || c === 36 || c === 37 || c === 60 || c === 62 || c === 123 || c === 125
    ) {
      return false;
    }
    run = c === previous ? run + 1 : 1;
    if (run >= 4 || (run >= 2 && (c === 42 || c === 46))) return false;
    previous = c;
  }
  if (run === value.length || isAscendingRuns(value)) return false;
  if (mayReferToASecret(value)) return false;
  const lower = value.toLowerCase();
  if (inWordList(PLACEHOLDER_WORDS, unwrapped(lower))) return false;
  for (const hint of TEMPLATE_HINTS) if (lower.includes(hint)) return false;
  return true;
}

const PLACEHOLDER_WORDS =
  "null none nil undefined true false changeme change_me change-me password passwd secret token " +
  "example sample dummy test redacted hidden masked placeholder todo tbd filtered omitted removed " +
  "set_me setme set-me fill_me fillme fill-me replace_me replaceme replace-me pass not-set notset " +
  "not_set unset sensitive*data*deleted";

/**
 * Whether `value` may stand for a secret kept elsewhere (see
 * {@linkcode referenceProblem}): a plain look at its start, so that a typical
 * secret is cleared without a pattern.
 */
function mayReferToASecret(value: string): boolean {
  return value.includes("://") || value.startsWith("arn:") || value.startsWith("projects/") ||
    value.startsWith("@") || value.startsWith("ENC[") || value.startsWith(":") ||
    value.startsWith("$") || value.startsWith("__") || value.startsWith("process.env") ||
    value.startsWith("import.meta.env") || value.startsWith("os.environ") ||
    value.startsWith("%env(") || value.startsWith("[enc:") || value.startsWith("hmac-sha256:") ||
    UPPER_SNAKE.test(value);
}

/** A name in upper snake case (`DOCKER_LOGIN_PASSWORD`): how environment variables are named. */
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/**
 * Why `value` stands for a secret kept elsewhere rather than being one, or
 * `undefined`: a secret store's reference, a bound parameter, SOPS
 * ciphertext, a file's contents.
 */
function referenceProblem(value: string): string | undefined {
  if (!mayReferToASecret(value)) return undefined;
  if (SECRET_STORE_REFERENCE.test(value)) return "a secret store's reference";
  // Any other AWS resource's name (`arn:aws:iam::aws:policy/IAMUserChangePassword`) is a name.
  if (/^arn:aws[\w-]*:[\w-]+:/.test(value)) return "an AWS resource's name";
  // SQL's bound parameters: `SET PASSWORD = :new_password`, `@pwd`, `$1`.
  // A parameter's name is letters, then perhaps digits: `@Raven349s` is a password.
  if (/^(?::|@)[A-Za-z_][A-Za-z_]*\d*$|^\$\d+$/.test(value)) return "a bound parameter";
  // SOPS keeps each value encrypted in place: `ENC[AES256_GCM,data:…,type:str]`.
  if (value.startsWith("ENC[")) return "SOPS ciphertext";
  // IIS keeps `applicationHost.config` secrets encrypted by a provider:
  // `[enc:IISCngProvider:…:enc]`.
  if (/^\[enc:\w+:[A-Za-z0-9+/=]+:enc\]$/.test(value)) return "IIS ciphertext";
  // Vault's audit log writes each secret as its salted HMAC: `hmac-sha256:<64 hex>`.
  if (/^hmac-sha256:[0-9a-f]{64}$/.test(value)) return "a secret's HMAC (Vault's audit log)";
  // Symfony's `%env(APP_SECRET)%` and `%env(resolve:JWT_SECRET_KEY)%`: read from the environment.
  if (/^%env\((?:[\w-]+:)*\w+\)%$/.test(value)) return "an environment lookup";
  // Apple's `notarytool`/`altool` read `-p @keychain:AC_PASSWORD` and `@env:AC_PASSWORD`.
  if (/^@(?:keychain|env):[\w.-]+$/.test(value)) return "a keychain or environment reference";
  // `db_password=@/dev/stdin` (vault kv put), `@./secret.txt` (curl): a file's contents.
  if (/^@[./~]/.test(value)) return "a file reference";
  // Azure App Service's `@Microsoft.KeyVault(SecretUri=…)`: a Key Vault reference.
  if (/^@Microsoft\.KeyVault\(/i.test(value)) return "a secret store's reference";
  // Octopus' and Azure Pipelines' `__DbPassword__`: replaced at deploy time.
  if (/^__[A-Za-z][\w.-]*__$/.test(value)) return "a token a deploy replaces";
  // `process.env.DB_PASSWORD!`, `os.environ["…"]`: read from the environment.
  if (/^(?:process\.env|import\.meta\.env|os\.environ)\b/.test(value)) {
    return "an environment lookup";
  }
  // Buildkite's `password-env: DOCKER_LOGIN_PASSWORD`: the variable that holds it.
  if (
    UPPER_SNAKE.test(value) &&
    /(?:^|_)(?:PASS\w*|PWD|TOKEN|SECRET|KEY|CREDENTIALS?)(?:_|$)/.test(value)
  ) {
    return "an environment variable's name";
  }
  return undefined;
}

/**
 * Where a secret is kept, not the secret: 1Password's `op://vault/item/field`,
 * Vault, Doppler and Infisical URIs, AWS Secrets Manager and SSM ARNs, Google
 * Secret Manager's resource names (Azure's `@Microsoft.KeyVault(…)` is read
 * apart, where the other `@` references are).
 */
const SECRET_STORE_REFERENCE =
  /^(?:(?:ref\+[a-z0-9]+|op|vault|doppler|infisical|akv|keyvault|sm|ssm|gsm|secret|secrets):\/\/|arn:aws:(?:secretsmanager|ssm):|projects\/[\w-]+\/secrets\/)/i;

/** What {@linkcode remembered} stores for a value its check keeps (no check returns it). */
const KEPT = "\u0000kept";

/**
 * A check of one string, remembered (see {@linkcode memoize}): text built to
 * be slow repeats the same names and values thousands of times, and each
 * check runs several patterns.
 */
export function remembered(
  check: (value: string) => string | undefined,
): (value: string) => string | undefined {
  // `KEPT` stands for `undefined`, so that one lookup answers, not two.
  const reasonOf = memoize((value) => check(value) ?? KEPT);
  return (value) => {
    const reason = reasonOf(value);
    return reason === KEPT ? undefined : reason;
  };
}

/**
 * Why `value` reads as a placeholder, template or masked value rather than a
 * real secret, or `undefined` when it does not.
 */
export const placeholderProblem: (value: string) => string | undefined = remembered(
  placeholderProblemOf,
);

function placeholderProblemOf(value: string): string | undefined {
  if (value.length === 0) return "empty";
  // `'#toggle-password'`: a CSS selector.
  if ((value[0] === "#" || value[0] === ".") && /^[#.][a-z]+(?:-[a-z]+)+$/.test(value)) {
    return "a CSS selector";
  }
  if (isInterleavedCount(value) && !isAscendingRuns(value)) {
    return "letters and digits counted in turn";
  }
  // RFC 6070's `passwordPASSWORDpassword` and `saltSALTsalt…`: one short word over and over.
  if (value.length >= 8 && /^([a-z]{2,8})\1+$/.test(value.toLowerCase())) {
    return "one word repeated";
  }
  // `HeaderAuthToken = "X-Auth-Token"`: the name of the header that carries one.
  if (/^X(?:-(?:[A-Z][a-z]+|[A-Z]{2,5}))+$/.test(value)) return "an HTTP header's name";
  // THC Hydra's `^USER^` and `^PASS^`: where each guess goes.
  if (/^\^[A-Z]{3,8}\^(?:$|[:&])/.test(value)) return "a tool's placeholder";
  // What Ansible prints in place of a `no_log` value.
  if (value === "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER") return "Ansible's mask";
  if (plainlyNotPlaceholder(value)) return undefined;
  // `$(` and `%(` start a substitution only before a name (`$(cat f)`, `%(name)s`): Django's
  // generated keys hold `$(=8…` too.
  // HTML's `&lt;YOUR_PASSWORD&gt;` is `<YOUR_PASSWORD>` escaped.
  if (/[<>{}]|\$\([\w$]|\$\{|%\(\w|%s\b|\{\{|&[lg]t;/.test(value) && !isSymbolNoise(value)) {
    return "template syntax";
  }
  if (value.startsWith("$") || /^%(?:\w+%|\d$)/.test(value)) return "variable reference";
  // PHP's and JavaScript's `'password = ' . $cfg[…]`: what follows the quote is code.
  if (/^[.+][ \t]*\$[A-Za-z_]/.test(value)) return "a concatenation";
  const reference = referenceProblem(value);
  if (reference !== undefined) return reference;
  if (isPlaceholderWord(value)) return `placeholder word ${value}`;
  if (/x{4,}|X{4,}|\*{3,}|•{3,}|\.{3}|…/.test(value)) return "masked or elided";
  if (/(?:^|[_-])(?:your|my|insert|replace|enter|fake|dummy)[_-]/i.test(value)) {
    return "template words";
  }
  if (/^your|^<|example|placeholder|[_-]here$/i.test(value)) return "template words";
  if (
    /^(?:my|the|some)[_-]?(?:password|passwd|pass|pwd|secret|token|api[_-]?key|key)\d{0,4}$/i.test(
      value,
    )
  ) {
    return "template words";
  }
  if (isWordsWithTestWord(value)) return "test words";
  if (/(.)\1{7,}/.test(value)) return "one character repeated";
  if (isAscendingRuns(value)) return "ascending runs";
  return undefined;
}

/**
 * The shapes a template or a format string gives a value: `{{ … }}`,
 * `${NAME}` and `${NAME:-default}`, `$(command`, `%(name)s`, `%s`, ERB's
 * `<%`, Ruby's `#{`, `{name}` and `{0}`, `<your-key>`, and a value wholly in
 * `<…>` or `{…}`. A `{`, `<` or `$` alone is none of them.
 */
export const TEMPLATE_SHAPE =
  /\{\{[^{}]*\}\}|\$\{[A-Za-z_][\w.:/-]*(?:[:?+=-][^{}]*)?\}|\$\([\w$]|%\(\w+\)|%s\b|<%|#\{|(?<!\{)\{[A-Za-z_][\w.]+\}(?!\})|\{\d+\}|<[A-Za-z_ -]{3,}>|^<[^<>]*>$|^\{[^{}]*\}$/;

/** Characters a typed or generated key holds at random and prose seldom does. */
const NOISE_SYMBOLS = "!#$%^&*()[]<>{}|~";

/**
 * Whether `value` is symbol noise rather than a template: no blank, 12
 * characters or more, a letter, four different symbols of
 * {@linkcode NOISE_SYMBOLS}, and none of {@linkcode TEMPLATE_SHAPE}'s shapes.
 * A generated password (`q{{w}e)r${t]yui(opas[…`) holds `{`, `<` and `${`
 * at random; a template holds them in its shapes.
 */
export function isSymbolNoise(value: string): boolean {
  if (value.length < 12 || /\s/.test(value) || !/[A-Za-z]/.test(value)) return false;
  let symbols = "";
  for (const char of value) {
    if (NOISE_SYMBOLS.includes(char) && !symbols.includes(char)) symbols += char;
  }
  return symbols.length >= 4 && !TEMPLATE_SHAPE.test(withoutOneFormatVerb(value));
}

/**
 * `value` without its `%s` when it holds one alone: Django's generated keys
 * draw `%` and `s` from their alphabet (`…&*=99&%s*k%886(…`), and a format
 * string for a value holds its verbs with little noise around them.
 */
function withoutOneFormatVerb(value: string): string {
  const at = value.indexOf("%s");
  if (at < 0 || value.includes("%s", at + 2)) return value;
  return value.slice(0, at) + value.slice(at + 2);
}

/** Letters and digits in turn, maybe split by `-` or `_`: where a counted stand-in may stand. */
const IN_TURN = /(?:[A-Za-z][-_]?\d[-_]?|\d[-_]?[A-Za-z][-_]?){4,}/g;

/**
 * Whether `value` is, for two thirds of it or more, letters and digits in
 * turn that both count up or both count down (`a0b1c2d3-e4f5-g6h7-…`,
 * `0a1b2c3d…q7rNRAL`, `px-dep-z9y8x7w6-…`): a stand-in typed to look
 * random. Asked of every value, so a cheap test comes first: two replaces
 * per value cost a cold hook 2 ms on a 64 KB tool input.
 */
function isInterleavedCount(value: string): boolean {
  if (value.length < 16 || !/(?:[A-Za-z]\d|\d[A-Za-z]){3}/.test(value)) return false;
  for (const [run] of value.matchAll(IN_TURN)) {
    if (run.length * 3 < value.length * 2) continue;
    const letters = run.replace(/[^A-Za-z]/g, "").toLowerCase();
    const digits = run.replace(/\D/g, "");
    const direction = countsByOne(letters, 0);
    if (direction !== 0 && direction === countsByOne(digits, 10)) return true;
  }
  return false;
}

/**
 * 1 when `value`, four characters or more, steps up by one from each to the
 * next (`abcd`, `7890`: digits wrap around `wrap`, 10), -1 when it steps
 * down by one (`9876`), else 0.
 */
function countsByOne(value: string, wrap: number): number {
  if (value.length < 4) return 0;
  const step = (i: number) => {
    const d = value.charCodeAt(i) - value.charCodeAt(i - 1);
    return wrap > 0 && Math.abs(d) === wrap - 1 ? -Math.sign(d) : d;
  };
  const first = step(1);
  if (first !== 1 && first !== -1) return 0;
  for (let i = 2; i < value.length; i++) if (step(i) !== first) return 0;
  return first;
}

/**
 * Whether `value` is words and numbers joined by `-`, `_` or `.`, one of them
 * saying it is a test value (`test-api-key-12345`, `sample_token_v2`): a
 * generated secret has parts that mix letters and digits.
 */
function isWordsWithTestWord(value: string): boolean {
  const parts = value.split(/[-_.]/);
  if (parts.length < 2 || !parts.every((part) => /^(?:[A-Za-z]+|\d+)$/.test(part))) return false;
  return parts.some((part) =>
    /^(?:test|tests|testing|sample|mock|dummy|fake|example|demo)$/i.test(part)
  );
}

/**
 * Whether `value`, 8 characters or more, is made of runs of at least three
 * consecutive characters (`abc123def456`, `1234567890abcdef`): what people
 * type as a stand-in, never what a generator emits.
 */
function isAscendingRuns(value: string): boolean {
  if (value.length < 8) return false;
  let run = 1;
  for (let i = 1; i <= value.length; i++) {
    const [previous, next] = [value.charCodeAt(i - 1), value.charCodeAt(i)];
    // `0` follows `9` on a keyboard's top row: `1234567890`.
    if (i < value.length && (next === previous + 1 || (previous === 57 && next === 48))) {
      run++;
      continue;
    }
    if (run < 3) return false;
    run = 1;
  }
  return true;
}

/**
 * The text of the line before `at`, at most `max` characters of it. Bounded,
 * so a validator that asks it for every candidate stays linear where a text
 * has no newline at all (`lastIndexOf("\n")` would scan back to its start).
 */
export function lineBefore(text: string, at: number, max: number): string {
  // The engine's own search in a slice, not a loop per character: asked for
  // every candidate of dense text, that loop was a third of its time.
  const window = text.slice(Math.max(0, at - max), at);
  return window.slice(window.lastIndexOf("\n") + 1);
}

/** A line that a shell, `cmd` or PowerShell continues on the next: it ends in `\`, `^` or a backtick. */
const CONTINUED_LINE = /[\\^`][ \t]*\r?$/;

/**
 * The command before `at`: {@linkcode lineBefore}, with the lines it
 * continues (`sqlcmd -S db ^` then `  -P "…"`), at most `max` characters.
 */
export function commandBefore(text: string, at: number, max: number): string {
  const window = text.slice(Math.max(0, at - max), at);
  let start = window.lastIndexOf("\n");
  while (
    start > 0 && CONTINUED_LINE.test(window.slice(window.lastIndexOf("\n", start - 1) + 1, start))
  ) {
    start = window.lastIndexOf("\n", start - 1);
  }
  return window.slice(start + 1);
}

/**
 * Whether `value` is canonical base64 that `atob` takes without throwing:
 * a thrown error costs microseconds, and text of repeated near-misses
 * would throw for every candidate.
 */
export function isBase64(value: string): boolean {
  return value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);
}

/**
 * Character classes present in `value` (lowercase, uppercase, digit, other);
 * with `alnum`, only the first three count.
 */
export function charClasses(value: string, options: { alnum?: boolean } = {}): number {
  let lower = 0, upper = 0, digit = 0, other = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = 1;
    else if (c >= 65 && c <= 90) upper = 1;
    else if (c >= 48 && c <= 57) digit = 1;
    else other = 1;
  }
  return lower + upper + digit + (options.alnum ? 0 : other);
}

/** The reason to reject a candidate, or `undefined` to keep it (see `_engine.ts`). */
type Check = (
  candidate: { secret: string; text: string; start: number; end: number },
) => string | undefined;

/**
 * Gives a check made by a factory (`minEntropy(3)`) the name the rule
 * catalogue prints for it.
 */
export function named<T extends (...args: never[]) => unknown>(name: string, check: T): T {
  return Object.defineProperty(check, "name", { value: name });
}

/**
 * The key name a candidate was found under, for rules that start at a word
 * and look back for the rest of the name: the `head` group (up to the word)
 * and the `name` group (after it), whichever took part.
 */
export function headAndName(c: { groups: Readonly<Record<string, string | undefined>> }): string {
  return (c.groups["head"] ?? "") + (c.groups["name"] ?? "");
}

/**
 * Keys made to be published, which a name saying key does not make secret:
 * Stripe's publishable keys, Mapbox's public tokens, RevenueCat's public
 * app keys and Razorpay's key ids (policy negatives).
 */
export const PUBLISHABLE_KEYS: readonly RegExp[] = [
  /^pk_(?:live|test)_\w+$/,
  /^pk\.eyJ[\w.-]+$/,
  /^(?:appl|goog|amzn)_[A-Za-z0-9]{20,40}$/,
  /^rzp_(?:live|test)_[A-Za-z0-9]{14}$/,
];

/**
 * Rejects a Sealed Secrets ciphertext (`encryptedData:` of a `SealedSecret`,
 * base64 that starts `Ag`, also in a diff of one), or AWS KMS's (an SSM
 * `SecureString` read without `--with-decryption`: base64 that starts
 * `AQICAH`): encrypted for the cluster or the key, not a secret in clear.
 */
export const notSealedCiphertext: Check = (c) => {
  if (c.secret.length < 80) return undefined;
  const near = () => c.text.slice(Math.max(0, c.start - 16384), c.start + 16384);
  if (
    /^Ag[A-Za-z0-9+/]+={0,2}$/.test(c.secret) &&
    /encryptedData|SealedSecret|kubeseal|sealed-secrets/.test(near())
  ) {
    return "Sealed Secrets ciphertext";
  }
  return /^AQICAH[A-Za-z0-9+/]+={0,2}$/.test(c.secret) && /SecureString/.test(near())
    ? "KMS ciphertext"
    : undefined;
};

/** Rejects placeholders, templates and masked values. */
export const notPlaceholder: Check = (c) => placeholderProblem(c.secret);

/**
 * apksigner's and bundletool's `env:NAME`, `file:PATH`, `fd:N` and `stdin`:
 * where the password is kept, not the password.
 */
export const notKeptElsewhere: Check = (c) =>
  /^(?:(?:env|file|fd):[\w./~-]+|stdin)$/.test(c.secret) ? "where the password is kept" : undefined;

/** One check per bound: 75 rules ask for one, and each made its own as the hook loaded. */
const entropyChecks = new Map<number, Check>();

/** Rejects secrets whose Shannon entropy is at or below `bits` per character. */
export function minEntropy(bits: number): Check {
  let check = entropyChecks.get(bits);
  if (check === undefined) {
    check = named(`minEntropy(${bits})`, (c) => {
      const h = shannonEntropy(c.secret);
      return h <= bits ? `entropy ${h.toFixed(2)} ≤ ${bits}` : undefined;
    });
    entropyChecks.set(bits, check);
  }
  return check;
}

/** Rejects secrets without at least one digit and one letter. */
export const hasDigitAndLetter: Check = (c) =>
  /\d/.test(c.secret) && /[A-Za-z]/.test(c.secret) ? undefined : "needs a digit and a letter";

/**
 * Rejects secrets without two of lowercase letters, capitals and digits: a
 * random token of 24 letters has no digit once in 70 draws (Vault's dev
 * server prints `hvs.LwhmMyvbdaehFEzjjQFvxfHk`), but it mixes the cases.
 */
export const mixesTwoKinds: Check = (c) =>
  charClasses(c.secret, { alnum: true }) >= 2
    ? undefined
    : "not two of lowercase, uppercase and digits";

/** Rejects secrets without a lowercase letter, a capital and a digit each (random keys have all three). */
export const hasBothCasesAndDigit: Check = (c) =>
  charClasses(c.secret, { alnum: true }) === 3 ? undefined : "not lowercase, uppercase and digits";

/**
 * Rejects one digit repeated or digits counting up (`777777`, `12345678`),
 * blanks and dashes between them left out: examples, not a number someone
 * holds.
 */
export const notDigitRun: Check = (c) => {
  const digits = c.secret.replace(/[ -]/g, "");
  return /^(\d)\1+$/.test(digits) || "0123456789".includes(digits)
    ? "a run of one digit or counting digits"
    : undefined;
};

/** Rejects secrets whose longest alphanumeric run is shorter than `min` (kebab-case names). */
export function longestRun(min: number): Check {
  return named(`longestRun(${min})`, (c) => {
    let best = 0;
    for (const run of c.secret.split(/[^A-Za-z0-9]+/)) best = Math.max(best, run.length);
    return best < min ? `longest alphanumeric run ${best} < ${min}` : undefined;
  });
}

/** Rejects values directly followed by `(` (a function call, not a literal). */
export const notCall: Check = (c) => c.text[c.end] === "(" ? "function call" : undefined;

/**
 * Why `value` does not read like a password typed as a bare word, or
 * `undefined` when it does: at least 6 characters, two character classes,
 * and not a code identifier, dotted path, number or port.
 */
export const passwordShapeProblem: (value: string) => string | undefined = remembered(
  passwordShapeProblemOf,
);

function passwordShapeProblemOf(value: string): string | undefined {
  if (value.length < 6) return `length ${value.length} < 6`;
  if (/^\d+$/.test(value)) return undefined;
  // Google's app passwords: 16 lowercase letters, their blanks left out.
  if (/^[a-z]{16}$/.test(value)) return placeholderProblem(value);
  if (charClasses(value) < 2) return "one character class";
  if (/^[\d.:/,-]+$/.test(value)) return "number, port or address";
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) && !/\d/.test(value)) {
    return "dotted identifier";
  }
  if (/^[a-z]+(?:[A-Z][a-z]+)+$/.test(value) || /^[a-z]+(?:_[a-z]+)+$/.test(value)) {
    return "code identifier";
  }
  // `random_password.db: Refreshing state…`: a capitalised word of a log line.
  if (/^[A-Z][a-z]+$/.test(value)) return "a word";
  // `password combination.`: a word that ends a sentence.
  if (/^[A-Za-z][a-z]+[.,;:!?]$/.test(value)) return "a word and its sentence's mark";
  if (/^https?:/.test(value)) return "URL";
  // `LoadCredential=db_password:/etc/credstore/db_password`: where the password is kept.
  if (/^(?:~|\.{1,2})?\/[\w.-]+\/[\w./-]*$/.test(value)) return "a file path";
  return placeholderProblem(value);
}
