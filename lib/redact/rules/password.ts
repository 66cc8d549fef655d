/**
 * Passwords where no anchor exists: assignments (`password=…`, YAML, JSON
 * bodies, also JSON-escaped), command-line flags (`mysql -p…`,
 * `sshpass -p`, `--password`, `curl -u user:pass`), `.pgpass` lines, and
 * prose (`mật khẩu là …`, `the password is …`). Masked values, templates,
 * defaults and code (`getpass(…)`, `user.password`) stay.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { textPasswordNameProblem } from "../secret_keys.ts";
import {
  charClasses,
  inWordList,
  isNameChar,
  lineBefore,
  notPlaceholder,
  passwordShapeProblem,
  placeholderProblem,
  remembered,
} from "../_validators.ts";

// Patterns live inside the functions that use them: a regular expression is
// created when its function first runs, not when the hook loads every rule.

function nameSaysPassword(c: Candidate): string | undefined {
  return passwordNameProblem(c.groups["name"] ?? "");
}

const passwordNameProblem = remembered(textPasswordNameProblem);

/** Quoted values need no shape beyond "not a placeholder, no spaces"; bare words must look typed. */
function valueLooksSet(c: Candidate): string | undefined {
  const quoted = c.groups["quoted"] !== undefined;
  if (quoted) {
    if (c.secret.length < 4) return `length ${c.secret.length} < 4`;
    if (/\s/.test(c.secret)) return passphraseProblem(c.secret);
    if (charClasses(c.secret) < 2 && c.secret.length < 10) return "one short character class";
    return placeholderProblem(c.secret);
  }
  if (c.text[c.end] === "(" || c.text[c.end] === "[") return "code expression";
  return passwordShapeProblem(c.secret);
}

/** Words of messages and labels, which a passphrase of random words hardly holds. */
const MESSAGE_WORDS =
  "the and for you your must not too are was has have with this that least characters password " +
  "enter invalid incorrect required match does should please new old confirm field from wrong " +
  "is be at of to in on or a an it";

/**
 * Why a quoted value with spaces is not a passphrase, or `undefined` when it
 * is: 3 to 10 words of letters and digits, none a word of messages
 * (`"must be at least 12 characters"`, `"Enter your password"`).
 */
function passphraseProblem(value: string): string | undefined {
  const words = value.trim().split(/\s+/);
  if (words.length < 3 || words.length > 10) return `${words.length} words, not a passphrase`;
  for (const word of words) {
    const bare = word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
    if (bare.length === 0 || inWordList(MESSAGE_WORDS, bare)) return `message word "${word}"`;
  }
  return placeholderProblem(value);
}

function isLowerLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/**
 * Whether the name `text.slice(start, end)` may pass `nameSaysPassword`:
 * it holds `pwd`, `passw` or `passphrase` in any case, or a `pass` followed
 * by no lowercase letter and preceded by none, unless spelt `Pass`.
 * `bypass`, `compass` and `passes` do not.
 */
function nameMaySayPassword(text: string, lower: string, start: number, end: number): boolean {
  const name = lower.slice(start, end);
  if (
    name.includes("pwd") || name.includes("passw") || name.includes("passphrase") ||
    name.includes("pasw") || name.includes("pswd") || name.includes("pasword")
  ) return true;
  for (let at = name.indexOf("pass"); at >= 0; at = name.indexOf("pass", at + 1)) {
    const p = start + at;
    if (isLowerLetter(text.charCodeAt(p + 4))) continue;
    if (isLowerLetter(text.charCodeAt(p - 1)) && text[p] !== "P") continue;
    return true;
  }
  return false;
}

/**
 * Whether some name holding `pass` or `pwd` may say password and is
 * followed, past quotes and blanks, by `:` or `=`: what the pattern and
 * `nameSaysPassword` both need. Names like `bypass` and words like
 * `passes` are everywhere in code and prose; `password: string` still
 * counts. Each name is looked at once, so this stays linear.
 */
function mayAssignPassword(text: string, lower: string): boolean {
  if (lower.length !== text.length) return true; // Offsets would differ: cannot tell.
  for (const word of ["pass", "pwd", "pasw", "pswd", "pasword"]) {
    let scannedTo = 0;
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      if (at < scannedTo) continue;
      let start = at;
      while (start > 0 && isNameChar(lower.charCodeAt(start - 1))) start--;
      let end = at + word.length;
      while (end < lower.length && isNameChar(lower.charCodeAt(end))) end++;
      scannedTo = end;
      let i = end;
      while (i < lower.length && `\\"' \t`.includes(lower[i]!)) i++;
      if (lower[i] !== ":" && lower[i] !== "=") continue;
      if (nameMaySayPassword(text, lower, start, end)) return true;
    }
  }
  return false;
}

/**
 * A value: quoted (double, single, JSON-escaped), or bare up to a blank or
 * a delimiter; a YAML `!!binary` tag before it is skipped. 4,096 characters
 * at most, so no real value leaves a tail and no attempt scans far.
 */
const VALUE = "(?:!!binary[ \\t]*(?:\\|-?[ \\t]*\\n[ \\t]*)?)?" +
  "(?:\"(?<quoted>(?<secret>[^\"\\\\\\n]{1,4096}))\"|'(?<quoted>(?<secret>[^'\\\\\\n]{1,4096}))'" +
  '|\\\\"(?<quoted>(?<secret>[^"\\\\\\n]{1,4096}))\\\\"|(?<secret>[^\\s"\'\\\\,;&<>(){}\\[\\]`]{1,4096}))';

/** `password = …`, `DB_PASS: …`, `"password": "…"`. */
export const passwordAssignment: Rule = {
  id: "password_assignment",
  description: "Password assigned to a name that says password (code, config, JSON, query string)",
  placeholder: "<PASSWORD>",
  keywords: ["pass", "pwd", "pasw", "pswd", "pasword"],
  precheck: (facts) => mayAssignPassword(facts.text, facts.lower),
  pattern: () =>
    new RegExp(
      "(?<![\\w.-])(?<name>[\\w.-]{0,40}?(?:pass|pwd|pasw|pswd|pasword)[\\w.-]{0,30})(?:\\\\?[\"'])?[ \\t]{0,4}(?:[:=]|:=|=>)[ \\t]{0,4}" +
        VALUE,
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [nameSaysPassword, valueLooksSet],
  allowlist: [],
  truePositives: [
    "DB_PASSWORD=Tr4v3l!ing-Kite",
    '{"username": "ops", "password": "Qz7#mL2p"}',
    "smtp:\n  pass: 'nW8$kd3LqZ'",
    "jdbc:mysql://db/app?user=app&password=H7k.29xLpQ&ssl=true",
    'const dbPass = "Qz7#mL2p";',
    // A passphrase of random words.
    'db:\n  pass: "correct horse battery staple"',
    // Misspelt names.
    "passwrd: Hq7-xLm2Rv9",
    "DB_PASWORD=Hq7-xLm2Rv9",
    // A value ending in a dot, and one longer than 200 characters.
    'psycopg2.connect(user="etl", password="Vb8n^Lk2Qw.")',
    `password: ${"Zq8mN3vL".repeat(40)}`,
    // YAML binary.
    "password: !!binary |\n  UTJ4bGNuUXRjMlZqY21WMExUa3pOelE9",
  ],
  falsePositives: [
    // Masked.
    "password=********",
    // Code reading a password.
    'password = getpass.getpass("Password: ")',
    // A hash column.
    "password_hash: pbkdf2_sha256",
    // Prose.
    "send the password= parameter over TLS only",
    // A template.
    "password: ${DB_PASSWORD}",
    // Messages and labels with spaces.
    'errors: { password: "must be at least 12 characters" }',
    '"password": "Enter your password"',
  ],
};

/** A superset of `\s`: ASCII blanks and controls, and everything past ASCII. */
function mayBeSpace(c: number): boolean {
  return c <= 32 || c >= 127;
}

/** Exactly what `\s` matches. */
function isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether `-u` or `--user` at `at` is followed by what a `user:password` value needs. */
function userPassAt(text: string, at: number, flag: string): boolean {
  if (at > 0 && !mayBeSpace(text.charCodeAt(at - 1))) return false;
  let i = at + flag.length;
  while (text[i] === " " || text[i] === "\t" || text[i] === "=") i++;
  const quote = text[i] === "'" || text[i] === '"' ? text[i++] : undefined;
  const start = i;
  while (
    i - start < 100 && i < text.length && !isSpace(text.charCodeAt(i)) && !`:'"$`.includes(text[i]!)
  ) i++;
  if (quote !== undefined && text[i] === quote && text[i + 1] === ":") i++;
  return i > start && text[i] === ":";
}

/**
 * Whether a flag could carry a password: `-p` after a blank with a value
 * attached, `sshpass`, `--pass…`, or `-u`/`--user` followed by `user:`.
 * `mkdir -p`, `git push -u origin` and `cp -u` are in most shell commands.
 */
function mayPassFlag(text: string): boolean {
  if (text.includes("sshpass") || text.includes("--pass") || text.includes("--db-password")) {
    return true;
  }
  if (text.includes("redis-cli") || SPACED_PASSWORD_COMMANDS.test(text)) return true;
  for (let at = text.indexOf("-p"); at >= 0; at = text.indexOf("-p", at + 1)) {
    if (at === 0 || at + 2 >= text.length || !mayBeSpace(text.charCodeAt(at - 1))) continue;
    const next = text.charCodeAt(at + 2);
    if (next !== 45 && !isSpace(next)) return true;
  }
  for (const flag of ["-u", "--user"]) {
    for (let at = text.indexOf(flag); at >= 0; at = text.indexOf(flag, at + 1)) {
      if (userPassAt(text, at, flag)) return true;
    }
  }
  return false;
}

/** A flag's value, quoted or bare (`bare` names its own groups), 4,096 characters at most. */
function flagValue(bare: string): string {
  return `(?:'(?<quoted>(?<secret>[^'\\n]{1,4096}))'|"(?<quoted>(?<secret>[^"\\n]{1,4096}))"|${bare})`;
}

/** Commands whose `-p VALUE` (with a blank) is a password; `redis-cli` takes it as `-a`. */
const SPACED_PASSWORD_COMMANDS = /\b(?:twine|docker|podman|helm|nerdctl|oras|skopeo|buildah)\b/;

/** Rejects `-p VALUE` / `-a VALUE` outside the commands that take a password so. */
function spacedFlagCommand(c: Candidate): string | undefined {
  const flag = c.groups["spaced"];
  if (flag === undefined) return undefined;
  const before = lineBefore(c.text, c.matchStart, 300);
  const command = flag === "-a" ? /\bredis-cli\b/ : SPACED_PASSWORD_COMMANDS;
  return command.test(before) ? undefined : `${flag} with a blank outside a password command`;
}

/** `-pSECRET` attached to a flag (mysql and friends). */
export const passwordFlagAttached: Rule = {
  id: "password_flag",
  description: "Password in a command-line flag (-pSECRET, sshpass -p, --password, -u user:pass)",
  placeholder: "<PASSWORD>",
  keywords: [" -p", "--pass", "-u ", "--user ", "--user=", "redis-cli"],
  precheck: (facts) => mayPassFlag(facts.text),
  pattern: () =>
    new RegExp(
      `(?<=\\s)-p${flagValue("(?<secret>[^\\s'\"-][^\\s'\"]{0,4095})")}` +
        `|(?<=\\s)(?<spaced>-p|-a)[ \\t]+${flagValue("(?<secret>[^\\s'\"-][^\\s'\"]{0,4095})")}` +
        `|\\bsshpass[ \\t]+-p[ \\t]*${flagValue("(?<sshpass>(?<secret>[^\\s'\"]{1,4096}))")}` +
        `|(?<![\\w-])--(?:password|passwd|pass|db-password)(?:=|[ \\t]+)${
          flagValue("(?<secret>[^\\s'\"]{1,4096})")
        }` +
        `|(?<!\\S)(?:-u|--user)(?:[ \\t]+|=)(?:"[^"\\s:$]{1,100}"|'[^'\\s:$]{1,100}'|['"]?[^\\s:'"$]{1,100}):` +
        `(?<userpass>${flagValue("(?<secret>[^\\s'\"]{1,4096})")})`,
      "dg",
    ),
  secretGroup: "secret",
  priority: 455,
  validators: [
    notPlaceholder,
    spacedFlagCommand,
    function flagValueShape(c) {
      if (c.groups["userpass"] !== undefined) {
        return /^\d+$/.test(c.secret) || c.secret.length < 4 ? "uid:gid or too short" : undefined;
      }
      if (c.groups["quoted"] !== undefined || c.groups["sshpass"] !== undefined) {
        return c.secret.length < 4 ? `length ${c.secret.length} < 4` : undefined;
      }
      if (c.match.startsWith("--")) {
        return c.secret.length < 4 ? `length ${c.secret.length} < 4` : undefined;
      }
      if (!/[A-Za-z]/.test(c.secret) || !/[\dA-Z]/.test(c.secret)) {
        return "needs a letter and a digit or capital";
      }
      return passwordShapeProblem(c.secret);
    },
  ],
  allowlist: [],
  truePositives: [
    "mysql -h db -u admin -pK9#vLq2mWx app",
    "sshpass -p 'hX4!rTz9' ssh ops@10.0.0.7",
    "pg_dump --password=Zq8mN3vL app > dump.sql",
    "curl -u deploy:Rt7Kw9Pn4Yb https://ci.example.org/api",
    // Quoted user and password apart.
    `curl --user "deploy":"Rt7Kw9Pn4Yb" https://ci.example.org/api`,
    "curl -u ops:'Rt7 Kw9!Pn4Yb' https://ci.example.org/api",
    // Commands that take a password after a blank.
    "twine upload -u __token__ -p Hs5Jd1Fg0Au4Ei6Oc9Qw2Zx7 dist/*",
    "docker login -u ci -p 'Hs5Jd1Fg0Au4' registry.acme.io",
    "redis-cli -h cache.internal -a 'fR35_J^UY0fJmvzW' INFO keyspace",
    "mysqldump --password 'a very long pass phrase with spaces 123' shop",
  ],
  falsePositives: [
    // Port mapping.
    "docker run -p 8080:80 nginx",
    // Compiler flags and find options.
    "gcc -pthread main.c && find . -print",
    // A long option that merely starts with -p.
    "tool -protocol=https --verbose",
    // Docker user uid:gid.
    "docker run -u 1000:1000 alpine",
    // Variables.
    'curl -u "$USER:$TOKEN" https://api.example.org',
    // A blank -p outside the commands that take a password so.
    "mkdir -p build/out && ssh -p 2222 host",
  ],
};

/** `host:port:db:user:password` lines of `.pgpass`. */
export const passwordPgpass: Rule = {
  id: "password_pgpass",
  description: "Password field of a .pgpass line",
  placeholder: "<PASSWORD>",
  keywords: [":"],
  precheck: (facts) => /:(?:\d{1,5}|\*):[\w.*-]+:[\w.*@-]+:/.test(facts.text),
  pattern: () =>
    /(?<=(?:^|\n)[\w.*-]{1,253}):(?:\d{1,5}|\*):[\w.*-]{1,253}:[\w.*@-]{1,253}:(?<secret>[^\s:]{3,200})(?=\s|$)/dg,
  secretGroup: "secret",
  priority: 450,
  validators: [
    notPlaceholder,
    function notDigitsOnly(c) {
      return /^\d+$/.test(c.secret) ? "digits only" : undefined;
    },
  ],
  allowlist: [],
  truePositives: ["db.internal:5432:orders:orders_rw:Vb6Nm8Qw0Er2"],
  falsePositives: [
    // A time with seconds and frames.
    "10:20:30:40:50",
  ],
};

/** Prose: `mật khẩu là …`, `mk: …`, `the password is …`. */
export const passwordProse: Rule = {
  id: "password_prose",
  description: "Password given in prose (Vietnamese or English)",
  placeholder: "<PASSWORD>",
  keywords: ["mật khẩu", "mat khau", "mk", "pass"],
  // `mkdir`, `bypass` and `passes` hold the keywords too; the pattern wants them as words.
  precheck: (facts) =>
    facts.lower.includes("password") || facts.lower.includes("passphrase") ||
    facts.lower.includes("mật khẩu") || facts.lower.includes("mat khau") ||
    facts.mayHaveWord("mk") || facts.mayHaveWord("pass"),
  pattern: () =>
    new RegExp(
      "(?:(?:mật khẩu|mat khau|(?<![A-Za-z])mk(?![A-Za-z]))(?:[ \\t]+[^\\s:=]{1,20}){0,4}?[ \\t]*(?:là(?![A-Za-z])|la(?![A-Za-z])|:|=)" +
        "|(?<![A-Za-z])pass(?:word)?(?![A-Za-z])(?:[ \\t]+[^\\s:=]{1,20}){0,4}?[ \\t]+(?:là|la)(?![A-Za-z])" +
        "|(?:password|passphrase)(?:[ \\t]+[^\\s:=]{1,20}){0,3}?[ \\t]+(?:is|was|will be)[ \\t]*:?)" +
        "[ \\t]*[\"'`“]?(?<secret>[^\\s\"'`”]{3,99}[^\\s\"'`”.,;:!?)])",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 440,
  validators: [
    function typedPassword(c) {
      return /[()[\]{}]/.test(c.secret) ? "code expression" : passwordShapeProblem(c.secret);
    },
  ],
  allowlist: [],
  truePositives: [
    "mật khẩu wifi văn phòng là Hn@2024xyz nhé",
    "the admin password is Kq7!vR2m, change it after login",
    "pass wifi là Tr4ngAn#88",
  ],
  falsePositives: [
    // Prose about passwords.
    "the password is too short and must have 12 characters",
    "mật khẩu là bắt buộc",
    // Code: the value is a call.
    'password = getpass.getpass("Password: ")',
  ],
};

/** The password family. */
export const password: Rule[] = [
  passwordAssignment,
  passwordFlagAttached,
  passwordPgpass,
  passwordProse,
];
