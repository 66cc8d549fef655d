/**
 * Passwords where no anchor exists: assignments (`password=…`, YAML, JSON
 * bodies, also JSON-escaped), command-line flags (`mysql -p…`,
 * `sshpass -p`, `--password`, `curl -u user:pass`), `.pgpass` lines, and
 * prose (`mật khẩu là …`, `the password is …`). Masked values, templates,
 * defaults and code (`getpass(…)`, `user.password`) stay.
 *
 * @module
 */

import { boundaryFirst } from "../_boundary_first.ts";
import type { Candidate, Rule } from "../_engine.ts";
import { perText } from "../_memo.ts";
import { textPasswordNameProblem, textSecretNameProblem } from "../secret_keys.ts";
import {
  charClasses,
  commandBefore,
  hasDigitAndLetter,
  headAndName,
  inWordList,
  isNameChar,
  lineBefore,
  minEntropy,
  notKeptElsewhere,
  notPlaceholder,
  notSealedCiphertext,
  passwordShapeProblem,
  placeholderProblem,
  remembered,
} from "../_validators.ts";

// Patterns live inside the functions that use them: a regular expression is
// created when its function first runs, not when the hook loads every rule.

function nameSaysPassword(c: Candidate): string | undefined {
  // `password_assignment` starts at the word and looks back for the name's head.
  const name = headAndName(c);
  // `random_password.redis: Creation complete …`: a Terraform resource's address in a log.
  if (/^random_password\./.test(name)) return "a Terraform resource's address";
  const problem = passwordNameProblem(name);
  // WebLogic's WLST takes the password in clear as `set('PasswordEncrypted', 'welcome1')` and
  // encrypts it itself: a name that says encrypted holds ciphertext only if the value reads so.
  if (
    problem !== undefined && /encrypted$/i.test(name) &&
    passwordNameProblem(name.replace(/[_.-]?encrypted$/i, "")) === undefined &&
    !readsAsCiphertext(c.secret)
  ) {
    return undefined;
  }
  return problem;
}

/**
 * Whether a value reads as ciphertext or a hash: a scheme mark (`{AES}`,
 * `ENC(…)`, `$2b$…`, `AES:`), or a long run of hex or base64 alone.
 */
function readsAsCiphertext(value: string): boolean {
  return /^(?:\{[\w-]+\}|ENC\(|\$\w{1,12}\$|[A-Z0-9]{2,12}:)/i.test(value) ||
    /^(?:[a-f0-9]{16,}|[A-Za-z0-9+/]{22,}={0,2})$/i.test(value);
}

const passwordNameProblem = remembered(textPasswordNameProblem);

/** Words one of which every password name these rules read holds (`pasw`, `pswd`: misspelt; sssd's `authtok`). */
const PASSWORD_NAME_WORDS: readonly string[] = ["pass", "pw", "pasw", "pswd", "pasword", "authtok"];

/** {@linkcode PASSWORD_NAME_WORDS} as a pattern's alternatives. */
const PASSWORD_NAME_WORD = PASSWORD_NAME_WORDS.join("|");

/** Quoted values need no shape beyond "not a placeholder, no spaces"; bare words must look typed. */
function valueLooksSet(c: Candidate): string | undefined {
  // Tomcat's `digest.sh` writes `salt$iterations$hash` in place of the password.
  if (/^[0-9a-f]{8,128}\$\d{1,7}\$[0-9a-f]{32,256}$/i.test(c.secret)) return "a stored digest";
  const quoted = c.groups["quoted"] !== undefined;
  // `setenv("DB_PASSWORD", "…")`: a name and a value as two arguments, or two words of a list.
  if (c.groups["pair"] !== undefined) {
    // `route("/users/password", methods=[…])`: a path's last part, then a keyword argument.
    if (/[=:]$/.test(c.secret)) return "a keyword argument's or a key's name";
    return passwordShapeProblem(c.secret);
  }
  if (quoted) {
    if (c.secret.length < 4) return `length ${c.secret.length} < 4`;
    // psql's `PASSWORD :'new_password'`: a variable, quoted as it is put in.
    if (c.text.startsWith(" :'", c.start - 3) && /^[A-Za-z_]\w*$/.test(c.secret)) {
      return "a psql variable";
    }
    // Laravel's `'password' => 'required|string|min:12'`: validation rules.
    if (/^(?:required|nullable|sometimes|bail|confirmed|string)(?:\||$)/.test(c.secret)) {
      return "validation rules";
    }
    // A translations file: `"password": "Passwort"`.
    if (opensWithPasswordWord(c.secret)) return "the word password in another language";
    if (/\s/.test(c.secret)) return passphraseProblem(c.secret);
    if (charClasses(c.secret) < 2 && c.secret.length < 10) return "one short character class";
    return placeholderProblem(c.secret);
  }
  if (c.text[c.end] === "(" || c.text[c.end] === "[") return "code expression";
  // hashcat's status: `Passwords.: 14344385`, a wordlist's count.
  if (/^\d+$/.test(c.secret) && /passwords\W*$/i.test(c.groups["name"] ?? "")) {
    return "a count of passwords";
  }
  // A lookup table or file reference: Postfix's `hash:/etc/postfix/sasl_passwd`, `file:/run/…`.
  if (/^[a-z]{2,10}:\//.test(c.secret)) return "a table or file reference";
  // Google's app password, its blanks left out: 16 lowercase letters.
  if (/^[a-z]{16}$/.test(c.secret)) return undefined;
  // `sed "s/^DB_PASSWORD=.*/DB_PASSWORD=${DB_PASSWORD}/"`: a pattern, and an expansion cut at `{`.
  if (c.secret.startsWith(".*") || (c.secret.endsWith("$") && c.text[c.end] === "{")) {
    return "a pattern or an expansion";
  }
  // `!vault |`, `!Ref DbPassword`: a YAML tag, the value follows it.
  if (/^!{1,2}[A-Za-z]+$/.test(c.secret) && /[ \t]/.test(c.text[c.end] ?? "")) return "YAML tag";
  // PowerShell's `$pass = Read-Host -AsSecureString`: a command, Verb-Noun.
  if (/^(?:Read|Get|ConvertTo|ConvertFrom|New|Import|Invoke)-[A-Z][A-Za-z]{2,40}$/.test(c.secret)) {
    return "a PowerShell command";
  }
  // A struct's field and its type: `pub password: SecretString,`, `password: SecureString;`.
  if (
    /^(?:[A-Z][a-z]+){2,4}$/.test(c.secret) && /^[ \t]*[,;>)]/.test(c.text.slice(c.end, c.end + 8))
  ) {
    return "a type name";
  }
  return passwordShapeProblem(c.secret);
}

/** Words of messages and labels, which a passphrase of random words hardly holds. */
const MESSAGE_WORDS =
  "the and for you your must not too are was has have with this that least characters password " +
  "enter invalid incorrect required match does should please new old confirm field from wrong " +
  "is be at of to in on or a an it " +
  // Vietnamese: messages about the password say "mật khẩu" and their own words.
  "mật khẩu không phải có ít nhất ký tự vui lòng nhập xác nhận khớp sai đúng mới cũ và của";

/** Small words of {@linkcode MESSAGE_WORDS} a passphrase with a digit may hold. */
const PASSPHRASE_SMALL_WORDS = "the a an of and to in on at or";

/** {@linkcode opensWithPasswordWord}'s pattern, made at its first use (the hook loads every rule). */
let passwordWordOpening: RegExp | undefined;

/**
 * Whether `value` is "password" in another language (the words of
 * {@linkcode PASSWORD_WORDS_ABROAD}, and Vietnamese's), alone or opening a
 * message: a translation (`"password": "Passwort"`, `"Passwort vergessen?"`).
 */
function opensWithPasswordWord(value: string): boolean {
  passwordWordOpening ??= new RegExp(
    `^(?:${PASSWORD_WORDS_ABROAD}|mật khẩu)(?:$|[\\s.,:;!?])`,
    "iu",
  );
  return passwordWordOpening.test(value.trim());
}

/**
 * Why a quoted value with spaces is not a passphrase, or `undefined` when it
 * is: 3 to 10 words of letters and digits (or two that read as random:
 * digits, and both cases or a symbol), none a word of messages
 * (`"must be at least 12 characters"`, `"Enter your password"`).
 */
const passphraseProblem = remembered(passphraseProblemOf);

function passphraseProblemOf(value: string): string | undefined {
  // `DB_PASSWORD=（請向 DBA 索取）`: a remark in parentheses, "ask the DBA".
  if (/^[（(][^]*[)）]$/.test(value.trim())) return "a remark in parentheses";
  const words = value.trim().split(/\s+/);
  // Two words only when they read as random (`px OsY.5x.RcAWwxrd`), not as a label.
  const randomPair = words.length === 2 && value.length >= 10 &&
    charClasses(words.join("")) >= 3 && /\d/.test(value);
  if ((words.length < 3 && !randomPair) || words.length > 10) {
    return `${words.length} words, not a passphrase`;
  }
  // A passphrase of words may hold an article or a preposition (`my dog ate the warehouse 2023`)
  // when it holds a digit too; a message holds more of its words (`Enter the password`).
  const withDigit = /\d/.test(value);
  for (const word of words) {
    const bare = word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
    if (withDigit && inWordList(PASSPHRASE_SMALL_WORDS, bare)) continue;
    if (bare.length === 0 || inWordList(MESSAGE_WORDS, bare)) return `message word "${word}"`;
    if (opensWithPasswordWord(bare)) return `a message that says "${word}"`;
  }
  return placeholderProblem(value);
}

function isLowerLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/**
 * Whether the name `text.slice(start, end)` may pass `nameSaysPassword`:
 * it holds `pwd`, `passw`, `passphrase`, sssd's `authtok` or LDAP's
 * `bindpass` in any case, or a `pass` followed by no lowercase letter and
 * preceded by none, unless spelt `Pass`.
 * `bypass`, `compass` and `passes` do not.
 */
function nameMaySayPassword(text: string, lower: string, start: number, end: number): boolean {
  const name = lower.slice(start, end);
  if (
    name.includes("pw") || name.includes("passw") || name.includes("passphrase") ||
    name.includes("pasw") || name.includes("pswd") || name.includes("pasword") ||
    name.includes("passo") || name.includes("authtok") || name.includes("bindpass")
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
 * An operator (`:`, `=`, `,`, `->`) after a name holding `pass`, `pw`,
 * `pasw`, `pswd` or `pasword` and quotes, blanks or `]`. Starts at the
 * operator and looks back a bounded way (as far as the patterns reach: 30
 * name characters after the word, 40 blanks before the operator): text full
 * of such words but no operator (`pw` repeated) is read at the engine's
 * speed.
 */
let passwordNameOperator: RegExp | undefined;

/**
 * Whether some name holding `pass` or `pwd` may say password and is
 * followed, past quotes, blanks and `]`, by `:`, `=` or `,`: what the pattern and
 * `nameSaysPassword` both need. Names like `bypass` and words like
 * `passes` are everywhere in code and prose; `password: string` still
 * counts. Bounded, so linear.
 */
function mayAssignPassword(text: string, lower: string): boolean {
  if (lower.length !== text.length) return true; // Offsets would differ: cannot tell.
  // Made at first use: a text without such a name never asks, and the hook's start is spared it.
  const operator = passwordNameOperator ??= new RegExp(
    String
      .raw`(?::|=|,|->)(?<=(?:${PASSWORD_NAME_WORD})[a-z0-9_.-]{0,70}[\\"' \t\]]{0,48}(?::|=|,|->))`,
    "g",
  );
  operator.lastIndex = 0;
  for (let m = operator.exec(lower); m !== null; m = operator.exec(lower)) {
    let end = m.index;
    while (end > 0 && `\\"' \t]`.includes(lower[end - 1]!)) end--;
    let start = end;
    while (start > 0 && end - start < 140 && isNameChar(lower.charCodeAt(start - 1))) start--;
    if (nameMaySayPassword(text, lower, start, end)) return true;
  }
  return false;
}

/**
 * A value: quoted (double, single, JSON-escaped, TOML `"""`, Objective-C's
 * `@"…"`, T-SQL's `N'…'`), or bare up to a blank or a delimiter; a YAML
 * `!!binary` tag and a block scalar's `|` or `>` line before it are skipped.
 * 4,096 characters at most, so no real value leaves a tail and no attempt
 * scans far.
 */
/** An unquoted value's run: none of the blanks, quotes, separators and brackets that end it. */
const BARE_VALUE_RUN = "[^\\s\"'\\\\,;&<>(){}\\[\\]`]{1,4096}";

const VALUE = "(?:!!(?:binary|str)[ \\t]*)?(?:[|>][-+]?[1-9]?[ \\t]*\\n[ \\t]{0,40})?" +
  '(?:"""\\n?(?<quoted>(?<secret>[^"\\\\]{1,4096}?))\\n?"""|\\[?""(?<quoted>(?<secret>[^"\\\\\\s,;=]{1,4096}))""|' +
  "@?\"(?<quoted>(?<secret>[^\"\\\\\\n]{1,4096}))\"|N?'(?<quoted>(?<secret>[^'\\\\\\n]{1,4096}))'" +
  '|\\\\{1,3}"(?<quoted>(?<secret>[^"\\\\\\n]{1,4096}))\\\\{1,3}"' +
  // Gitea's `app.ini` quotes a value that holds symbols in backticks.
  "|`(?<quoted>(?<secret>[^`\\\\\\n]{1,4096}))`" +
  // An `&` that starts no query parameter is the password's own (`DB_PASSWORD=RWdOmFns&Cf8XDu`).
  `|(?<secret>${BARE_VALUE_RUN}(?:&(?![\\w.-]{1,40}=)${BARE_VALUE_RUN}){0,8})` +
  // ODBC's braces quote a value that holds `;`: `PWD={1Pqdd7pR;zL1MJuE}`.
  "|\\{(?<secret>[^{}\\s][^{}\\n]{0,200})\\}(?=[;\"'\\s]|$)" +
  // A log's bracketed value, alone to the line's end: `Password: [N2YA…]`.
  "|\\[(?<secret>[^\\]\\s\"',[]{4,200})\\](?=[ \\t]*(?:\\r?\\n|$)))";

/** `password = …`, `DB_PASS: …`, `"password": "…"`. */
export const passwordAssignment: Rule = {
  id: "password_assignment",
  description: "Password assigned to a name that says password (code, config, JSON, query string)",
  placeholder: "<PASSWORD>",
  keywords: PASSWORD_NAME_WORDS,
  precheck: (facts) => mayAssignPassword(facts.text, facts.lower),
  pattern: () =>
    new RegExp(
      // Starts at the word (a literal) and looks back for the rest of the name: a
      // leading class made V8 try every offset (the prefix mix: 9 → 2 ms/MiB).
      "(?<=(?<![\\w.-])(?<head>[\\w.-]{0,40}?))(?<name>(?:" + PASSWORD_NAME_WORD +
        ")[\\w.-]{0,30})" +
        // `:=` and `=>` before `:` and `=`: a match never backtracks into a longer operator. LDIF
        // writes a value in base64 after `::`.
        // `db_password: str = "…"`: a type between the name and `=`.
        // A CSV cell doubles the quotes of the JSON inside it: `""password"":[""…""]`.
        '(?:(?:\\\\{0,3}["\']|"")?\\]?[ \\t]{0,40}(?::=|::|=>|->|:[ \\t]{0,4}&?[A-Za-z_][\\w.\\[\\]|]{0,30}[ \\t]+=[ \\t]|[:=])|["\'][ \\t]{0,4}(?<pair>,)' +
        // An Erlang or Elixir tuple: `{password, "…"}`, `{:password, "…"}`.
        "|(?<=\\{[ \\t]{0,4}:?[\\w.-]{1,80})[ \\t]{0,4}(?<pair>,))[ \\t]{0,24}" +
        VALUE,
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    function notVariableReference(c) {
      const nameStart = c.matchStart - (c.groups["head"] ?? "").length;
      // `${DB_PASSWORD:?missing}`, `${DB_PASSWORD:-}`: the variable's default or its error.
      if (c.text.startsWith("${", nameStart - 2)) return "a shell expansion's default";
      if (c.text[nameStart - 1] !== "$") return undefined;
      // `-v "$PWD":/workspace`: the shell's working directory read, then a colon; `$pass = …`
      // assigns (PHP, Perl, PowerShell).
      const operator = c.text.slice(c.matchStart + (c.groups["name"] ?? "").length, c.start);
      return operator.includes("=") ? undefined : "a variable read before a colon";
    },
    nameSaysPassword,
    valueLooksSet,
    notSealedCiphertext,
    notKeptElsewhere,
  ],
  allowlist: [],
  truePositives: [
    // WLST encrypts what it is given in clear.
    "set('PasswordEncrypted', 'Kestrel=Vane42')",
    // ODBC's braces around a value that holds `;`.
    '"UID=kho_sync;PWD={7Tqdd3pR;zL1MJuE};Encrypt=yes"',
    "mail: mai@corp.lan\nuserPassword:: U3BhcnJvd0AyMDA4\n",
    // An `&` of the password's own, not a query string's.
    "spring.datasource.password=RWdOmFns&Cf8XDu",
    // T-SQL's Unicode literal.
    "EXEC sp_addlinkedsrvlogin @rmtsrvname = N'ORA_PROD', @rmtuser = N'report', @rmtpassword = N'Wl6!Kq3-Tz9m';",
    // Erlang's sys.config.
    '{epgsql, [{host, "10.0.0.7"}, {username, "app"}, {password, "Tide!owl4471"}]}',
    "    Environment:\n      DB_PASSWORD:     Hq7-Lm2!Vx9rT",
    "[12:04:33] [+++] [0] Username: [minh@corp.vn]\n[12:04:33] [+++] [0] Password: [N2YAyijMbaj]\n",
    // Aligned by blanks before the operator.
    'db_password                           = "Kq8-Vx2-Lm7"',
    'db_password"                           : "Kq8-Vx2-Lm7"',
    // Scala's and Perl's pairs.
    '  "sfPassword"  -> "1lTUOiu^eCfO",',
    // An app password.
    "  smtp_auth_password: qmvtruxohzwdkpla",
    "DBPASS=y8rbVmzSChTUetlJLxTc19e9uFBB",
    '    db_password: str = "sQllP85MN@c0OCs2"  # FIXME',
    "DB_PASSWORD=Tr4v3l!ing-Kite",
    '{"username": "ops", "password": "Qz7#mL2p"}',
    "smtp:\n  pass: 'nW8$kd3LqZ'",
    "jdbc:mysql://db/app?user=app&password=H7k.29xLpQ&ssl=true",
    'const dbPass = "Qz7#mL2p";',
    // A passphrase of random words.
    'db:\n  pass: "correct horse battery staple"',
    // Misspelt names.
    "passwrd: Hq7-xLm2Rv9",
    "[mailer]\nUSER = ops@git.lan\nPASSWD = `Wq8^~.Lm2~Rk7^%Vx`",
    // An index and a name-value pair of arguments.
    "$config['password'] = 'Vb8n^Lk2Qw';",
    'os.environ.setdefault("DB_PASSWORD", "Vb8n^Lk2Qw")',
    "DB_PASWORD=Hq7-xLm2Rv9",
    // JSON inside a JSON string inside JSON.
    '{"command":"echo \\"{\\\\\\"password\\\\\\":\\\\\\"Xy7-Lm2-Qz9\\\\\\"}\\""}',
    // A value ending in a dot, and one longer than 200 characters.
    'psycopg2.connect(user="etl", password="Vb8n^Lk2Qw.")',
    `password: ${"Zq8mN3vL".repeat(40)}`,
    // YAML binary.
    "password: !!binary |\n  UTJ4bGNuUXRjMlZqY21WMExUa3pOelE9",
  ],
  falsePositives: [
    // A value that reads as ciphertext under a name that says encrypted.
    "set('PasswordEncrypted', '{AES256}q8Zr1Lw0c2VjcmV0LWJsb2Itb25lLXR3bw==')",
    "passwordEncrypted: 8f14e45fceea167a5a36dedd4bea2543",
    '<user username="deploy" password="a7c0a694fb2549f1d0a3b8e34108f7fc$1000$853d500478c1f9a62ddf5b455fcc73ce8186c616db7cbac99684e3d694810ed4" roles="manager-script"/>',
    "KAFKA_SASL_PASSWORD=<from 1Password: kafka-orders>",
    // The name of the header that carries a token.
    'const HeaderAuthToken = "X-Auth-Token"',
    // IIS keeps it encrypted by a provider; notarytool reads it from the keychain.
    '<processModel userName="svc_web" password="[enc:IISCngProvider:q3VnX0tR8mYbLz5wPe2HcJ9sAf7Dk1Gu4Ni6Ox0Bt8Ea3Wl=:enc]" />',
    "NOTARY_PASSWORD=@keychain:AC_PASSWORD",
    // bundletool's and apksigner's references to where the password is kept.
    "bundletool build-apks --bundle=app.aab --ks=upload.jks --key-pass=env:UPLOAD_KEY_PASSWORD --ks-pass=file:/run/ks_pass",
    // Active Directory's time of the last change, in an LDIF export.
    "sAMAccountName: quang.le\npwdLastSet: 133541766521184402",
    'PS C:\\ops> $pass = Read-Host -AsSecureString "Mật khẩu svc_backup"',
    // A field's type.
    "pub struct DatabaseSettings {\n    pub username: String,\n    pub password: SecretString,\n}",
    // The variable that holds it (Buildkite's docker-login plugin).
    "      - docker-login#v3.0.0:\n          username: ci\n          password-env: DOCKER_LOGIN_PASSWORD",
    // A lookup table.
    "smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd",
    // When it changed.
    '  admin.passwordMtime: "2025-03-11T02:00:00Z"',
    // A sed expression that writes a variable in.
    'sed -i "s/^DB_PASSWORD=.*/DB_PASSWORD=${DB_PASSWORD}/" .env',
    // The working directory, mounted.
    'docker run --rm -v "$PWD":/workspace -v $PWD:/src node:20 npm test',
    // The variable that will hold it (Jenkins).
    "withCredentials([usernamePassword(credentialsId: 'nexus', passwordVariable: 'NEXUS_PW')])",
    "DB_PASSWORD=${DB_PASSWORD:?missing} && echo ${SMTP_PASS:-Kq7Lm2Vx9}",
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
    // An Ansible vault and a CloudFormation reference.
    "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6231336539666234",
    "MasterUserPassword: !Ref DbPassword",
    '"password": "Enter your password"',
    // Words of a list.
    'fields = ["password", "passwordConfirm"]',
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
  // A quote escaped in a JSON string: `-u \"user:…`.
  for (let escapes = 0; escapes < 3 && text[i] === "\\"; escapes++) i++;
  const quote = text[i] === "'" || text[i] === '"' ? text[i++] : undefined;
  const start = i;
  while (
    i - start < 100 && i < text.length && !isSpace(text.charCodeAt(i)) &&
    !`:'"$\\`.includes(text[i]!)
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
  if (text.includes("sshpass") || text.includes("-pass") || text.includes("_pass")) return true;
  if (text.includes("-Pass") || text.includes("-PASS")) return true;
  if (text.includes("--auth-cred") || /freerdp/i.test(text)) return true;
  if (text.includes("redis-cli") || text.includes("mosquitto_")) return true;
  if (SPACED_PASSWORD_COMMANDS.test(text)) return true;
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
const SPACED_PASSWORD_COMMANDS =
  /\b(?:twine|docker|podman|helm|nerdctl|oras|skopeo|buildah|mongo(?:sh|dump|restore|export|import|stat|top)?|oc|az|cqlsh|racadm|security|evil-winrm|crackmapexec|cme|nxc|netexec|hydra|smbmap|pcs|[Pp]s[Ee]xec(?:64)?|cypher-shell|rabbitmqadmin)\b/;

/**
 * The commands whose other flags take a password after a blank: macOS's
 * `security import … -P` (the .p12's), `set-key-partition-list … -k`
 * (the keychain's) and the Mosquitto clients' `-P` (the broker's).
 */
const SPACED_FLAG_COMMANDS: Readonly<Record<string, RegExp>> = {
  "-a": /\bredis-cli\b/,
  "-P": /\bsecurity[ \t]+import\b|\bmosquitto_(?:pub|sub|rr)\b/,
  "-k": /\bsecurity[ \t]+set-key-partition-list\b/,
};

/** Rejects `-p VALUE`, `-a VALUE`, … outside the commands that take a password so. */
function spacedFlagCommand(c: Candidate): string | undefined {
  // `/p:` is FreeRDP's; elsewhere (`net use … /p:yes`) it means persistent.
  if (c.groups["windows"] !== undefined) {
    return /\b(?:[xw]freerdp3?|sdl-freerdp3?|freerdp)\b/.test(
        commandBefore(c.text, c.matchStart, 300),
      )
      ? undefined
      : "/p: outside FreeRDP";
  }
  const flag = c.groups["spaced"];
  if (flag === undefined) return undefined;
  const before = commandBefore(c.text, c.matchStart, 300);
  const command = SPACED_FLAG_COMMANDS[flag] ?? SPACED_PASSWORD_COMMANDS;
  return command.test(before) ? undefined : `${flag} with a blank outside a password command`;
}

/**
 * Words that make a `--…-pass` flag a switch: it asks for the password, or
 * names where it is kept (Ansible's `--ask-become-pass`, `--no-password`).
 */
const PASSWORD_SWITCH_WORDS =
  "ask|no|prompt|skip|use|require|empty|allow|check|save|remember|show|hide|read|print|echo|verify|change|reset|forgot";

/** `-pSECRET` attached to a flag (mysql and friends). */
export const passwordFlagAttached: Rule = {
  id: "password_flag",
  description: "Password in a command-line flag (-pSECRET, sshpass -p, --password, -u user:pass)",
  placeholder: "<PASSWORD>",
  keywords: [
    " -p",
    "-pass",
    "_pass",
    "-u ",
    "--user ",
    "--user=",
    "redis-cli",
    "--auth-cred",
    " /p",
  ],
  precheck: (facts) => mayPassFlag(facts.text),
  pattern: () =>
    new RegExp(
      // Windows tools' single dash, before `-pSECRET` takes its letters: `dsadd user … -pwd
      // VALUE`, PuTTY's `plink -pw VALUE`.
      // PowerShell's parameters in any case: `Connect-VIServer … -Password VALUE`.
      `(?<![\\w-])-(?:[Pp]assword|PASSWORD|passwd|pwd|pw)(?:=|[ \\t]+)${
        flagValue("(?<secret>[^\\s'\"(][^\\s'\"]{0,4095})")
      }` +
        `|(?<=\\s)-p${flagValue("(?<secret>[^\\s'\"-][^\\s'\"]{0,4095})")}` +
        `|(?<=\\s)(?<spaced>-p|-a|-P|-k)[ \\t]+${
          flagValue("(?<secret>[^\\s'\"-][^\\s'\"]{0,4095})")
        }` +
        `|\\bsshpass[ \\t]+-p[ \\t]*${flagValue("(?<sshpass>(?<secret>[^\\s'\"]{1,4096}))")}` +
        `|(?<![\\w-])--(?:password|passwd|pass|db-password)(?:=|[ \\t]+)${
          flagValue("(?<secret>[^\\s'\"]{1,4096})")
        }` +
        // A service's password flag (`--redis-pass`, `--smtp_password`), not a switch that asks
        // for one (`--ask-become-pass`, `--no-password`).
        `|(?<![\\w-])--(?!(?:${PASSWORD_SWITCH_WORDS})[-_])(?<service>(?:[a-z0-9]{1,20}[-_]){1,3})` +
        `(?:password|passwd|pass|pwd)(?:=|[ \\t]+)(?:pass:)?${
          flagValue("(?<secret>[^\\s'\"-][^\\s'\"]{0,4095})")
        }` +
        // The quotes may be escaped: the command inside a JSON string. sqlmap's `--auth-cred`.
        `|(?<!\\S)(?:-u|--user|--auth-cred)(?:[ \\t]+|=)(?:"[^"\\s:$]{1,100}"|'[^'\\s:$]{1,100}'|\\\\{0,3}['"]?[^\\s:'"$\\\\]{1,100}):` +
        `(?<userpass>${flagValue("(?<secret>[^\\s'\"\\\\]{1,4096})")})` +
        // FreeRDP's Windows-style flag: `xfreerdp /v:host /u:user /p:PASSWORD`.
        `|(?<=\\s)(?<windows>/p(?:assword)?:)${flagValue("(?<secret>[^\\s'\"]{1,4096})")}`,
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
      if (c.groups["service"] !== undefined) {
        return notKeptElsewhere(c) ?? passwordShapeProblem(c.secret);
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
    "cypher-shell -a neo4j+s://graph.internal:7687 -u neo4j -p 'Wv8-Lq3m_Zx7' \"RETURN 1\"",
    // PowerShell's parameter, capitalised.
    "Connect-VIServer vc02.corp.local -User svc_backup -Password 25xXNGh*2X5j -Force",
    // Sysinternals' PsExec: `-p` after a blank.
    "PsExec.exe \\\\srv01 -u CORP\\admin -p Vq4!Lm8-Tz2w -i cmd.exe",
    '{"command": "curl -X POST -u \\"svc-release:1f2105ccd5be83293f7a2c05add368923c\\" https://ci.lan/job"}',
    "mysql -h db -u admin -pK9#vLq2mWx app",
    "sshpass -p 'hX4!rTz9' ssh ops@10.0.0.7",
    "node dist/index.js --redis-host 127.0.0.1 --redis-pass Rh7fT87VVONwXIdToETC",
    // Pentest tools: FreeRDP's /p:, evil-winrm's -p, sqlmap's --auth-cred.
    "xfreerdp /v:10.10.14.22 /u:svc_deploy /d:CORP /p:XooR7B5eU36cbv /cert:ignore",
    "evil-winrm -i 10.10.14.22 -u svc_deploy -p 'XooR7B5eU36cbv'",
    'sqlmap -u "https://staging.shop.id/api?ref=1" --auth-type=Basic --auth-cred="qa_tester:nOzrX6t05L5y" --batch',
    // macOS keychains on a CI runner.
    'security create-keychain -p "lGpZApdMt8eHT1NKir5_" build.keychain',
    'security import dist.p12 -k "$KEYCHAIN" -P "harbor@maple62W" -T /usr/bin/codesign',
    "./migrate --smtp_password=Qw8!zLm2Vx9k --dry-run",
    "apksigner sign --ks release.jks --ks-pass pass:Hq7mV2xLp9Rt app.apk",
    "pg_dump --password=Zq8mN3vL app > dump.sql",
    "curl -u deploy:Rt7Kw9Pn4Yb https://ci.example.org/api",
    // Quoted user and password apart.
    `curl --user "deploy":"Rt7Kw9Pn4Yb" https://ci.example.org/api`,
    "curl -u ops:'Rt7 Kw9!Pn4Yb' https://ci.example.org/api",
    // Commands that take a password after a blank.
    "twine upload -u __token__ -p Hs5Jd1Fg0Au4Ei6Oc9Qw2Zx7 dist/*",
    "docker login -u ci -p 'Hs5Jd1Fg0Au4' registry.acme.io",
    "redis-cli -h cache.internal -a 'fR35_J^UY0fJmvzW' INFO keyspace",
    "mosquitto_pub -h broker.lan -p 1883 -u gw-03 -P 'Tz8kQm..4Lw' -t farm/gw03 -m on",
    "pcs cluster auth node1 node2 -u hacluster -p Hc8!Kq3-Lm4v",
    "mysqldump --password 'a very long pass phrase with spaces 123' shop",
    'dsadd user "CN=Svc Backup,OU=Service,DC=corp,DC=lan" -samid svc_backup -pwd Bk7#Lq2-Wm8v',
    "plink -ssh ops@10.0.0.7 -pw Hx4!rTz9q uptime",
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
    "scp -P 2222 a.txt host: && security find-identity -p codesigning -v && ssh-keygen -k -f krl",
    "net use Z: \\\\fs01\\share /p:yes && robocopy C:\\a Z:\\a /p:1",
    // Switches that ask for a password, and a password flag's file.
    "ansible-playbook --ask-become-pass site.yml && psql --no-password -h db",
    "dsadd user CN=x -pwd * -mustchpwd yes && plink -pw $PW host",
    "docker login --password-stdin ghcr.io && app --db-pass $DB_PASS --smtp-pass config.yaml",
    "apksigner sign --ks my.jks --ks-pass env:KEYSTORE_PASS --key-pass file:/run/secrets/kp app.apk",
  ],
};

/**
 * `curl -u TOKEN:` and `curl -u :TOKEN`: an API key given as the whole of
 * Basic auth, the other side left empty (Stripe, Mailgun and many APIs ask
 * for it so).
 */
export const passwordFlagToken: Rule = {
  id: "password_flag_token",
  description:
    "API key as the user or the password of -u/--user with the other side empty or X (curl -u KEY:, -u KEY:X)",
  placeholder: "<SECRET>",
  keywords: ["-u ", "-u=", "--user"],
  pattern: () =>
    new RegExp(
      "(?<!\\S)(?:-u|--user)(?:[ \\t]+|=)[\"']?" +
        // Freshdesk's `-u KEY:X`: any one letter stands for the password it ignores.
        "(?::(?<secret>[A-Za-z0-9_\\-.+/=~]{12,4096})|(?<secret>[A-Za-z0-9_\\-.+/=~]{12,4096}):[Xx]?)" +
        "[\"']?(?=\\s|$)",
      "dg",
    ),
  secretGroup: "secret",
  priority: 455,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  allowlist: [],
  truePositives: [
    "curl -u 'Qx8Wm3Lr7Tz2Kv6Pn4Bc9Hd:' https://api.example.org/v1/charges",
    "curl --user :Qx8Wm3Lr7Tz2Kv6Pn4Bc9Hd https://api.example.org/v1",
    "curl -s -u Tq7WvLz2Rk9Hn4Bx8Mc3:X https://acme.freshdesk.com/api/v2/tickets",
  ],
  falsePositives: [
    // A user name with an empty password, and a variable.
    "curl -u deploy-bot-production: https://ci.example.org",
    'curl -u "$API_KEY:" https://api.example.org',
  ],
};

/**
 * `helm --set auth.adminPassword=…`: the value runs to the next blank or
 * comma, `&` and `@` included (where `password_assignment` stops at `&`, a
 * query string's separator).
 */
export const passwordHelmSet: Rule = {
  id: "password_helm_set",
  description: "Password in a helm --set / --set-string value (--set auth.password=…)",
  placeholder: "<PASSWORD>",
  keywords: ["--set"],
  startsAtKeyword: true,
  pattern: () =>
    /--set(?:-string)?[ \t]+['"]?(?:[\w.[\]-]{1,200}=[^\s,'"]{0,4096},)*(?<name>[\w.[\]-]{0,100}?(?:pass|pw|pswd)[\w.[\]-]{0,60})=(?<secret>[^\s,'"\\]{1,4096})/dgi,
  secretGroup: "secret",
  priority: 460,
  validators: [nameSaysPassword, notPlaceholder, (c) => passwordShapeProblem(c.secret)],
  allowlist: [],
  truePositives: [
    "helm upgrade --install kc bitnami/keycloak --set auth.adminUser=admin --set auth.adminPassword=Qk7&Vx2@Lm9 --version 21",
  ],
  falsePositives: [
    'helm install db bitnami/postgresql --set auth.existingSecret=db-creds --set auth.password="${PG_PASSWORD}"',
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
    // A line may start after `\n` written out or a quote: the file inside a JSON string; or after
    // the Read tool's line number (`     2→`).
    /(?<=(?:^|\n|\\n|["']|→)[\w.*-]{1,253}):(?:\d{1,5}|\*):[\w.*-]{1,253}:[\w.*@-]{1,253}:(?<secret>[^\s:"'\\]{3,200})(?=\s|\\n|["']|$)/dg,
  secretGroup: "secret",
  priority: 450,
  validators: [
    notPlaceholder,
    function notDigitsOnly(c) {
      return /^\d+$/.test(c.secret) ? "digits only" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "db.internal:5432:orders:orders_rw:Vb6Nm8Qw0Er2",
    // The file in a Write tool's JSON arguments.
    '{"content": "db.internal:5432:orders:orders_rw:Vb6Nm8Qw0Er2\\n*:5432:*:replicator:Hq3-Lm8-Zr5\\n"}',
    "echo '10.0.0.5:5432:*:postgres:Kw7=*Lq2Vx' > ~/.pgpass",
  ],
  falsePositives: [
    // A time with seconds and frames.
    "10:20:30:40:50",
  ],
};

/**
 * The word for password in languages developers write prompts in, beside
 * Vietnamese and English: French, German, Spanish, Portuguese, Dutch,
 * Italian, Polish, Czech, Finnish, Swedish, Hungarian, Russian, Japanese,
 * Chinese, Korean, Turkish. Lowercase or capitalised, without the `i` flag:
 * with it, or with the words' accented letters leading, V8 took four times
 * as long over the prefix mix.
 */
const PASSWORD_WORDS_ABROAD =
  "[Mm]ot de passe|[Mm]dp(?![A-Za-z])|[Pp]asswort|[Kk]ennwort|[Cc]ontrase(?:ñ|n)a|[Ss]enha|[Ww]achtwoord|" +
  // German writes the noun capitalised (`Die Passphrase für den Schlüssel ist …`), French not.
  "[Pp]assphrase|[Pp]arola(?![A-Za-z])|[Kk]ata [Ss]andi(?:nya)?|รหัสผ่าน|[Hh]as(?:ł|l)o|[Hh]eslo(?![A-Za-z])|[Ss]alasana|[Ll](?:ö|o)senord|[Jj]elsz(?:ó|o)|" +
  "[Пп]ароль|パスワード|密码|密碼|비밀번호|비번|[Şş]ifre";

/** What says "is" between the word and the value, in the same languages. */
const PROSE_COPULA_ABROAD =
  "est(?![A-Za-z])|c['’]est|ist(?![A-Za-z])|lautet|es(?![A-Za-z])|é|è|jest|je(?![A-Za-z])|on(?![A-Za-z])|är|это|" +
  // Dutch says "is" as English does: `het wachtwoord is …`.
  "is(?![A-Za-z])|" +
  "adalah|ialah|คือ|は|が|是|为|為|는|은|:|：|=";

/**
 * "Now" after "is": `is now X`, `c'est maintenant X`, `ist jetzt X`; and
 * the like: `is temporarily X`, `is tijdelijk X`, `is still X`.
 */
const PROSE_NOW =
  "(?:[ \\t]+(?:now|actually|maintenant|jetzt|ahora|agora|adesso|nu|teraz|still|currently|temporarily|" +
  "temporairement|vorübergehend|temporalmente|temporaneamente|tymczasowo|tijdelijk))?";

/**
 * Why a value given in prose is not a typed password: code, a word of the
 * sentence in any script (`affiché`), or, right after the bare word with no
 * verb, not eight characters of three kinds.
 */
function typedInProse(c: Candidate): string | undefined {
  if (/[()[\]{}]/.test(c.secret)) return "code expression";
  if (/^\p{L}+$/u.test(c.secret)) return "a word";
  // `password reset link sent to ana@…`: an address, which the e-mail rule names as one.
  if (/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/.test(c.secret)) return "an e-mail address";
  // `"{{ required \"db.password is required\" … }}"`: a word before an escaped quote.
  if (c.secret.endsWith("\\")) return "a word before an escaped quote";
  // `private: true\n` in a JSON string: a setting's word, its line break escaped.
  if (/^(?:true|false|yes|no|null|none|on|off)(?:\\[nrt])*$/i.test(c.secret)) {
    return "a setting's word";
  }
  // `RENAME COLUMN password TO password_hash;\nINSERT …` in a JSON string: it ran past a line.
  if (/\\[nr]/.test(c.secret)) return "runs past an escaped line break";
  // `move DB password to vault-agent template`: two lowercase words joined, a name.
  if (/^[a-z]{2,}[-_][a-z]{2,}$/.test(c.secret)) return "two lowercase words joined";
  if (c.groups["bare"] !== undefined) return barePasswordProblem(c.secret);
  return /\s/.test(c.secret) ? passphraseProblem(c.secret) : passwordShapeProblem(c.secret);
}

/** Prose: `mật khẩu là …`, `mk: …`, `the password is …`, `Passwort: …`, `password Xk9…`. */
export const passwordProse: Rule = {
  id: "password_prose",
  description: "Password given in prose (Vietnamese or English)",
  placeholder: "<PASSWORD>",
  keywords: [
    "mật khẩu",
    "mat khau",
    "mk",
    "pass",
    "pw",
    "wpa",
    "psk",
    "bí mật",
    "kata sandi",
    "new one",
    "şifresi",
  ],
  // `mkdir`, `bypass` and `passes` hold the keywords too; the pattern wants them as words.
  precheck: (facts) =>
    facts.lower.includes("password") || facts.lower.includes("passphrase") ||
    facts.lower.includes("mật khẩu") || facts.lower.includes("mat khau") ||
    facts.lower.includes("bí mật") || facts.lower.includes("kata sandi") ||
    facts.lower.includes("şifresi") ||
    (facts.lower.includes("cred") && facts.lower.includes("new one")) ||
    facts.mayHaveWord("mk") || facts.mayHaveWord("pass") || facts.mayHaveWord("pw") ||
    (/cred|login|tài khoản|(?<![a-z])tk(?![a-z])/.test(facts.lower) &&
      facts.lower.includes(" / ")) ||
    facts.mayHaveWord("pwd") || facts.lower.includes("wpa") || facts.lower.includes("psk"),
  pattern: () =>
    new RegExp(
      // The words between stay in the name's sentence: `mật khẩu Sai-Gon@2024!. Wifi: …` is
      // no name of the Wi-Fi's.
      // `chuỗi bí mật để ký HMAC là …`, `khóa bí mật là …`: a secret string or key.
      "(?:(?:mật khẩu|mat khau|(?<![A-Za-z])mk(?![A-Za-z])|(?:chuỗi|khóa|khoá|mã) bí mật)[`'\"]?(?:[ \\t]+[^\\s:=]{1,20}(?![^\\s:=])(?<![.,!?])){0,12}?[ \\t]*(?:là(?![A-Za-z])|la(?![A-Za-z])|thành(?![A-Za-z])|:|=)" +
        // `mật khẩu Ha@Noi2025`: no verb, the next word holds a digit.
        // Or one word between: `mật khẩu tạm X` (temporary), `mật khẩu mới X`.
        "|(?:mật khẩu|mat khau)(?:[ \\t]+[a-zà-ỹđ]{2,8}(?![^\\s]))?[ \\t]+(?=[^\\s\\d]{0,98}\\d)" +
        // The words stay in one clause: `ko co pass nha ban, ten wifi la "…"` names the Wi-Fi.
        "|(?<![A-Za-z])pass(?:word)?(?![A-Za-z])[`'\"]?(?:[ \\t]+[^\\s:=]{1,20}(?![^\\s:=])(?<![.,!?])){0,4}?[ \\t]+(?:là|la|thành)(?![A-Za-z])" +
        // `password mới nhé: X`: words, then a colon.
        // A word holds no quote: `"password reset queued","trace_id":` is two JSON strings.
        '|(?<![\\w.-])pass(?:word)?(?![A-Za-z])(?:[ \\t]+[^\\s:=/{}@"]{1,20}(?![^\\s:=])){1,4}?[ \\t]*:(?!//)' +
        // `set the password to `…``: what the assistant says it set, quoted (before the verbs:
        // a verb further on would take the match first).
        `|(?<![\\w.\`-])(?:password|passphrase)[ \\t]+to[ \\t]+(?=[\`'"])${PROSE_NOW}` +
        // `password reset to X`, `the password was changed to X`, `pwd reset 2024-03 to X` (before
        // `was X`, which would take the verb for the value).
        `|(?<![\\w.-])(?:password|passphrase|pwd|pw)(?:[ \\t]+(?:was|has been|had been|is|got))?[ \\t]+(?:reset|changed|set|updated|rotated)(?:[ \\t]+[^\\s:=@]{1,20}(?![^\\s:=@])){0,3}?[ \\t]+(?:to(?![A-Za-z])|→|->)${PROSE_NOW}` +
        `|(?:password|passphrase)[\`'"]?(?:[ \\t]+[^\\s:=]{1,20}(?![^\\s:=])){0,6}?[ \\t]+(?:is|was|will be|là|è|é)(?:[ \\t]*:)?${PROSE_NOW}` +
        // `db creds rotated, new one is …`: a rotation, then the new value.
        "|(?<![A-Za-z])(?:creds?|credentials|password|passphrase|pwd|pw)(?![A-Za-z])(?:[ \\t]+[^\\s:=]{1,20}(?![^\\s:=])){0,3}?[ \\t]+(?:the[ \\t]+)?new[ \\t]+one(?:'s|’s|[ \\t]+is)" +
        // Chat's short word, right before the verb: `pw is …`, `pwd's …`.
        `|(?<![A-Za-z])(?:pw|pwd)(?:[ \\t]+(?:is|was)|'s|’s)${PROSE_NOW}` +
        "|(?<![A-Za-z])(?:pass(?:word)?|pw|pwd)(?![A-Za-z])[ \\t]{0,4}:?[ \\t]{0,4}(?=`)" +
        // `the password you pasted earlier (\`…\`)`: the value as code in parentheses after words.
        "|(?<![\\w.-])(?:password|passphrase)(?:[ \\t]+[^\\s:=()]{1,20}(?![^\\s:=])){1,6}?[ \\t]+\\((?=`)" +
        // `the password's X`, `changed the password to X`, `use password 'X'`.
        "|(?<![A-Za-z])(?:password|passphrase|pw)(?:'s|’s|`?[ \\t]+to|(?=[ \\t]+[\"'“]))[ \\t]*:?" +
        // A Wi-Fi key: `the WPA2 key: Xk9…`, `PSK: …`.
        "|(?<![A-Za-z])(?:wpa[23]?(?:[ \\t-]?psk)?|psk)(?:[ \\t-]?(?:key|passphrase))?[ \\t]*:" +
        // `sudo with password Xk9…`, `user root, pass Xk9…`: no verb, the next word holds a digit.
        // Vietnamese puts a word between: `mk cu …` (old), `mk portal …`.
        "|(?<![A-Za-z_.-])(?<bare>password|pass|pwd|pw|mk(?:[ \\t]+[a-z]{2,8}(?![^\\s]))?|kata sandi(?:nya)?(?:[ \\t]+[\\w-]{2,20}nya)?|şifresi)(?![A-Za-z])[ \\t]+(?=[^\\s]{0,98}\\d))" +
        "[ \\t]*(?:\"(?<secret>[^\"\\n]{4,99})\"|'(?<secret>[^'\\n]{4,99})'|“(?<secret>[^”\\n]{4,99})”" +
        "|[`]?(?<secret>[^\\s\"'`”]{3,99}[^\\s\"'`”.,;:!?)]))",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 440,
  validators: [
    typedInProse,
  ],
  allowlist: [],
  truePositives: [
    // The assistant saying what it set.
    "I created the admin user and set the password to `Wq4*nZV.e*Kt7` as you asked.",
    "I connected as `etl_ops` using the password you pasted earlier (`Rt4_Kw9#mQ2vLz`) and ran the backfill.",
    // A secret string named in Vietnamese.
    "Chuỗi bí mật để ký HMAC SHA512 là Q7WXG2BWIW81DTRP6FTKZL4M9NC3VB8R nhé",
    "Mình đã set storePassword là PixelDragon_589 và keyPassword cũng y vậy",
    "ok giờ thử lại với password mới nhé: Z@d-Gdy8z7St5\nnhớ update vào vault",
    "VPN dùng tài khoản ops.hcm, mật khẩu Sai-Gon@2024x. Wifi văn phòng: AnPhat-Office",
    "the SSID is KST-Build and the WPA2 key: Bq7YADY9Fx6CTZ",
    "mật khẩu wifi văn phòng là Hn@2024xyz nhé",
    "em đã đổi mật khẩu root của db-01 thành Hn@2024xyz rồi",
    "the admin password is Kq7!vR2m, change it after login",
    "pass wifi là Tr4ngAn#88",
    "em đổi pass VPN thành Qe7-LmZ2#wd9 thì bị khóa tài khoản",
    "tài khoản admin, mật khẩu Ha@Noi2025, email sau",
    "email công ty của bạn intern mới: intern@corp.lan, mật khẩu tạm Banhxeo$4471QT, đăng nhập sẽ bắt đổi",
    // A backticked value after the word.
    "creds for staging: user `qa`, pass `Dv7-Kq2-Lm8`",
    "user is deploy and the password's Qk4-Lm8-Zr2",
    "I changed the admin password to Fd7#Cr4-Lq yesterday",
    "use password 'Meadow Lark 88 Sunset' for the vault",
    // Several words between the name and the verb.
    "mật khẩu tài khoản quản trị trên máy chủ thử nghiệm là Qn7Lp2Wx9Kd nhé",
    "the ssh password for the nightly backup box is Vb4Xn8Qr2Lm.",
    // The name in backticks, and "is now".
    "Mình đã đổi `REDIS_PASSWORD` giờ là `Lk8Vq2Wn5Rx9Tz3` nhé",
    "`DB_PASSWORD` is now `Hm4Rt8Wq2Lx6`",
    // No verb: the next word is the value.
    "ssh in as ops and sudo with password Vt8Kq3Lm2Wx9, then restart nginx",
    "vps mới 10.0.0.7, user root, pass Gk7Wq.2r~Lm. Em cài docker nhé",
    "I've set `MYSQL_ROOT_PASSWORD` to `Lq7-Wr2dx93` in docker-compose.yml",
    // "is" and a word like "now" before the value.
    "the password for the shared mailbox is temporarily Rv8!Lk2-Qm, change it after login",
    "sorry, typo: the password is actually `qHRm4t7wcvZ8P`",
    "ssh in as deploy; pw is k!r7T5WqBuLzN if the key doesn't work",
    "oskar: db creds rotated, new one is 7Kq2v.RzWmLx9T",
    "staging bastion pw rotated → Q#Lm!Vx-8wRtZk | freeze starts fri",
    "e doi mk admin roi nha, mk cu Hoian#5821Qz bo di, mk moi la Hoian#5821Qz-2",
    "mssv 20512075, mk portal Comtam_683kx, ma hp INT3306",
    "Kata sandi database-nya vbzKjhgY7#cHwCa2, user-nya sipeda_app.",
    "Veritabanı şifresi HRhVK*Y*MVc__r&z5jc, kullanıcı adı app_user.",
    // Reset or changed to the value.
    "after the lockout the password was reset to Wr7!Lm2-Kq9 by the helpdesk",
  ],
  falsePositives: [
    "store the password pbkdf2sha256 style, never in clear",
    "48eb96f refactor: move DB password to vault-agent template",
    '{"content": "ALTER TABLE users RENAME COLUMN password TO password_hash;\\nINSERT INTO notes VALUES (1);"}',
    "location /api/ {\n  auth_request /auth;\n  proxy_pass http://auth-svc.internal/verify;\n  proxy_pass_header X-Req-2024;\n}",
    'password: "{{ required \\"db.password is required\\" .Values.db.password }}"',
    // Prose about passwords.
    "the password is too short and must have 12 characters",
    "mật khẩu là bắt buộc",
    "mật khẩu của tài khoản quản trị trên máy chủ này là bắt buộc phải đổi",
    "the password for the new accounts on the staging cluster is generated by vault",
    "đổi mật khẩu sau 90 ngày",
    "I need the password to log in, and the password 'must be rotated' says the policy",
    // Code: the value is a call.
    'password = getpass.getpass("Password: ")',
    // A word after `password` that is not a typed value.
    "pass 2 arguments, then the password v1.2.3 check and pass 10 times",
    'wifi quan ko co pass nha ban, ten wifi la "Highland_Coffee_5G"',
    "creds rotated last night, the new one is in vault",
    "the password 12345678 is the default on the router",
    "the password is still required, and the password is currently being rotated",
    "password reset to default, and the password was changed to meet the policy",
  ],
};

/** Prose in other languages: `le mot de passe est …`, `Passwort: …`, `パスワードは …`. */
export const passwordProseAbroad: Rule = {
  id: "password_prose_abroad",
  description: "Password given in prose in 16 other languages (French, German, Dutch, Japanese…)",
  placeholder: "<PASSWORD>",
  keywords: [
    "mot de passe",
    "mdp",
    "passwort",
    "passphrase",
    "kennwort",
    "contrase",
    "senha",
    "wachtwoord",
    "parola",
    "hasło",
    "haslo",
    "heslo",
    "salasana",
    "lösenord",
    "losenord",
    "jelsz",
    "пароль",
    "パスワード",
    "密码",
    "密碼",
    "비밀번호",
    "비번",
    "şifre",
    "kata sandi",
    "รหัสผ่าน",
  ],
  pattern: () =>
    new RegExp(
      // The words once, then the value as code right after them (`mot de passe \`Xk9…\` (oui je
      // sais…)`: no later verb takes another word for it), a verb and the value, or the value alone.
      `(?:${PASSWORD_WORDS_ABROAD})(?:[ \\t]{0,4}:?[ \\t]{0,4}\`(?<secret>[^\`\\n]{4,99})\`` +
        // Chinese and Japanese words run on without blanks: `密码重置了，新的是 X`.
        // And past a full stop to "the new one" (`パスワード変更しました。新しいのは X`).
        // Thai runs on too: `รหัสผ่านเข้าระบบหลังบ้านคือ X` ("the back office's password is X").
        `|[\`'"]?(?:(?:[\\u3040-\\u30ff\\u4e00-\\u9fff，、]{1,16}?|[\\u0e00-\\u0e7f]{1,40}?)(?:。[ \\t]*新しい(?:の|もの|パスワード)?)?)?(?:[ \\t]+[^\\s:=]{1,20}(?![^\\s:=])){0,12}?[ \\t]*(?:${PROSE_COPULA_ABROAD})${PROSE_NOW}` +
        // A Korean adverb after the topic: `비밀번호는 분명히 X 이 맞는데요` ("surely X").
        "(?:[ \\t]+[\\uac00-\\ud7a3]{1,4}(?=[ \\t]+[^\\s\\uac00-\\ud7a3]))?" +
        "[ \\t]*(?:\"(?<secret>[^\"\\n]{4,99})\"|'(?<secret>[^'\\n]{4,99})'|“(?<secret>[^”\\n]{4,99})”|«[ \\t]?(?<secret>[^»\\n]{4,99}?)[ \\t]?»" +
        // Full-width punctuation ends a value as the ASCII kind does (`密码是 X，帮我…`).
        "|[`]?(?<secret>[^\\s\"'`”，。；：！？、）]{3,99}[^\\s\"'`”.,;:!?)，。；：！？、）]))" +
        // `비밀번호 Xk9…`, `contraseña Xk9…`: no verb, the next word is the value.
        "|(?<bare>[ \\t]+)(?=[^\\s]{0,98}\\d)(?<secret>[^\\s\"'`”，。；：！？、）]{7,98}[^\\s\"'`”.,;:!?)，。；：！？、）]))",
      "dg",
    ),
  secretGroup: "secret",
  priority: 440,
  validators: [
    typedInProse,
  ],
  allowlist: [],
  truePositives: [
    "acessei o roteador com a senha 48213907b e mudei o DNS",
    "Die Passphrase für den Schlüssel ist Schwarzwald-Kuckucksuhr-1848!",
    "Pour la clé du bastion, la passphrase c'est « lierre-cobalt-automne-loutre63 ».",
    "测试服务器 192.168.10.25 的 root 密码是 ~cS6CQ!poUGq，帮我写一个 ansible inventory",
    "邮件推送的 SMTP 密码重置了，新的是 Vk7#q2!Lm9wRtZ，帮我改一下配置",
    "오늘 당직인데 읽기 전용 계정 비번이 바뀌었대요. 새 비번: Tq8$Lm.:Zx^4Wr",
    "스테이징 DB 접속 정보: 사용자 app_stg, 비밀번호 Uk8MtXEN5JUQAU. 이걸로 쿼리 작성해 줘",
    "Los datos son: usuario metabase_ro, contraseña W2xuRKVGl6VqA!~. ¿Cómo lo configuro?",
    "Le mot de passe de la base a changé, c'est maintenant Rq7Lm_2xV~b. Merci",
    "Mon login est `tgirard`, mot de passe `Qv7*harbor2291` (oui je sais, je le changerai).",
    "Das Passwort für den SFTP-Zugang ist jetzt Kz4.Wm8Rt%, bitte prüfen",
    "El usuario es admin y la contraseña es Pq8#Lw3Vz",
    "A senha do banco é Hv5-Qm2-Lt8, troque depois",
    "データベースのパスワードは Jt6Rm9Wq2Lx です",
    "Пароль от сервера: Wz3-Kp9-Lm4",
    "creé el usuario `pagos_app` con la contraseña `Lq7*Wn2vXr9z` — guárdala en Secret Manager",
    "Het wachtwoord voor het gedeelde account is tijdelijk Kv7!Wr2-Lq9, graag wijzigen",
    "本番DBのパスワード変更しました。新しいのは Wq8!Lz2-Rk7 です。",
    "서버 비밀번호는 분명히 Busan!kkot42 이 맞는데 로그인이 안 돼요",
  ],
  falsePositives: [
    // A bare word then a name dense in digits, not a generated code.
    "mudei o hash da senha pbkdf2sha256 para argon2id",
    "Le mot de passe est obligatoire",
    "Das Passwort ist zu kurz und muss 12 Zeichen haben",
    "Rappel : le mot de passe Wi-Fi invités est affiché à l'accueil",
    "Het wachtwoord is verplicht en het wachtwoord is nog niet ingesteld",
  ],
};

/**
 * A user and a password either side of a spaced slash, after a word that
 * says login (`use dba_ro / 7!wwEO…`, `creds: admin / Xk9…`), or after an
 * admin account alone (`admin / Xk9…`). Starts at the slash and looks back,
 * so text dense with the words costs nothing.
 */
export const passwordSlashPair: Rule = {
  id: "password_slash_pair",
  description:
    "Password after a user and a spaced slash, after a word that says login (use dba_ro / …)",
  placeholder: "<PASSWORD>",
  keywords: [" / "],
  pattern: () =>
    new RegExp(
      // The word in other languages too: `Accesso webGUI: admin / …`, `Zugang`, `acceso`, `identifiants`.
      // A label of both, `tk/mk:` (Vietnamese), `user/pass:`, holds a slash of its own.
      "/(?<=(?:(?<![A-Za-z])(?i:(?:tk|user(?:name)?|login)[ \\t]?\\/[ \\t]?(?:mk|pass(?:word)?)|creds?|credentials|logins?|account|user(?:name)?|use|admin(?:istrator)?|dùng|tài khoản|tk|accesso|acceso|acesso|accès|zugang|anmeldung|identifiants|credenziali|credenciales)" +
        "(?:[ \\t:]+[^\\s/]{1,30}){0,8}[ \\t:]+[^\\s/]{1,64}" +
        // Or the account itself, with no word before it: `admin / …`, `` `Administrator` / `…` ``.
        "|(?<![\\w.@-])[`\"']?(?i:admin(?:istrator)?|root)[`\"']?)[ \\t]/)[ \\t]+[`\"']?(?<secret>[^\\s/\"'`]{7,63}[^\\s/\"'`.,;:!?)])",
      "dg",
    ),
  secretGroup: "secret",
  priority: 440,
  validators: [
    function typedAfterSlash(c) {
      // Branch and path names hold digits and dashes: both cases and a digit, as a typed password.
      if (!/[a-z]/.test(c.secret) || !/[A-Z]/.test(c.secret) || !/\d/.test(c.secret)) {
        return "not both cases and a digit";
      }
      return barePasswordProblem(c.secret);
    },
  ],
  allowlist: [],
  truePositives: [
    "Tài khoản admin để test trên staging: khoa.dev@gmail.com / msBy9@DWA4Lr (Clerk, MFA đã tắt)",
    "Accesso webGUI: admin / Vq7mTz2!Lx9R",
    "tk/mk: qa_tester / Lanh.73920WqXe",
    // Each in backticks.
    "Credentials: `qa.bot@bamboo-ship.com` / `iwZ8ayJ0uB0X`. It has the role",
    "09:19 Matteo: replica creds are in vault, use dba_ro / 7!wwEO4iYJe6JLlq for now",
    "creds: admin / Hq8#Vk2Lq7zz",
    "can you check why the login fails? creds are admin / fKtj_Hq8xi87 on staging",
    // An admin account named, and no login word: the account says it.
    "jenkins.int.example.org, `Administrator` / `Wq9#Lantern4`",
  ],
  falsePositives: [
    "use main / release-2024.06 branches",
    "login with your account / SSO; user admin / password reset",
    "Go to Admin / Users / Roles and add the Editor role",
    "root / Documents / Q3Report2024 is where the export lands",
  ],
};

/**
 * A secret written as the fallback of an environment lookup:
 * `System.getenv('KEYSTORE_PASSWORD') ?: '…'`, `process.env.API_KEY || "…"`,
 * `os.environ.get("DB_PASSWORD", "…")`, `ENV.fetch("SECRET", "…")`: the
 * value the code runs with when the variable is unset.
 */
export const envFallbackSecret: Rule = {
  id: "env_fallback_secret",
  description:
    "Secret written as an environment lookup's fallback (getenv(…) ?: '…', process.env.X || '…', environ.get(X, '…'))",
  placeholder: "<SECRET>",
  keywords: ["env"],
  pattern: () =>
    new RegExp(
      // Starts at the operator and looks back for the lookup on its line.
      "(?:\\?:|\\?\\?|\\|\\|)(?<=(?:getenv|environ|env|ENV)\\b[^\\n]{0,120}(?:\\?:|\\?\\?|\\|\\|))" +
        "[ \\t]*\\\\{0,3}(?<q>[\"'`])(?<secret>[^\"'`\\\\\\n]{6,200})\\\\{0,3}\\k<q>" +
        "|(?:environ\\.get|getenv|ENV\\.fetch|env)\\([ \\t]*\\\\{0,3}[\"'](?<name>[\\w.-]{1,80})\\\\{0,3}[\"'][ \\t]*,[ \\t]*" +
        "\\\\{0,3}(?<q>[\"'])(?<secret>[^\"'\\\\\\n]{6,200})\\\\{0,3}\\k<q>" +
        // Ruby's block form, `ENV.fetch("DB_PASSWORD") { "…" }` (in an ERB tag too).
        "|ENV\\.fetch\\([ \\t]*\\\\{0,3}[\"'](?<name>[\\w.-]{1,80})\\\\{0,3}[\"'][ \\t]*\\)[ \\t]*\\{[ \\t]*" +
        "\\\\{0,3}(?<q>[\"'])(?<secret>[^\"'\\\\\\n]{6,200})\\\\{0,3}\\k<q>[ \\t]*\\}",
      "dg",
    ),
  secretGroup: "secret",
  priority: 430,
  validators: [
    function lookupNamesASecret(c) {
      const name = c.groups["name"];
      if (name === undefined) {
        return /pass|pwd|secret|token|key|credential|auth/i.test(
            lineBefore(c.text, c.matchStart, 200),
          )
          ? undefined
          : "the lookup names no secret";
      }
      // The names' own judges: `DB_SECRET_ID` names where a secret is kept, not the secret.
      const secret = textSecretNameProblem(name);
      return secret === undefined || passwordNameProblem(name) === undefined ? undefined : secret;
    },
    notPlaceholder,
    (c) => passwordShapeProblem(c.secret),
  ],
  allowlist: [],
  truePositives: [
    "storePassword System.getenv('KEYSTORE_PASSWORD') ?: 'B4WHEAtxNWB4jptfRq'",
    'const key = process.env.STRIPE_WEBHOOK_SECRET || "Wq8Lm3Vx7Rt2Kz9Pn4";',
    'STRIPE_KEY = os.environ.get("STRIPE_API_KEY", "Hv5Qm2Lt8xWq9Zr3")',
    'password: <%= ENV.fetch("BOOKING_DATABASE_PASSWORD") { "Rq7-LmZ2wXv9-4Tk" } %>',
  ],
  falsePositives: [
    "const port = process.env.PORT || '3000'; const host = process.env.HOST ?? 'localhost'",
    'password = os.environ.get("DB_PASSWORD", "changeme")',
    "region = System.getenv('AWS_REGION') ?: 'eu-west-1'",
    // The secret's name in AWS Secrets Manager, not the secret.
    'secret_id = os.environ.get("DB_SECRET_ID", "prod/orders/db")',
  ],
};

/**
 * Why a value right after the bare word `password`/`pass` (no verb, no
 * mark) is not a typed password: it needs 8 characters and three kinds of
 * character (lowercase, uppercase, digits, symbols), and must not read as a
 * version.
 */
function barePasswordProblem(value: string): string | undefined {
  if (value.length < 8) return `length ${value.length} < 8 after a bare word`;
  if (charClasses(value) < 3 && !digitsWithLetters(value)) {
    return "fewer than three kinds of character after a bare word";
  }
  if (/^v?\d+(?:\.\d+)+/.test(value)) return "a version";
  return passwordShapeProblem(value);
}

/**
 * A generated code of one letter case and digits, digits at least half of
 * it (`a senha 5756091c`): no word, algorithm or encoding name (`utf8mb4`,
 * `pbkdf2sha256`, `sha512sum`) is that dense in digits.
 */
function digitsWithLetters(value: string): boolean {
  if (!/^(?:[a-z0-9]+|[A-Z0-9]+)$/.test(value) || !/[A-Za-z]/.test(value)) return false;
  return value.replace(/\D/g, "").length * 2 >= value.length;
}

/** A line that reads `name = …` or `name: …`: a new key, not the value's next line. */
const KEY_LINE = /^[\w.-]{1,60}[ \t]*[:=]|^[#;\[-]/;

/**
 * The first line of the value decides: a block scalar's `|` or `>`, or a
 * value that reads as a password; then every later line must read as more of
 * the value, not as a new key, a comment, a section or a list item.
 */
function continuesPassword(c: Candidate): string | undefined {
  // `password =` alone on its line: the value starts on the next one.
  const first = c.groups["first"] ?? c.secret.split("\n", 1)[0]!;
  if (!/^[|>][-+]?[1-9]?$/.test(first)) {
    const bare = first.replace(/^(["'])(.*)\1$/, "$2");
    const problem = /\s/.test(bare) ? passphraseProblem(bare) : passwordShapeProblem(bare);
    if (problem !== undefined) return `first line: ${problem}`;
  }
  if (c.secret.trim().length < 4) return `length ${c.secret.trim().length} < 4`;
  for (const line of c.secret.split("\n")) {
    if (KEY_LINE.test(line.trim())) return "a later line is a new key";
  }
  return placeholderProblem(c.secret.trim());
}

/**
 * The value's later lines under a password name: INI continuation lines and
 * YAML block scalars (`password: |`), each indented deeper than the name.
 * The first line is `password_assignment`'s.
 */
export const passwordContinued: Rule = {
  id: "password_continued",
  description: "Later lines of a multi-line password value (INI continuation, YAML block scalar)",
  placeholder: "<PASSWORD>",
  keywords: PASSWORD_NAME_WORDS,
  precheck: (facts) => facts.text.includes("\n ") || facts.text.includes("\n\t"),
  pattern: () =>
    new RegExp(
      "(?:^|\\n)(?<indent>[ \\t]{0,40})(?<name>[\\w.-]{0,40}?(?:" + PASSWORD_NAME_WORD +
        ")[\\w.-]{0,30})" +
        "[ \\t]{0,4}[:=][ \\t]{0,4}(?<first>\\S[^\\n]{0,4095})?\\n\\k<indent>[ \\t]{1,40}" +
        "(?<secret>\\S[^\\n]{0,4095}(?:\\n\\k<indent>[ \\t]{1,40}\\S[^\\n]{0,4095}){0,50})",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [nameSaysPassword, continuesPassword],
  allowlist: [],
  truePositives: [
    "[smtp]\npassword = Hq7-xLm2Rv9\n    Zt4-second-Part",
    "tls:\n  key_password: |\n    Lm4-Vx8-Qz2\n    Rt7-Kw9-Pn4\n  cert: /etc/tls/cert.pem",
    // The name alone on its line, the value on the next.
    "[smtp]\nuser = relay\npassword =\n    Wd8Qp2Lx7Kr4\nstarttls = yes",
  ],
  falsePositives: [
    // Prose on the first line.
    "notes:\n  passwords: rotate quarterly\n    and after each leave",
    // A prompt string, then a comment.
    "[auth]\npassword = ${PASSWORD}\n    ; set in the vault",
    // A heading over nested keys.
    "passwords:\n    admin: ${ADMIN_PASSWORD}\n",
    "password_policy:\n    min_length 12",
  ],
};

/**
 * Whether an unquoted value with spaces reads as a passphrase: words that no
 * message holds, and a digit, capital or symbol unless the text is a config
 * file (an INI section header like `[db]`, or a `.properties` line like
 * `spring.mail.password=`), or the value is an app password (Google's four
 * groups of four letters).
 */
function phraseLooksSet(c: Candidate): string | undefined {
  const problem = passphraseProblem(c.secret);
  if (problem !== undefined) return problem;
  if (/[^a-z\s]/.test(c.secret)) return undefined;
  if (/^[a-z]{4}(?: [a-z]{4}){3}$/.test(c.secret)) return undefined;
  if (/^[ \t]*[\w-]+(?:\.[\w-]+)+=/.test(c.match.replace(/^\n/, ""))) return undefined;
  return hasIniSection(c.text) ? undefined : "lowercase words outside an INI file";
}

/** Whether a line of `text` is an INI section header; asked once per text, however many candidates ask. */
const hasIniSection = perText((text) =>
  /(?:^|\n)[ \t]*\[[\w. -]{1,60}\][ \t]*(?:\r?\n|$)/.test(text)
);

/**
 * An unquoted passphrase that runs to the end of its line under a password
 * name: INI, `.properties` and YAML plain values may hold spaces.
 */
export const passwordPhraseLine: Rule = {
  id: "password_phrase_line",
  description: "Unquoted passphrase with spaces to the end of a config line (INI, YAML)",
  placeholder: "<PASSWORD>",
  keywords: PASSWORD_NAME_WORDS,
  precheck: (facts) => mayAssignPassword(facts.text, facts.lower),
  pattern: () =>
    new RegExp(
      "(?:^|\\n)[ \\t]{0,40}(?<name>[\\w.-]{0,40}?(?:" + PASSWORD_NAME_WORD + ")[\\w.-]{0,30})" +
        // Three to ten words: a passphrase, and what a single word leaves to `password_assignment`.
        // A colon glued to the next word is Ruby's symbol (`has_secure_password :recovery_password`).
        "[ \\t]{0,4}(?::(?=[ \\t])|=)[ \\t]{0,4}(?<secret>[^\\s\"'#;|>!&\\[{][^\\s#;]{0,100}(?:[ \\t]{1,8}[^\\s#;]{1,100}){2,9})" +
        "[ \\t]{0,8}(?=\\r?\\n|$)",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [nameSaysPassword, phraseLooksSet],
  allowlist: [],
  truePositives: [
    "[db]\nhost = pg.lan\npassword = lemon grove tiger sable",
    "smtp:\n  password: Blue Harbor Seven 42",
    // A `.properties` line; an app password.
    "spring.datasource.password=amber quarry lantern fjord",
    "SMTP_PASSWORD: qmvt ruxo hzwd kpla",
  ],
  falsePositives: [
    "passwords: rotate every ninety days",
    "random_password.redis: Creation complete after 0s [id=none]",
    "class User < ApplicationRecord\n  has_secure_password :recovery_password, validations: false\nend",
    "# password: must contain one digit",
    "password: Use your SSO login",
    "password: ask the team lead",
  ],
};

/**
 * A passphrase given in a sentence after a colon, to the end of its line:
 * `uses this passphrase to unlock settings: lichen 533 tangent Kettle`.
 * The one-word value after the same words is `password_prose`'s.
 */
export const passwordProsePhrase: Rule = {
  id: "password_prose_phrase",
  description:
    "Passphrase of words after 'password …:' or 'passphrase …:' in a sentence, to the line's end",
  placeholder: "<PASSWORD>",
  keywords: ["password", "passphrase"],
  pattern: () =>
    new RegExp(
      "\\b(?<![\\w.-])(?:password|passphrase)(?:[ \\t]+[^\\s:=/{}@\"'`]{1,20}(?![^\\s:=])){0,5}?[ \\t]*:[ \\t]*" +
        // Backslashes end it: a JSON string's escaped line break. No colon in it: text of
        // `password: ` repeated tried eight words after each (84 → 144 ms/MiB).
        "(?<secret>[^\\s\\\\\"'`<>{}[\\]$:][^\\s\\\\:]{0,40}(?:[ \\t]+[^\\s\\\\:]{1,40}){2,7})[ \\t]*(?=\\r?\\n|\\\\[nr]|$)",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 430,
  validators: [
    function typedPhrase(c) {
      // `Password policy: min 14 chars`, chage's `Last password change : May 21, 2024`.
      const name = c.match.slice(0, c.match.indexOf(":"));
      const nameProblem = textPasswordNameProblem(name.trim());
      if (nameProblem !== undefined) return nameProblem;
      if (/chang|rule|hint|requir/i.test(name)) return "names something about a password";
      const problem = passphraseProblem(c.secret);
      if (problem !== undefined) return problem;
      // A sentence has words and no digit, a list its commas, or ends as one.
      if (!/\d/.test(c.secret)) return "no digit: a sentence";
      if (c.secret.includes(", ")) return "a list";
      return /[.!?]$/.test(c.secret) ? "ends as a sentence" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "The kiosk app uses this passphrase to unlock settings: otter 41 basin Lantern\nworks only typed exactly",
    '{"prompt": "the wifi password for the lab: copper 77 meadow Falcon\\nthanks"}',
  ],
  falsePositives: [
    "Password: must have 12 characters and one digit",
    "passphrase for the key: see the vault entry 42.",
    "the password policy: rotate every ninety days",
    "- Password policy: min 14 chars, no reuse of last 5",
    "Last password change\t\t: May 21, 2024",
  ],
};

/**
 * A password set by a DSL's call without parentheses, on a line of its own:
 * Gradle's `storePassword '…'`, Fastlane's and other Ruby DSLs'
 * `password "…"`, a config's `password "…";`.
 */
export const passwordDslLine: Rule = {
  id: "password_dsl_line",
  description:
    "Quoted password after its name and a blank, alone on its line (Gradle storePassword '…', Ruby DSLs)",
  placeholder: "<PASSWORD>",
  keywords: PASSWORD_NAME_WORDS,
  pattern: () =>
    new RegExp(
      "(?:^|\\n)[ \\t]{0,40}(?<name>[A-Za-z_][\\w.]{0,40}?(?:" + PASSWORD_NAME_WORD +
        ")[\\w.]{0,30})[ \\t]{1,8}" +
        "(?:\"(?<secret>[^\"\\s\\\\]{4,200})\"|'(?<secret>[^'\\s\\\\]{4,200})')[ \\t]*;?[ \\t]*(?=\\r?\\n|$)",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [nameSaysPassword, notPlaceholder],
  allowlist: [],
  truePositives: [
    "signingConfigs {\n    release {\n        storePassword '8i9FKV#0VDoJ^pnk@P'\n        keyAlias 'upload'\n        keyPassword \"eAl+d.u3w1dg$66Xps\"\n    }\n}",
    'create_keychain(\n  name: "ci"\n)\nkeychain_password "Tq7!mLx2Vr9"',
  ],
  falsePositives: [
    "storePassword System.getenv('KEYSTORE_PASSWORD')\nkeyPassword \"${keyPass}\"",
    "puts password 'is wrong'\nvalidates :password_confirmation",
  ],
};

/**
 * Where each resource of a Terraform state (`"type": "…"`) or a `terraform
 * state show` listing (`resource "…"`) starts, and whether it is a
 * `random_password`.
 */
const terraformResources = perText((text) => {
  const starts: number[] = [];
  const randomPassword: boolean[] = [];
  for (
    const m of text.matchAll(
      /"type"[ \t]{0,4}:[ \t]{0,4}"([\w-]{0,80})"|\bresource[ \t]+"([\w-]{0,80})"/g,
    )
  ) {
    starts.push(m.index);
    randomPassword.push((m[1] ?? m[2]) === "random_password");
  }
  return { starts, randomPassword };
});

/** Whether the resource `at` stands in is a `random_password`, begun at most 4,000 characters before. */
function inRandomPassword(text: string, at: number): boolean {
  const { starts, randomPassword } = terraformResources(text);
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (starts[middle]! < at) low = middle + 1;
    else high = middle;
  }
  return low > 0 && randomPassword[low - 1]! && at - starts[low - 1]! <= 4000;
}

/**
 * The password a Terraform `random_password` generated, as its state keeps
 * it in clear: `"result": "…"` in the state's JSON, `result = "…"` in
 * `terraform state show`.
 */
export const terraformRandomPassword: Rule = {
  id: "terraform_random_password",
  description:
    "The result of a Terraform random_password in its state (JSON or terraform state show)",
  placeholder: "<PASSWORD>",
  keywords: ["random_password"],
  pattern: () =>
    // Strings, not a literal: the linter reads no group name used twice.
    new RegExp(
      '"result"[ \\t]{0,4}:[ \\t]{0,4}"(?<secret>[^"\\\\\\n]{1,4096})"' +
        '|\\bresult[ \\t]{0,4}=[ \\t]{0,4}"(?<secret>[^"\\\\\\n]{1,4096})"',
      "dg",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    function inRandomPasswordResource(c) {
      return inRandomPassword(c.text, c.start) ? undefined : "not a random_password's result";
    },
    // Generated with `special = true`, braces and dollars included: only a whole template or a
    // mask is none.
    function notTemplateOrMask(c) {
      return /^\$\{.*\}$|^\{\{.*\}\}$|^\*+$/.test(c.secret) ? "a template or a mask" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    '{\n  "mode": "managed",\n  "type": "random_password",\n  "name": "db",\n  "instances": [{"attributes": {"length": 24, "result": "9}ChqjiEa3FqMLuKqoNtdE#B", "special": true}}]\n}',
    '# random_password.db:\nresource "random_password" "db" {\n    length = 24\n    result = "Wq8%Lm3!Vx7-Rt2"\n}',
  ],
  falsePositives: [
    '{"type": "random_password", "name": "db"},\n{"type": "aws_lambda_invocation", "instances": [{"attributes": {"result": "{\\"ok\\": true}"}}]}',
    '{"type": "random_string", "instances": [{"attributes": {"result": "k3x9q2"}}]}',
  ],
};

/**
 * A Nagios resource macro (`$USER3$=…` in `resource.cfg`): where Nagios keeps
 * the passwords its commands pass as `$USER3$`. Paths and plain words (a
 * user's name) stay.
 */
export const nagiosResourceMacro: Rule = {
  id: "nagios_resource_macro",
  description: "Password in a Nagios resource macro ($USER3$=… in resource.cfg)",
  placeholder: "<PASSWORD>",
  keywords: ["$user"],
  startsAtKeyword: true,
  pattern: () => /(?<![\w$])\$USER\d{1,3}\$=(?<secret>[^\s/][^\s]{0,4095})/dg,
  secretGroup: "secret",
  priority: 450,
  validators: [notPlaceholder, (c) => passwordShapeProblem(c.secret)],
  allowlist: [],
  truePositives: ["$USER1$=/usr/local/nagios/libexec\n$USER3$=monitor\n$USER4$=c_7CVEia_tP9"],
  falsePositives: [
    "$USER1$=/usr/local/nagios/libexec\n$USER2$=$USER1$/eventhandlers\n$USER3$=nagios",
  ],
};

/** Whether the text shows cracked hashes (`hashcat … --show`, `john --show`); asked once per text. */
const showsCracked = perText((text) => /\b(?:hashcat|john)\b[^\n]{0,200}--show\b/.test(text));

/**
 * Credentials as offensive-security tools take and print them: Impacket's
 * `domain/user:password@host` target, CrackMapExec's and NetExec's
 * `[+] DOMAIN\user:password` lines, and a cracked hash's plain text after
 * `hashcat --show` or `john --show` (`$krb5tgs$…:Password`).
 */
export const pentestCredential: Rule = {
  id: "pentest_credential",
  description:
    "Password in a pentest tool's target or output (Impacket domain/user:pass@host, CrackMapExec [+] DOMAIN\\user:pass, hashcat --show, secretsdump's LSA secrets, Nmap's brute scripts)",
  placeholder: "<PASSWORD>",
  keywords: [
    "impacket",
    ".py",
    "[+]",
    "[-]",
    "--show",
    "defaultpassword",
    "_sc_",
    "valid credentials",
    "passwordspray",
  ],
  pattern: () =>
    new RegExp(
      // Impacket: the target, quoted or not, after the tool's name.
      // Starts at the tool's name (`impacket-`, `.py`, literals), then reads on to the target.
      // Up to eight words between (the options), each read once: `.py` repeated is read at once.
      "(?:impacket-\\w{2,20}|\\.py(?<=\\b\\w{2,20}\\.py))(?:[ \\t]+[^\\s|;&]{1,200}){0,8}?[ \\t]+['\"]?(?:[\\w.-]{0,64}/)?[\\w.$-]{1,64}:" +
        "(?:'(?<secret>[^'\\n]{1,200})'|\"(?<secret>[^\"\\n]{1,200})\"|(?<secret>[^\\s'\"]{1,200})" +
        // The target quoted whole but its host: `'DOMAIN/user:p@ss'@10.0.0.5`.
        "|(?<secret>[^'\"\\n]{1,200})(?=['\"]@[\\w.-]{1,253}(?:\\s|$|['\"])))(?=@[\\w.-]{1,253}['\"]?(?:\\s|$)|['\"]@)" +
        // CrackMapExec, NetExec: a protocol, a host, a port, a name, then the result.
        "|\\[[+-]\\](?<=(?:^|\\n)(?:SMB|WINRM|LDAP|MSSQL|SSH|RDP|FTP|WMI|VNC|NFS)[ \\t]+\\S{1,64}[ \\t]+\\d{1,5}[ \\t]+\\S{1,64}[ \\t]+\\[[+-]\\])" +
        "[ \\t]+[^\\s\\\\]{1,100}\\\\[^\\s:\\\\]{1,100}:(?<secret>[^\\s]{1,200})" +
        // A cracked hash: a `$…` hash or 32 hex digits, then the plain text to the line's end.
        // With `--username`, the user first.
        "|(?:^|\\n)(?:[^\\s:$]{1,100}:(?=[$0-9a-fA-F]))?(?:\\$[^\\s:]{8,8192}|[0-9a-fA-F]{32})(?::[^\\s:]{1,200})?:(?<cracked>(?<secret>[^\\n:]{1,200}))(?=\\r?\\n|$)" +
        // secretsdump's LSA secrets: a service's or the autologon's `DOMAIN\\user:password`.
        "|\\[\\*\\][ \\t]+(?:DefaultPassword|_SC_\\S{1,100})[ \\t]*\\r?\\n(?:[^\\s\\\\:]{1,100}\\\\[^\\s:\\\\]{1,100}|\\(Unknown User\\)):(?<secret>[^\\n]{1,200}?)[ \\t]*(?=\\r?\\n|$)" +
        // jwt_tool's cracked HMAC key: `[+] KEY is the CORRECT key!`.
        "|\\[\\+\\][ \\t]+(?<secret>\\S{4,200})(?=[ \\t]+is the CORRECT key)" +
        // kerbrute's spray: the password is the last word.
        "|\\bpasswordspray\\b[^\\n]{0,300}[ \\t](?:'(?<secret>[^'\\n]{1,200})'|\"(?<secret>[^\"\\n]{1,200})\"|(?<secret>[^\\s'\"-][^\\s'\"]{0,199}))[ \\t]*(?=\\r?\\n|$)" +
        // Nmap's brute scripts: `|     user:password - Valid credentials`.
        "|\\|[ \\t]{1,12}[^\\s:|]{1,64}:(?<secret>\\S{1,200})(?=[ \\t]+-[ \\t]+Valid credentials)",
      "dg",
    ),
  secretGroup: "secret",
  priority: 455,
  validators: [
    function crackedAfterShow(c) {
      return c.groups["cracked"] === undefined || showsCracked(c.text) ? undefined : "no --show";
    },
    notPlaceholder,
    (c) => c.secret.length < 4 ? `length ${c.secret.length} < 4` : undefined,
  ],
  allowlist: [],
  truePositives: [
    "impacket-secretsdump -just-dc-user krbtgt 'corp.local/svc_backup:iGJEf!4Q%m4v#%y@10.0.5.12' -outputfile dc01",
    "psexec.py ./localadmin:'cRyNW6YUndOd'@10.0.7.107 cmd.exe",
    "SMB         10.10.20.14     445    SQL02            [+] corp.hanoiair.vn\\t.lam:Welcome2024! (Pwn3d!)",
    "$ hashcat -m 1000 --username ntds.txt --show\nnorth.corp.local\\tnguyen:63c4f3fa9641c030680ceb44668236dd:Spring2020*",
    "[*] DefaultPassword \nNORTH\\svc_kiosk:5p4rr0w@Orbit43\n[*] _SC_MSSQL$SQLEXPRESS \nNORTH\\svc_sql:xxeLj1U4D*HYABDu7aZV\n",
    "| mysql-brute: \n|   Accounts: \n|     reports:Granite2000. - Valid credentials\n",
    "[+] portal-jwt-2023 is the CORRECT key!",
    "$ ./kerbrute_linux_amd64 passwordspray -d corp.local --dc 10.20.5.21 users.txt 'Haru2024!'",
    "impacket-psexec 'CORP/da_backup:Gr33n!Tea@2024'@10.20.5.21 'whoami /all'",
    "[*] DefaultPassword\n(Unknown User):Welcome2Northwind!\n",
    "$ hashcat -m 13100 kerberoast.txt --show\n$krb5tgs$23$*svc_mssql$CORP.LOCAL$corp.local/svc_mssql*$21b6607795f5020f4c7361a56e210366$7806c6d8:Sup3rS3cure!SQL",
  ],
  falsePositives: [
    "$ hashcat -m 1000 ntlm.txt wordlist.txt\n31d6cfe0d16ae931b73c59d7e0c089c0:\nSession..........: hashcat",
    "python3 setup.py install --user && git clone git@github.com:fortra/impacket.git",
    "SMB 10.10.20.11 445 FS01 [*] Windows Server 2019 (name:FS01) (domain:corp.local)",
  ],
};

/** What `htpasswd -b`, `net use`, an `expect` script and `echo … |` need first. */
function mayRunPasswordCommand(lower: string): boolean {
  return lower.includes("htpasswd") || lower.includes("schtasks") || lower.includes("net use") ||
    lower.includes("net user") ||
    lower.includes("<<<") || lower.includes("cmdkey") || lower.includes("openssl passwd") ||
    lower.includes("mkpasswd") || (lower.includes("printf") && lower.includes("passwd")) ||
    lower.includes("rabbitmqctl") || /sqlplus|expdp|impdp|sqlldr|dgmgrl|rman /.test(lower) ||
    (lower.includes("send") && lower.includes("expect")) ||
    (lower.includes("echo") &&
      (lower.includes("sudo -s") || lower.includes("password-stdin") || lower.includes("kinit") ||
        lower.includes("passwd") ||
        lower.includes("--with-token") || lower.includes(" login") ||
        /secrets? (?:put|set)|env add/.test(lower))) ||
    lower.includes("jdbc:oracle") || lower.includes("drone") || lower.includes("add-mask") ||
    lower.includes("vault login") ||
    lower.includes("lftp") || lower.includes("http-basic") || lower.includes("pulumi") ||
    lower.includes("ldappasswd") || lower.includes("ipmitool") || lower.includes("doveadm") ||
    lower.includes("keystore") || lower.includes("steamcmd") || lower.includes("hdbuserstore") ||
    lower.includes("sapcontrol") || lower.includes("connect to") ||
    (lower.includes("echo") &&
      (lower.includes("vault_pass") || lower.includes("passw") || lower.includes(".pass"))) ||
    ((lower.includes("password(") || lower.includes("phrase(")) &&
      (lower.includes("altuser") || lower.includes("adduser") || /\bal?u\b/.test(lower))) ||
    (lower.includes("connect(") && lower.includes("t3")) ||
    (/\bhttps? /.test(lower) && (lower.includes(" -a ") || lower.includes("--auth")));
}

/** A shell word: quoted, or bare up to a blank or any of `ends`. */
function shellWord(ends = ""): string {
  return "(?:'(?<quoted>(?<secret>[^'\\n]{1,4096}))'|\"(?<quoted>(?<secret>[^\"\\n]{1,4096}))\"|" +
    `(?<secret>[^\\s'"|;&${ends}]{1,4096}))`;
}

/** A shell word. */
const SHELL_WORD = shellWord();

/** A shell word inside `$(…)`: a bare one ends at the `)`. */
const SUBSHELL_WORD = shellWord(")");

/**
 * Passwords that commands take as a positional word: `htpasswd -b FILE USER
 * PASS`, `net use … /user:NAME PASS` (or the password before `/user:`), an
 * `expect` script's `send "PASS\r"` after a password prompt, and
 * `echo PASS |` into `sudo -S` or `--password-stdin`.
 */
export const passwordCommand: Rule = {
  id: "password_command",
  description:
    "Password given to a command as a word (htpasswd -b, net use/user, cmdkey, expect send, echo | sudo -S, openssl passwd, rabbitmqctl, sqlplus u/p, ::add-mask::, vault login)",
  placeholder: "<PASSWORD>",
  keywords: [
    "doveadm",
    "schtasks",
    "keystore",
    " -a ",
    "--auth",
    "htpasswd",
    "net use",
    "net user",
    "send",
    "echo",
    "<<<",
    "cmdkey",
    "openssl passwd",
    "mkpasswd",
    "printf",
    "rabbitmqctl",
    "sqlplus",
    "expdp",
    "impdp",
    "sqlldr",
    "dgmgrl",
    "rman ",
    "jdbc:oracle",
    "drone",
    "add-mask",
    "vault login",
    "pulumi",
    "ldappasswd",
    "ipmitool",
    "--with-token",
    "devops login",
    "steamcmd",
    "hdbuserstore",
    "sapcontrol",
    "lftp",
    "http-basic",
    "connect to",
    "password(",
    "phrase(",
    "connect(",
  ],
  precheck: (facts) => mayRunPasswordCommand(facts.lower),
  pattern: () =>
    new RegExp(
      boundaryFirst(
        // Flags, `-C 12` (bcrypt's cost) with its number.
        `\\bhtpasswd[ \\t]+(?<flags>(?:-[A-Za-z]{1,6}(?:[ \\t]+\\d{1,3})?[ \\t]+){1,6})` +
          // `-n` prints the line instead of writing a file: no file before the user.
          `(?:[^\\s-]\\S{0,1000}[ \\t]+)?[^\\s-]\\S{0,200}[ \\t]+${SHELL_WORD}` +
          `|\\bnet[ \\t]+use[ \\t]+(?:[A-Za-z]:[ \\t]+)?\\\\\\\\\\S{1,1000}[ \\t]+(?:/user:\\S{1,200}[ \\t]+)?(?<net>${SHELL_WORD})` +
          `|\\bexpect[ \\t]+(?:-\\w{1,10}[ \\t]+)?"[^"\\n]{0,80}(?:assword|passphrase)[^"\\n]{0,40}"[ \\t]*\\r?\\n[ \\t]*` +
          `send[ \\t]+(?:--[ \\t]+)?"(?<quoted>(?<secret>[^"\\n\\\\]{1,4096}))(?:\\\\[rn])?"` +
          // Piped to a login that reads it: `sudo -S`, `--password-stdin`, `gh auth login --with-token`, `az devops login`.
          // The password twice, for a new one and its confirmation: `printf 'X\\nX\\n' | passwd bob`.
          `|\\b(?:echo[ \\t]+(?:-[ne][ \\t]+)?|printf[ \\t]+)${SHELL_WORD}[ \\t]*\\|[ \\t]*(?=sudo[ \\t]+-S|(?:sudo[ \\t]+)?(?:kinit\\b|passwd\\b|smbpasswd[ \\t]+-s)|[^\\n|]{0,200}(?:--password-stdin|--with-token|[ \\t]login\\b|secret[ \\t]+put|env[ \\t]+add|secret[ \\t]+set|secrets[ \\t]+set|keystore[ \\t]+add\\b))` +
          // Starts at the here-string and looks back for the command: `sudo` is in many commands.
          `|<<<(?<=(?:--password-stdin|\\bsudo[ \\t]+-S\\b|\\bsecrets?[ \\t]+(?:put|set)\\b|\\bkeystore[ \\t]+add\\b|\\b(?:smb|vnc)?passwd\\b)[^\\n<]{0,200}<<<)[ \\t]*\\$?${SHELL_WORD}` +
          `|\\bnet[ \\t]+user[ \\t]+[^\\s/]\\S{0,100}[ \\t]+(?<net>${SHELL_WORD})(?=[ \\t]+/|[ \\t]*(?:\\r?\\n|$))` +
          // `ldappasswd … -s NEW`, `ipmitool user set password ID NEW`.
          `|\\bldappasswd\\b[^\\n|;&]{0,300}?[ \\t]-s[ \\t]+${SHELL_WORD}` +
          `|\\bipmitool\\b[^\\n|;&]{0,200}?[ \\t]user[ \\t]+set[ \\t]+password[ \\t]+\\d{1,3}[ \\t]+${SHELL_WORD}` +
          // SAP: `hdbuserstore SET KEY HOST USER PASSWORD`, `sapcontrol … -user USER PASSWORD`.
          `|\\bhdbuserstore[ \\t]+(?:-[A-Za-z][ \\t]+){0,3}(?:SET|set)[ \\t]+\\S{1,100}[ \\t]+\\S{1,300}[ \\t]+[^\\s-]\\S{0,100}[ \\t]+${SHELL_WORD}` +
          // Written into a password file: `echo '…' > ~/.vault_pass`, `> /tmp/db_password.txt`.
          `|\\becho[ \\t]+(?:-n[ \\t]+)?${SHELL_WORD}[ \\t]*(?:>{1,2}|\\|[ \\t]*(?:sudo[ \\t]+)?tee(?:[ \\t]+-a)?)[ \\t]*[^\\s;&|]{0,200}(?:vault_pass|passw(?:or)?d|\\.pass(?:phrase)?)(?:\\.txt|file)?(?![\\w.-])` +
          // RACF: `ALTUSER ID PASSWORD(…)`, `ADDUSER ID … PASSWORD(…)`, a passphrase's `PHRASE('…')`.
          `|\\b(?:ALTUSER|ADDUSER|ALU|AU)[ \\t][^\\n]{0,200}?\\b(?:PASSWORD\\((?<secret>[^)\\s]{1,100})\\)|PHRASE\\('(?<secret>[^'\\n]{1,100})'\\))` +
          // WebLogic's WLST: `connect('weblogic', '…', 't3://admin:7001')`.
          `|\\bconnect\\([ \\t]*(?:'[^'\\n]{1,100}'|"[^"\\n]{1,100}")[ \\t]*,[ \\t]*(?:'(?<secret>[^'\\n]{1,200})'|"(?<secret>[^"\\n]{1,200})")(?=[ \\t]*,[ \\t]*['"]t3s?://)` +
          // DB2's `CONNECT TO DB USER NAME USING PASSWORD`, in SQL and in the command line.
          `|\\b(?:CONNECT|connect)[ \\t]+(?:TO|to)[ \\t]+\\S{1,100}[ \\t]+(?:USER|user)[ \\t]+\\S{1,100}[ \\t]+(?:USING|using)[ \\t]+${SHELL_WORD}` +
          `|\\bsapcontrol\\b[^\\n|;&]{0,200}?[ \\t]-user[ \\t]+\\S{1,100}[ \\t]+${SHELL_WORD}` +
          // steamcmd's `+login USER PASSWORD`.
          `|\\bsteamcmd\\b[^\\n|;&]{0,300}?\\+login[ \\t]+[^\\s+]\\S{0,100}[ \\t]+(?<steam>${SHELL_WORD})` +
          // `pulumi config set --secret KEY VALUE`, or with `--secret` after: a secret whatever KEY says.
          `|\\bpulumi[ \\t]+config[ \\t]+set[ \\t]+(?:--secret[ \\t]+[\\w:./-]{1,200}[ \\t]+${SHELL_WORD}` +
          `|[\\w:./-]{1,200}[ \\t]+${SHELL_WORD}(?=[ \\t]+--secret\\b))` +
          `|\\bcmdkey(?:[ \\t]{1,8}/(?!pass:)[A-Za-z]{1,12}(?::\\S{1,200})?){0,4}[ \\t]{1,8}/pass:${SHELL_WORD}` +
          // Hashers, mostly inside `$(…)`: `useradd -p $(openssl passwd -6 PASSWORD) bob`.
          `|\\bopenssl[ \\t]+passwd[ \\t]+(?:-(?:1|5|6|apr1|crypt|aixmd5)[ \\t]+|-salt[ \\t]+\\S{1,64}[ \\t]+){0,3}${SUBSHELL_WORD}` +
          `|\\bmkpasswd[ \\t]+(?:-[mSRP][ \\t]+\\S{1,64}[ \\t]+|--(?:method|salt|rounds|password-fd)=\\S{1,64}[ \\t]+){0,4}${SUBSHELL_WORD}` +
          `|\\bdoveadm[ \\t]+pw\\b[^\\n|;&]{0,200}?[ \\t]-p[ \\t]+${SUBSHELL_WORD}` +
          `|\\brabbitmqctl[ \\t]+(?:add_user|change_password|authenticate_user)[ \\t]+\\S{1,100}[ \\t]+${SHELL_WORD}` +
          // HTTPie's `http -a user:PASSWORD …`, `--auth=user:PASSWORD`.
          `|\\bhttps?[ \\t](?:[^\\n|;&]{0,200}?[ \\t])?(?:-a|--auth)(?:=|[ \\t]+)['"]?[^\\s:'"]{1,100}:${SHELL_WORD}` +
          // `schtasks /Create … /RU user /RP PASSWORD`, `/U user /P PASSWORD`.
          `|\\bschtasks\\b[^\\n|&]{0,300}?[ \\t]/R?P[ \\t]+${SHELL_WORD}` +
          // Dovecot's `doveadm auth test USER PASSWORD`.
          `|\\bdoveadm[ \\t]+auth[ \\t]+(?:test|login)[ \\t]+(?:-\\w[ \\t]+\\S{1,100}[ \\t]+){0,3}[^\\s-]\\S{0,200}[ \\t]+${SHELL_WORD}` +
          // Oracle's `user/password@db` logins, in its tools and in JDBC's thin URLs.
          `|\\b(?:sqlplus|expdp|impdp|sqlldr|dgmgrl|rman[ \\t]+target)[ \\t]+(?:-\\w{1,10}[ \\t]+){0,3}['"]?(?:userid=)?[\\w$#]{1,30}/` +
          // A password with `@` in it is quoted: `'sys/"7Dy…@92"@FINPRD as sysdba'`.
          `(?:\\\\{0,3}"(?<secret>[^"\\\\\\n]{1,4096})\\\\{0,3}"|(?<secret>[^\\s@/'"]{1,4096}))(?=@|\\s|$|['"])` +
          `|jdbc:oracle:thin:[\\w$#]{1,30}/(?<secret>[^\\s@/'"]{1,4096})(?=@)` +
          // GitHub Actions' `::add-mask::VALUE` and `vault login TOKEN`: a secret whatever it is.
          `|::add-mask::(?<secret>[^\\s"'\\\\]{1,4096})` +
          `|\\bvault[ \\t]+login[ \\t]+(?:-[\\w-]{1,30}(?:=\\S{1,200})?[ \\t]+){0,4}(?<secret>[^\\s'"=|;&-][^\\s'"=|;&]{7,4095})(?![^\\s'"|;&])` +
          // `drone secret add --name NAME --data VALUE`: a secret whatever NAME says.
          `|\\bdrone[ \\t]+(?:org[ \\t]+)?secret[ \\t]+(?:add|update)[ \\t][^\\n|;&]{0,200}?--data(?:=|[ \\t]+)${SHELL_WORD}` +
          // `lftp -u user,password`; `composer`/`poetry config http-basic.REPO user password`.
          `|\\blftp[ \\t][^\\n|;&]{0,200}?-u[ \\t]+(?:'[^'\\n,]{1,100}'|"[^"\\n,]{1,100}"|[^\\s,'"]{1,100}),${SHELL_WORD}` +
          `|\\b(?:composer|poetry)[ \\t]+config[ \\t]+(?:-{1,2}[\\w-]{1,12}[ \\t]+){0,3}http-basic\\.\\S{1,200}[ \\t]+\\S{1,200}[ \\t]+${SHELL_WORD}`,
      ),
      "dg",
    ),
  secretGroup: "secret",
  priority: 455,
  validators: [
    notPlaceholder,
    function commandWordShape(c) {
      const flags = c.groups["flags"];
      if (flags !== undefined && !/-[A-Za-z]*b/.test(flags)) return "htpasswd without -b";
      if (c.groups["net"] !== undefined && c.secret.startsWith("/")) return "a /switch";
      if (c.groups["steam"] !== undefined && c.secret.startsWith("+")) {
        return "steamcmd's next command";
      }
      if (c.groups["quoted"] === undefined && c.secret.startsWith("-")) return "a flag";
      if (c.secret.length < 4) return `length ${c.secret.length} < 4`;
      return c.groups["quoted"] === undefined ? passwordShapeProblem(c.secret) : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "[root@bkp01 ~]# echo 'jvnLq%iVpIV0dKqD' | kinit svc_backup@CORP.LAN",
    "root@mail:~# doveadm auth test lan.pham@saobien.io 'granite26!Falcon'",
    'schtasks /Create /TN "Nightly" /TR "C:\\jobs\\run.bat" /SC DAILY /RU CORP\\svc_task /RP Tq3!Wz7-Lk9m',
    "npx wrangler secret put UPSTASH_REDIS_REST_TOKEN --env staging <<< 'AQNMASQgn3wao1tYC84s8YPAw8gTyUnrZKMFdcLB6SnB'",
    "ldappasswd -x -H ldap://ldap01 -D 'cn=admin,dc=x' -w Vq8-Rt3-Lm9x -s 'Kw7-Zq2-Tn4y' 'uid=ngoc'",
    "ipmitool user set password 3 'Vq8-Rt3-Lm9x' 20",
    "pulumi config set --secret ledger:dbPassword 'Vq8-Rt3!Lm9x' --stack prod",
    "pulumi config set stripeKey rk_live_Vq8Rt3Lm9x --secret",
    "echo 'wM9N7KdR1GPcchSJEWLK8DtDORlBFvEnxiJHgg0q' | npx wrangler secret put OPENROUTER_KEY",
    "drone secret add --repository acme/api --name docker_password --data 'UVHo8U3Pae1lSh0*Su'",
    'echo "::add-mask::Vm3Kq8Lz2Wr7Tx4Hn9"',
    "vault login -no-print Rk7Tz4Hm9Xc3Lq8Wv2",
    "flyway.url=jdbc:oracle:thin:FLYWAY_OWNER/yVq4VIco#B1sNi@db-ora-03.corp.local:1521/ORCLPDB1",
    'echo "pq2w32nnzrjyqbyp8rqj6grwddzz2a3hr4ljnqdfdsjcawacif5v" | az devops login --organization https://dev.azure.com/acme',
    "htpasswd -bc /etc/nginx/.htpasswd admin Vq8-Rt3-Lm9",
    "htpasswd -nb admin 'Ht7#Lq2-Wm5v'",
    "http -a reporting:Q94i7nDdiCOjg! GET https://metrics.corp.lan/api/v1/query",
    'echo -e "Sm3!Kq7-Lz8w\\nSm3!Kq7-Lz8w" | sudo smbpasswd -s -a nhanvien',
    'bin/elasticsearch-keystore add bootstrap.password <<< "Es5#Lq2-Wm9k"',
    "sudo htpasswd -b -B -C 12 -c /etc/nginx/.htpasswd grafana Vq8-Rt3-Lm9",
    "sudo -S apt-get install -y nginx <<< 'Vq8-Rt3-Lm9'",
    "net use Z: \\\\nas\\share /user:CORP\\ops Wk4!Lp9Tz",
    'expect "Password:"\nsend "Hx7#qL2m\\r"',
    "echo 'Zr5-Kp8-Wq2' | sudo -S systemctl restart app",
    "useradd -m -s /bin/bash -p $(openssl passwd -6 Wv7-Lq2-Rk9) deploy",
    "usermod -p \"$(mkpasswd -m sha-512 'Hq4#Lz8-Wm2')\" ops",
    "printf 'Tz6!Kq2-Wv8\\nTz6!Kq2-Wv8\\n' | passwd deploy",
    "echo 'Lw4!Tq9+Vz2k' | p4 -p ssl:perforce.lan:1666 -u build login",
    "steamcmd +login studio_ci 'Rk7pWq2Lx9Vb' +app_update 740 validate +quit",
    "hdbuserstore -i SET BACKUPKEY hana01:30015@PRD SYSTEM_BACKUP 'Zt5*Qw8!Lm2x'",
    "sapcontrol -nr 00 -host app01 -user prdadm 'Vx4-Kq7mRt2' -function GetProcessList",
    "net user backup Gn4-Rf8-Lq2 /add",
    "cmdkey /add:nas /user:CORP\\svc /pass:Th7-Or3-Lk9",
    "openssl passwd -6 'Pf8-Sh2-Lw5'",
    "rabbitmqctl add_user admin Ks5-Dn8-Vq3",
    "sqlplus system/Hr6-Lc2-Wp8@//db.lan:1521/ORCL",
    `sqlplus -s 'sys/"7DyoTYTW7EU2@92"@FINPRD as sysdba' @check.sql`,
    "docker login --password-stdin -u ci registry.lan <<< 'Sk8-Ht3-Rv6'",
    "lftp -u edi_upload,'Wq3!Lm8Vz2' sftp://sftp.supplier.lan -e 'mput *.xml; bye'",
    "composer config --global http-basic.repo.packagist.com token Ht6-Vw2-Lq9",
    "poetry config http-basic.private ci Gm8#Rt2Lw5",
    "  CONNECT TO DB2P USER BATCHU1 USING '6IH6I8B5';",
    "db2 connect to SAMPLE user db2inst1 using Rv8kTq2w",
    "  ALTUSER PAYBAT2 PASSWORD(OR5BU67R) NOEXPIRED RESUME",
    "$ echo 'summer-falcon-28-juniper' > /tmp/.vault_pass && ansible-playbook site.yml",
    "connect('weblogic', 'Spring2021!Sier', 't3://wls-admin01.corp.local:7001')",
  ],
  falsePositives: [
    // No -b: htpasswd asks for the password.
    "htpasswd -c .htpasswd admin",
    "net use Z: \\\\nas\\share /persistent:yes",
    // A variable.
    'expect "Password:"\nsend "$env(PASS)\\r"',
    "echo $PASSWORD | docker login --password-stdin",
    "steamcmd +login anonymous +app_update 740 +quit",
    "net user backup /delete && openssl passwd -6 -stdin < pw.txt && sqlplus / as sysdba",
    "card ending 6467, exp 12/2028",
    "db2 connect to SAMPLE user db2inst1 using $DB2_PASSWORD",
    "ALTUSER PAYBAT2 RESUME NOPASSWORD",
    'echo "$VAULT_PASSWORD" > ~/.vault_pass && echo done > passwords.log',
    "connect(username, password, 't3://wls-admin01:7001')",
    'lftp -u deploy sftp://files.lan && lftp -u deploy,"$SFTP_PASSWORD" sftp://files.lan',
    "echo ::add-mask::$TOKEN",
    "vault login -method=userpass username=ops",
  ],
};

/**
 * Whether a line of `text` is a `Key  Value` table header (its rows are
 * `generic_api_key_table`'s); asked once per text.
 */
export const hasKeyValueHeader = perText((text) =>
  /(?:^|\n)[ \t]*(?:Key|KEY|Name|NAME)[ \t]{2,}(?:Value|VALUE)[ \t]*\r?\n/.test(text)
);

/** What the command-specific flags of `password_tool_flag` need first. */
function mayUseToolFlag(lower: string): boolean {
  return (lower.includes(" -w") && (lower.includes("ldap") || lower.includes("smbpasswd"))) ||
    (lower.includes(" -p") && /sqlcmd|bcp|osql|isql|ipmitool|zip|ssh-keygen/.test(lower)) ||
    (lower.includes(" -n") && lower.includes("ssh-keygen")) ||
    lower.includes("setuser") ||
    (lower.includes(" -k") && lower.includes("openssl")) ||
    (lower.includes(" -u") && lower.includes("%")) ||
    lower.includes("storepass") || lower.includes("keypass") ||
    lower.includes("securestring") || lower.includes("chpasswd") ||
    (lower.includes("machine") && lower.includes("password")) ||
    lower.includes("authinfo:") || lower.includes("requirepass") || lower.includes("masterauth") ||
    lower.includes("auth-pass") || /--pass(?:w(?:or)?d)?\\{0,3}["'][ \t]*,/.test(lower) ||
    lower.includes("psk") || lower.includes(" eap ") || lower.includes("xauth") ||
    lower.includes("community") || lower.includes("com2sec") || lower.includes("]:") ||
    lower.includes("(auth ") ||
    /(?:^|\n|\\n|> ?)(?:[ \t]*[\w.-]{0,30}(?:passw(?:or)?d|bindpw|rootpw)|auth)[ \t]/.test(lower);
}

/** Commands whose `-w`/`-P`/`-N`/`-k` flag, with a blank, takes a password. */
const TOOL_FLAG_COMMANDS: Record<string, RegExp> = {
  // Samba's `smbpasswd -w` stores the LDAP admin's password.
  "-w": /\b(?:ldap(?:search|modify|add|delete|passwd|compare|whoami|modrdn)|smbpasswd)\b/,
  // Info-ZIP's `zip -P` and `unzip -P` (not `xargs -P 4`, `mvn -P release`), ssh-keygen's
  // old passphrase.
  "-P": /\b(?:sqlcmd|bcp|osql|isql|ipmitool|zip|unzip|ssh-keygen)\b/,
  // ssh-keygen's new passphrase (not `ssh -N`, `nc -N`).
  "-N": /\bssh-keygen\b/,
  // `openssl enc -aes-256-cbc … -k PASS`, `openssl aes-256-cbc -k PASS`.
  "-k": /\bopenssl[ \t]+(?:enc\b|(?:aes|des|bf|camellia|chacha|aria)[\w-]*)/,
};

/**
 * Passwords in the flags and files of particular tools: `ldapsearch -w`,
 * `sqlcmd -P`, `smbclient -U user%pass`, `keytool -storepass`,
 * `ConvertTo-SecureString '…' -AsPlainText`, `echo user:pass | chpasswd`,
 * `.netrc` (`machine … login … password …`).
 */
export const passwordToolFlag: Rule = {
  id: "password_tool_flag",
  description:
    "Password in a tool's own flag or file (ldapsearch -w, sqlcmd -P, zip -P, smbclient -U u%p, keytool -storepass, Redis ACL SETUSER >p, .netrc)",
  placeholder: "<PASSWORD>",
  keywords: [
    "ldap",
    "openssl",
    "sqlcmd",
    "bcp",
    "osql",
    "isql",
    "ssh-keygen",
    " -u",
    "storepass",
    "keypass",
    "securestring",
    "chpasswd",
    "machine",
    "authinfo:",
    "password",
    "passwd",
    "bindpw",
    "rootpw",
    "requirepass",
    "setuser",
    "zip",
    "auth-pass",
    "masterauth",
    "auth ",
    "psk",
    " eap ",
    "xauth",
    "community",
    "com2sec",
    "smbpasswd",
    "]:",
  ],
  precheck: (facts) => mayUseToolFlag(facts.lower),
  pattern: () =>
    new RegExp(
      `(?<=\\s)(?<tool>-w|-P|-N|-k)[ \\t]+${SHELL_WORD}` +
        `|(?<=\\s)-U[ \\t]+['"]?[^\\s%'"]{1,100}%(?<secret>[^\\s'"]{1,4096})` +
        `|(?<=\\s)-(?:src|dest|new)?(?:store|key)pass(?:word)?[ \\t]+${SHELL_WORD}` +
        `|\\bConvertTo-SecureString[ \\t]+(?:-String[ \\t]+)?${SHELL_WORD}(?=[^\\n]{0,100}-AsPlainText)` +
        // `-AsPlainText` first: `ConvertTo-SecureString -AsPlainText 'PASSWORD' -Force`.
        `|\\bConvertTo-SecureString[ \\t]+-AsPlainText[ \\t]+(?:-Force[ \\t]+)?(?:-String[ \\t]+)?${SHELL_WORD}` +
        `|\\becho[ \\t]+['"]?[\\w.-]{1,64}:(?<secret>[^\\s'"|:]{1,4096})['"]?[ \\t]*\\|[ \\t]*(?:sudo[ \\t]+)?chpasswd` +
        `|(?<=\\bmachine[ \\t]+\\S{1,253}\\s{1,40}(?:login[ \\t]+\\S{1,200}\\s{1,40})?)password[ \\t]+(?<secret>\\S{1,4096})` +
        // A config line that is only `NAME VALUE`, NAME a password's (msmtp's and fetchmail's
        // `password`, nslcd's `bindpw`, slapd's `rootpw`, Fluent Bit's `HTTP_Passwd`), also
        // inside a JSON string. These start at their word and look back for the line's start:
        // a leading line start made V8 stop at every quote and newline.
        `|(?i:passw(?:or)?d|bindpw|rootpw)(?<=(?:^|\\n|\\\\n)[ \\t]{0,8}(?<configName>[A-Za-z][\\w.-]{0,30}))[ \\t]+(?<secret>[^\\s"'\\\\]{1,4096})(?=[ \\t]*(?:\\r?\\n|\\\\n|$))` +
        // redis.conf's requirepass and masterauth, and redis's AUTH [user] password.
        // grep's `543:` and the Read tool's `   543→` may number the line.
        `|(?:requirepass|masterauth)(?<=(?:^|\\n|\\\\n)[ \\t]{0,8}(?:\\d{1,7}[:→-][ \\t]{0,8})?(?:requirepass|masterauth))[ \\t]+${SHELL_WORD}` +
        // A password flag and its value as two items of a list: Compose's `command: ["redis-server",
        // "--requirepass", "…"]`, a container's `args`.
        `|--(?:requirepass|masterauth|password|passwd|pass)\\\\{0,3}["'][ \\t]*,[ \\t]*\\\\{0,3}["'](?<secret>[^"'\\\\\\n$]{1,4096})\\\\{0,3}["']` +
        // Redis Sentinel's `sentinel auth-pass MASTER PASSWORD`.
        `|auth-pass(?<=(?:^|\\n|\\\\n)[ \\t]{0,8}sentinel[ \\t]+auth-pass)[ \\t]+[^\\s"']{1,100}[ \\t]+${SHELL_WORD}` +
        // Also in parentheses in a sentence: `redis pw (AUTH …) didn't change`.
        `|AUTH(?<=\\(AUTH)[ \\t]+(?<secret>[^\\s"'\\\\()]{8,4096})(?=\\))` +
        `|AUTH(?<=(?:^|\\n|\\\\n|>[ \\t]?)AUTH)[ \\t]+(?:[^\\s"'\\\\]{1,100}[ \\t]+)?(?<secret>[^\\s"'\\\\]{1,4096})(?=[ \\t]*(?:\\r?\\n|\\\\n|$))` +
        // IPsec's `: PSK "secret"` (and a user's `EAP`/`XAUTH` one), SNMP's community strings,
        // Postfix's `[relay]:port user:password`.
        // Eight characters at least (WPA's least): text of repeated `: PSK "` made every quote a candidate.
        `|:[ \\t]*(?:PSK|EAP|XAUTH|NTLM)[ \\t]+\\\\{0,3}["'](?<secret>[^"'\\\\\\n]{8,4096})\\\\{0,3}["']` +
        `|\\bPSK[ \\t]+\\\\{0,3}["'](?<secret>[^"'\\\\\\n]{8,4096})\\\\{0,3}["']` +
        // strongSwan's unquoted PSK in base64 (`0s…`) or hex (`0x…`): the key without its prefix.
        `|:[ \\t]*PSK[ \\t]+0(?:s(?<secret>[A-Za-z0-9+/]{16,4096}={0,2})|x(?<secret>[0-9A-Fa-f]{16,4096}))(?![\\w+/=])` +
        // A diff's line may start with its `-` or `+`.
        `|community(?<=(?:^|\\n|\\\\n|")[-+]?[ \\t]{0,8}(?:ro|rw)community)6?[ \\t]+(?<secret>[^\\s"'\\\\]{1,4096})` +
        // net-snmp's `com2sec NAME SOURCE COMMUNITY`.
        `|com2sec(?<=(?:^|\\n|\\\\n|")[-+]?[ \\t]{0,8}(?:\\d{1,7}[:→\\t][ \\t]{0,8})?com2sec)6?[ \\t]+[^\\s"'\\\\]{1,64}[ \\t]+[^\\s"'\\\\]{1,64}[ \\t]+(?<secret>[^\\s"'\\\\]{1,4096})` +
        // A Google app password keeps its blanks there: `relay@gmail.com:abcd efgh ijkl mnop`.
        `|\\](?<=(?:^|\\n|\\\\n|["'])\\[[\\w.-]{1,253}\\])(?::\\d{1,5})?[ \\t]+[^\\s:]{1,200}:(?<secret>[a-z]{4}(?: [a-z]{4}){3}(?=[ \\t]*(?:\\r?\\n|\\\\n|"|$))|[^\\s"'\\\\]{1,4096})` +
        // Redis's `ACL SETUSER name on >password`: the first `>` rule after the name.
        `|\\b(?i:setuser)[ \\t]+[^\\s>]{1,100}(?:[ \\t]+[^\\s>]{1,200}){0,16}[ \\t]+>(?<secret>[^\\s"'\\\\]{1,4096})` +
        // sendmail's authinfo: AuthInfo:host "U:user" "P:password".
        `|\\bAuthInfo:[^\\n]{0,300}?\\\\{0,3}"P:(?<secret>[^"\\\\\\n]{1,4096})\\\\{0,3}"`,
      "dg",
    ),
  secretGroup: "secret",
  priority: 455,
  validators: [
    notPlaceholder,
    function toolCommand(c) {
      const tool = c.groups["tool"];
      if (tool === undefined) return undefined;
      return TOOL_FLAG_COMMANDS[tool]!.test(commandBefore(c.text, c.matchStart, 300))
        ? undefined
        : `${tool} outside the commands that take a password so`;
    },
    function configName(c) {
      const name = c.groups["configName"];
      if (name === undefined) return undefined;
      if (hasKeyValueHeader(c.text)) return "a row of a Key/Value table (generic_api_key_table)";
      // `databricks secrets list-secrets`: a secret's name and when it changed, in epoch time.
      if (/^1\d{9}(?:\d{3})?$/.test(c.secret)) return "a timestamp";
      return /^(?:bind|root)pw$/i.test(name) ? undefined : passwordNameProblem(name);
    },
    function toolValueShape(c) {
      if (c.secret.length < 4) return `length ${c.secret.length} < 4`;
      return c.groups["quoted"] === undefined ? passwordShapeProblem(c.secret) : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "port 26379\nsentinel monitor mymaster 10.20.0.11 6379 2\nsentinel auth-pass mymaster Tq8.+Lm3vXr7Zw9\n",
    "ipmitool -I lanplus -H 10.0.9.31 -U ADMIN -P Vq8Rt3Lm9xK chassis status",
    "tar czf - /srv/data | openssl enc -aes-256-cbc -pbkdf2 -salt -k 'amber-quartz-violet-nine' -out data.tgz.enc",
    // strongSwan's ipsec.secrets: a user's EAP secret.
    'mtran : EAP "Vq8-Rt3-Lm9x"',
    "ldapsearch -x -D cn=admin,dc=lan -w 'Kq8-Lm2-Vx7' -b dc=lan",
    "sqlcmd -S sql01 -U sa -P Rt5!Wq8Lz -Q 'SELECT 1'",
    "smbclient //nas/share -U backup%Vn4-Kd8-Qz2",
    "keytool -list -keystore app.jks -storepass Hw3-Lp9-Tx6",
    "$s = ConvertTo-SecureString 'Mz7-Rq2-Kv5' -AsPlainText -Force",
    "Set-ADAccountPassword -Identity 'an.le' -Reset -NewPassword (ConvertTo-SecureString -AsPlainText 'Tq59#Lm2kvW' -Force)",
    "echo 'deploy:Bx6-Wn3-Lq9' | sudo chpasswd",
    "machine git.corp.lan login ci password Jt4-Vm8-Rz1",
    "account default\nhost smtp.mail.lan\nuser ops\npassword Qw7-Lk2-Zx9\n",
    "uri ldap://10.20.0.15/\nbinddn cn=proxyagent,dc=infra,dc=local\nbindpw Tq7_walnut2291*\n",
    "[OUTPUT]\n    Name        es\n    HTTP_User   fluentbit\n    HTTP_Passwd Kd4=wQ8.Zm_Lx\n",
    'AuthInfo:smtp.mail.lan "U:relay" "P:Hv6-Np3-Kc8" "M:PLAIN"',
    "bind 127.0.0.1\nrequirepass Tq8-Wn2-Lx5\nmasterauth Tq8-Wn2-Lx5\n",
    "543:masterauth noGXtzUuiVKUM6OjtF2naHZxLNpqR2OMy27\n1044:requirepass noGXtzUuiVKUM6OjtF2naHZxLNpqR2OMy27",
    '    command: ["redis-server", "--requirepass", "orbit-glacier-cobalt-34", "--appendonly", "yes"]',
    "127.0.0.1:6379> AUTH Gz4-Rm7-Kw1",
    "cache is down again. redis pw (AUTH Wq7Lm2.-Rk9Vx) didnt change",
    ': PSK "Tn5#Wq8Lr2Xv"',
    "rocommunity Hd7Kq2Wv9Lp 10.0.0.0/8",
    "com2sec monitor    10.30.0.0/24    Q7cK48cMfGLh",
    "sudo smbpasswd -w 8DaAdAI7vkmJNgMrVl-e",
    "-rocommunity Pz3Wk8Vn2Qx 10.20.0.0/16\n+rocommunity {{ snmp_ro_community }} 10.20.0.0/16",
    "conn branch\n  right=198.51.100.9\n: PSK 0sVq8Rt3Lm9xKw7Zp2Hn5Yb6Cd1Fg4Jk=",
    "[smtp.mail.lan]:587 relay@mail.lan:Vx4^Lm8Qt2",
    "echo '[email-smtp.eu-west-1.amazonaws.com]:587 AKIAQX7TLW2NVB4HZR3K:BPm3Xq8Lz2Vn7Wk4Rt9Yc6Hd1Js5Gf0Aa8Ee3Uu2Ii7' | sudo tee /etc/postfix/sasl_passwd",
    "[smtp.gmail.com]:587 ops.alerts@corp.lan:qwpe zmxn rtyu bvcd",
    '{"content": "rocommunity Hd7Kq2Wv9Lp 10.0.0.0/8\\n"}',
    "redis-cli ACL SETUSER reporting on >Wq7-Lz2-Rk9 ~reports:* +get",
    "zip -r -P 'Tv8#Lq2-Wm5' backup.zip exports/ && unzip -P Tv8#Lq2-Wm5 -l backup.zip",
    "ssh-keygen -p -f ~/.ssh/id_ed25519 -P 'Lq8-Rv2-Wz5' -N 'otter 41 basin Lantern'",
  ],
  falsePositives: [
    // Other tools' -w and -P.
    "grep -w token src/ && xargs -P 4 rm && mvn -P release deploy",
    // No passphrase, and ssh's own -N (no command).
    'ssh-keygen -t ed25519 -N "" -f ~/.ssh/deploy && ssh -N -L 5432:db:5432 bastion',
    "keytool -list -keystore app.jks -storepass:env STORE_PASS",
    "echo 'deploy:$PASS' | sudo chpasswd",
    // Prose and headers that start a line with the words.
    "AUTH required before any command\npassword reset link sent to the user",
    "requirepass ${REDIS_PASSWORD}",
    "rootpw {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\npasswd: files systemd\nbypass Enabled",
    // SNMP's documented defaults.
    "rocommunity public 127.0.0.1",
    "com2sec readonly default public",
    'ACL SETUSER reporting on nopass ~reports:* +get && zip -P "$ZIP_PASSWORD" out.zip a.txt',
  ],
};

/**
 * An argument of a call before the secret one: a string (its quotes maybe
 * escaped), a variable or a number, maybe on a line of its own.
 */
export const CALL_ARGUMENT =
  // Backslashes before a letter are the text's own: a Windows account, `"CORP\\svc_ldap"`,
  // escaped once more in each string it sits in.
  "\\s{0,64}(?:\\\\{0,3}\"(?:[^\"\\\\\\n]|\\\\{1,8}[A-Za-z]){0,200}\\\\{0,3}\"|\\\\{0,3}'(?:[^'\\\\\\n]|\\\\{1,8}[A-Za-z]){0,200}\\\\{0,3}'|\\$?[\\w.>-]{1,60})[ \\t]{0,4}";

/**
 * The password as the second argument of a login call: `login("u", "p")`,
 * `auth=("u", "p")`, `HTTPBasicAuth('u', 'p')`.
 */
export const passwordCall: Rule = {
  id: "password_call",
  description:
    "Password as an argument: login(u, p), basic auth, setPassword(…), a Redis client's auth(…), new PDO(dsn, u, p), SQL WITH PASSWORD",
  placeholder: "<PASSWORD>",
  keywords: [
    "login",
    "auth",
    "sign",
    "pdo",
    "mysql",
    "pg_connect",
    "pass",
    "identified",
    "credential",
    "bind",
    "ftp",
    "getconnection",
    "odbc_connect",
    "dbi->connect",
    "database(",
    "hash",
    "bcrypt",
    "encode(",
    ".fill(",
    ".type(",
    "send_keys",
    "sendkeys",
    "directoryentry",
    "opendsobject",
    "create_superuser",
    "create_user",
  ],
  pattern: () =>
    new RegExp(
      // Every call starts at its `(` and looks back for its name: a leading
      // lookbehind or name list made V8 try every offset (the prefix mix:
      // 8.3 → 2 ms/MiB).
      "(?:\\((?:" +
        // A browser test typing into the password field: Playwright's `getByLabel('Password')
        // .fill('…')`, Cypress' `cy.get('#password').type('…')`, Selenium's `send_keys`.
        `(?<=(?:Label|Placeholder|get|locator|find_element|\\$)\\([^()\\n]{0,80}pass[^()\\n]{0,40}\\)[ \\t]{0,4}` +
        `\\.(?:fill|type|pressSequentially|sendKeys|send_keys)[ \\t]{0,4}\\()|` +
        // Odoo's `authenticate(db, login, password, {})`, before the two-argument logins (a
        // call of two arguments fails it and falls to them).
        `(?<=(?<!\\w)authenticate[ \\t]{0,4}\\()(?:${CALL_ARGUMENT},){2}|` +
        // The password after the user (a literal or a variable): logins, basic
        // auth, the credential classes of .NET, Java and the AWS SDKs, LDAP binds.
        "(?<=(?:(?<!\\w)(?:login|log_?in|sign_?in|authenticate|basic_?auth|BasicAuth|HTTPBasicAuth|HTTPDigestAuth|DigestAuth" +
        "|NetworkCredential|UsernamePasswordCredentials|PasswordAuthentication|PasswordCredential" +
        "|simple_bind_s|simple_bind|BasicAWSCredentials|AwsBasicCredentials\\.create|NewStaticCredentials(?:Provider)?)[ \\t]{0,4}" +
        "|(?<![\\w.])auth[ \\t]{0,4}=[ \\t]{0,4})\\()" +
        `${CALL_ARGUMENT},` +
        // The password third: PHP's database connections and LDAP and SSH
        // logins, JDBC, Python's FTP, Go's SMTP auth, Azure's client secret.
        // A PHP stack trace prints the constructor's call: `PDO->__construct('mysql:…', 'u', 'p', Array)`.
        "|(?<=(?<!\\w)(?:new[ \\t]+PDO|new[ \\t]+mysqli|(?:PDO|mysqli)->(?:__construct|real_connect)|mysqli_connect|mysql_connect|pg_connect|odbc_connect" +
        "|ldap_bind|ssh2_auth_password|getConnection|FTP|FTP_TLS|PlainAuth|ClientSecretCredential" +
        // .NET's and ADSI's LDAP binds: `new DirectoryEntry(path, user, password)`.
        "|DirectoryEntry|OpenDSObject" +
        // Perl's DBI, MATLAB's database; Django's `create_superuser(username, email, password)`.
        "|DBI->connect|database|create_superuser|create_user)[ \\t]{0,4}\\()" +
        `(?:${CALL_ARGUMENT},){2}` +
        // The password fourth: sbt's `Credentials(realm, host, user, password)`.
        `|(?<=(?<!\\w)Credentials[ \\t]{0,4}\\()(?:${CALL_ARGUMENT},){3}` +
        // Setters and builders: `.password("…")`, `setPassword("…")`, SQL's `PASSWORD('…')`; and
        // the hashers a seed or a fixture hands the plain password: Laravel's `Hash::make`,
        // Django's `make_password`, Flask's, PHP's, bcrypt's, argon2's, Spring's encoders.
        "|(?<=(?<![\\w$])(?:(?:set_?|with_?)?(?:password|passwd|passphrase)|Hash::make|bcrypt|make_password" +
        "|generate_password_hash|password_hash|hashpw|hashSync|Password\\.create|argon2\\.hash|bcrypt\\.hash" +
        "|\\w{0,30}[Ee]ncoder(?:\\(\\))?\\.encode" +
        // A Redis client's `red:auth("…")`, `client.auth('…')`.
        "|(?<=[.:])auth)[ \\t]{0,4}\\()b?)" +
        `|\\[(?<=(?<![\\w.])auth[ \\t]{0,4}=[ \\t]{0,4}\\[)${CALL_ARGUMENT},` +
        // SQL: `WITH PASSWORD '…'`, `IDENTIFIED BY '…'`.
        "|\\b(?:with[ \\t]+(?:encrypted[ \\t]+)?password|identified(?:[ \\t]+with[ \\t]+\\w{1,40})?[ \\t]+by)[ \\t]{0,4}=?)" +
        // A quote may be escaped once or more: the call inside a JSON string. The argument may
        // stand on a line of its own.
        "\\s{0,64}(?:\\\\{0,3}\"(?<secret>[^\"\\\\\\n]{1,4096})\\\\{0,3}\"|\\\\{0,3}'(?<secret>[^'\\\\\\n]{1,4096})\\\\{0,3}')" +
        // `"…".toCharArray()` (Java's PasswordAuthentication) may follow.
        "[ \\t]{0,4}(?=[,)\\];\\s.]|$)",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    notPlaceholder,
    function typedInCall(c) {
      if (c.secret.length < 4) return `length ${c.secret.length} < 4`;
      // Ansible's `password_hash('sha512')` filter: the argument names the algorithm.
      if (
        /^(?:sha-?\d+(?:_crypt)?|md5(?:_crypt)?|bcrypt|blowfish|des|argon2\w{0,3}|pbkdf2\w{0,12})$/i
          .test(c.secret)
      ) {
        return "a hash algorithm";
      }
      if (/\s/.test(c.secret)) return passphraseProblem(c.secret);
      // `login("admin", "admin")`, `"testpass"`: a fixture's word, not a typed password.
      return charClasses(c.secret) < 2 && c.secret.length < 10
        ? "one short character class"
        : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    'my $dbh = DBI->connect("dbi:mysql:database=crm;host=10.1.2.3",\n    "crm_app", "Jd5-Vr8-Qm3!", { RaiseError => 1 });',
    ">> conn = database('sales','etl_user','Jd5-Vr8-Qm3!','Vendor','PostgreSQL');",
    ">>> User.objects.create_superuser('ops-admin', 'ops@shop.vn', 'Tq8!Lm3vXr7z')",
    'var entry = new DirectoryEntry("LDAP://dc01.corp.local/DC=corp,DC=local", "svc_ldap", "Wq8!Rt3-Lp6z");',
    'Set conn = dso.OpenDSObject("LDAP://dc01.corp.local", "CORP\\svc_ldap", "S1kE*+DfVpJe.Y9", 1)',
    'credentials += Credentials(\n  "Sonatype Nexus Repository Manager",\n  "s01.oss.sonatype.org",\n  "Xq7LpT2a",\n  "zudW75Q8CRcwuwxsRS2p/wk2NQLZ"\n)',
    "CREATE USER IF NOT EXISTS reader IDENTIFIED WITH sha256_password BY 'Qs42YwbJsIKHmI';",
    'await client.login("deploy", "Qm4-Wz8-Lt2")',
    'uid = common.authenticate(db, "api_sync", "Bamboo?7168ymX", {})',
    'ok = ldap.authenticate("cn=svc,dc=corp", "Tq8-Lm3-Vx7")',
    "  await page.getByLabel('Password').fill('1wyrG%tlKkDI2M');",
    "cy.get('input[name=password]').type('Tq8-Lm3-Vx7')",
    "requests.get(url, auth=('ci', 'Vx7#Rk2p'))",
    "$db = new PDO($dsn, 'app', 'Hz2-Qr8-Lw5');",
    "#0 /srv/app/vendor/Connector.php(65): PDO->__construct('mysql:host=10.2...', 'forge', 'Tq8.Lm2-Vx9Rk', Array)",
    'cfg.setPassword("Em4-Dr7-Kt2");',
    'local ok, err = red:auth("Mx8!Qw3-Tz7k")',
    // What a seed hashes is the password itself.
    "'password' => Hash::make('River@harbor41'),",
    "user.password = make_password('Lotus!Bamboo814')",
    "hashed = bcrypt.hashpw(b'Qk7-Wm2-Zt9', bcrypt.gensalt())",
    'const hash = await bcrypt.hash("Tz8#Lm3Vq1", 10);',
    'user.setPassword(passwordEncoder.encode("Hv4!Rq8Ln2"));',
    // In a JSON string (a Write tool's content).
    '{"content": "cfg.setPassword(\\"Rv8#Kt3Lm2\\");\\n"}',
    "CREATE USER etl WITH PASSWORD 'Lg6-Sp1-Rv9';",
    // Positional passwords in constructors and connections.
    'client.Credentials = new NetworkCredential("relay@corp.lan", "Tw6-Kp9-Rz3");',
    'new PasswordAuthentication("mailer", "Hq3#Vt8Lx2".toCharArray())',
    "conn.simple_bind_s('cn=admin,dc=corp,dc=lan', 'Ld4-Pw7-Kx2')",
    'Connection c = DriverManager.getConnection(url, "etl", "Jd5-Vr8-Qm3");',
    'DriverManager.getConnection(\n    "jdbc:postgresql://pg:5432/ledger", "etl", "Jd5-Vr8-Qm3")',
    "ftp = ftplib.FTP('files.corp.lan', 'ops', 'Fz8#Nq2Wt5')",
    'auth := smtp.PlainAuth("", "alerts@corp.lan", "Sm7-Tx2-Vq9", "smtp.corp.lan")',
    'ClientSecretCredential(tenant_id, client_id, "Az8Q~Kd2Lm5Vt9Wq3Xr7Np1Hs6Jb4Fc0Gy")',
    "smtp.login(SMTP_USER, 'Gm5-Vk8-Rw2')",
    // In a JSON string (a Write tool's content), the quotes escaped.
    '{"content": "Credentials = new NetworkCredential(\\"ops@corp.lan\\", \\"Yv0Lf3z6-Wo6cf\\")"}',
  ],
  falsePositives: [
    "ALTER USER DBT_PROD SET PASSWORD = :new_password;",
    // Variables, not literals.
    "client.login(args.user, args.password)",
    "passport.authenticate('local'); redis.auth(process.env.REDIS_PASSWORD); app.use(auth('jwt'))",
    'login("admin", "<your-password>")',
    'self.client.login("testuser", "testpass")',
    'cfg.setPassword(System.getenv("DB_PASSWORD"));',
    "ALTER USER app WITH PASSWORD NULL;",
    "new NetworkCredential(user, password)",
    'DriverManager.getConnection(url, props.user(), "changeme")',
    "ftp = FTP(host, user, os.environ['FTP_PASS'])",
    // A digest's algorithm and a hashed variable.
    "$sig = hash('sha256', $payload); $h = Hash::make($request->password);",
    "const digest = await bcrypt.hash(req.body.password, 10);",
    "await page.getByLabel('Password').fill(process.env.QA_PASSWORD!); cy.get('#password').type(pw)",
  ],
};

/**
 * Whether the text (lowercased) has XML elements, .NET `<add key=…>` settings, Terraform
 * variables, name/value pairs or Dockerfile `ENV` lines.
 */
export function mayHoldMarkup(lower: string): boolean {
  return lower.includes("</") || lower.includes("<add") || lower.includes("variable") ||
    lower.includes("value") || lower.includes("env ");
}

/** An element's text as a secret: no blank at either end, none of `<>`, one line. */
/** An element's text, or its CDATA section's (Magento's `local.xml`). */
const ELEMENT_TEXT =
  "(?:<!\\[CDATA\\[(?<secret>[^\\]\\n]{1,4096})\\]\\]>|(?<secret>[^<>\\s](?:[^<>\\n]{0,4094}[^<>\\s])?))";

/**
 * A value named apart from it, for a name that holds one of `words`: an XML
 * element (`<password>…</password>`), a .NET setting
 * (`<add key="DbPassword" value="…"/>`), a Terraform variable's default, a
 * Kubernetes, ECS or Render environment entry (`- name: DB_PASSWORD` or
 * `- key: …` then `value: …`, `{"name": "DB_PASSWORD", "value": "…"}`), a Dockerfile's
 * `ENV NAME value`.
 */
export function markupPattern(words: string): RegExp {
  // Every alternative starts at a literal, lookbehinds after it: a leading
  // lookbehind made V8 try every offset (the prefix mix: 5 → 2 ms/MiB).
  const name = `[\\w.:-]{0,40}?(?:${words})[\\w.-]{0,30}`;
  return new RegExp(
    // A property list's `<key>` holds a name, never a value; Magento's `<crypt><key>` holds its
    // encryption key, as CDATA.
    // Blanks around the value are the markup's, not the secret's.
    `<(?!key>(?!<!\\[CDATA\\[))(?<name>${name})(?:[ \\t][^<>\\n]{0,200})?>[ \\t]*${ELEMENT_TEXT}[ \\t]*</\\k<name>>` +
      // An element named for the secret with a `value` attribute: `<auth_token value="…"/>`.
      `|<(?<name>${name})[ \\t](?:[^<>\\n]{0,200}?[ \\t])?value=\\\\{0,3}(?<q>["'])(?<secret>[^"'<>\\\\\\n]{1,4096})\\\\{0,3}\\k<q>` +
      // Quotes may be escaped: the file inside a JSON string.
      // .NET's `<add key=… value=…>`, HTML's `<input name=… value=…>`, Spring's `<property name=… value=…>`.
      // Any element's `name=… value=…`, either way round; or its `name=…` and the value as its text.
      `|<(?<tag>[a-z][\\w:.-]{0,40})[ \\t](?:[^<>\\n]{0,200}?[ \\t])?` +
      `(?:(?:key|name)=\\\\{0,3}(?<q>["'])(?<name>${name})\\\\{0,3}\\k<q>` +
      `(?:(?:[ \\t][^<>\\n]{0,200}?)?[ \\t]value=\\\\{0,3}\\k<q>(?<secret>[^"'<>\\\\\\n]{1,4096})\\\\{0,3}\\k<q>` +
      `|[^<>\\n]{0,200}>[ \\t]*${ELEMENT_TEXT}[ \\t]*</\\k<tag>>)` +
      `|value=\\\\{0,3}(?<q>["'])(?<secret>[^"'<>\\\\\\n]{1,4096})\\\\{0,3}\\k<q>` +
      `(?:[ \\t][^<>\\n]{0,200}?)?[ \\t](?:key|name)=\\\\{0,3}\\k<q>(?<name>${name})\\\\{0,3}\\k<q>)` +
      `|\\bvariable[ \\t]+"(?<name>${name})"[ \\t]*\\{[^{}]{0,300}?\\bdefault[ \\t]*=[ \\t]*"(?<secret>[^"\\n]{1,4096})"` +
      // Also inside a JSON string: the line break written `\n`, the quotes escaped. Render's
      // blueprints say `key`.
      `|(?:name|key):(?<=(?<![\\w-])(?:name|key):)[ \\t]{0,4}(?:\\\\{0,3}["'])?(?<name>${name})(?:\\\\{0,3}["'])?[ \\t]{0,4}(?:\\r?\\n|\\\\n)[ \\t]{0,40}value:[ \\t]{0,4}` +
      `(?:\\\\{0,3}"(?<secret>[^"\\\\\\n]{1,4096})\\\\{0,3}"|'(?<secret>[^'\\n]{1,4096})'|(?<secret>[^\\s"'#\\\\][^\\s#\\\\]{0,4095}))` +
      // HCL's `set { name = "auth.adminPassword" value = "…" }`, also in a plan's diff (`- value = "…" -> null`).
      `|name(?<=(?<![\\w-])name)[ \\t]{0,16}=[ \\t]{0,4}"(?<name>${name})"[^\\n]{0,40}\\r?\\n[ \\t]{0,40}[-+~]?[ \\t]{0,4}value[ \\t]{0,16}=[ \\t]{0,4}"(?<secret>[^"\\n]{1,4096})"` +
      // Java's XMLEncoder (SQL Workbench's profiles) and Spring's beans: the value in an element
      // of its own, `<void property="password"><string>…</string>`, `<property name=…><value>…`.
      `|<(?:void|property)[ \\t](?:[^<>\\n]{0,200}?[ \\t])?(?:property|name)=\\\\{0,3}(?<q>["'])(?<name>${name})\\\\{0,3}\\k<q>[^<>\\n]{0,200}>` +
      `\\s{0,80}<(?:string|value)>(?<secret>[^<>\\n]{1,4096})</(?:string|value)>` +
      // Windows' answer files: `<AdministratorPassword><Value>…</Value>`, plain or base64.
      `|<(?<name>${name})>\\s{0,80}<value>(?<secret>[^<>\\n]{1,4096})</value>` +
      // A property list: `<key>NAME</key>` then `<string>VALUE</string>`, the Read tool's line
      // number between them.
      `|<key>(?<name>${name})</key>\\s{0,40}(?:\\d{1,7}→[ \\t]{0,8})?<string>(?<secret>[^<>\\n]{1,4096})</string>` +
      // `terraform output -json`: `"db_password": {"sensitive": true, "type": "string", "value": "…"}`.
      `|"(?<name>${name})"[ \\t]{0,4}:[ \\t]{0,4}\\{[^{}]{0,300}?"value"[ \\t]{0,4}:[ \\t]{0,4}"(?<secret>[^"\\\\\\n]{1,4096})"` +
      // `{"name": …, "value": …}`, other fields between them: Postman's environments say
      // `key`, 1Password's items `label`, SSM's parameters a path (`/prod/db/password`).
      `|"(?:name|key|label)\\\\{0,3}"[ \\t]{0,4}:[ \\t]{0,4}\\\\{0,3}"(?<name>[\\w.:/-]{0,80}?(?:${words})[\\w.-]{0,30})\\\\{0,3}"` +
      `(?:[ \\t]{0,4},[ \\t]{0,4}|[^{}[\\]]{0,400}?,\\s{0,40})` +
      `\\\\{0,3}"value\\\\{0,3}"[ \\t]{0,4}:[ \\t]{0,4}\\\\{0,3}"(?<secret>[^"\\\\\\n]{1,4096})\\\\{0,3}"` +
      `|(?:^|\\n)[ \\t]{0,40}ENV[ \\t]{1,8}(?<name>${name})[ \\t]{1,8}(?:"(?<secret>[^"\\n]{1,4096})"|(?<secret>[^\\s"'=][^\\s]{0,4095}))`,
    "dgi",
  );
}

/** Rejects values that are words of configuration, not secrets. */
export function notConfigWord(c: Candidate): string | undefined {
  return /^(?:true|false|null|nil|none|yes|no|on|off|required|optional)$/i.test(c.secret.trim())
    ? `config word ${c.secret}`
    : undefined;
}

/** A password in XML, a .NET setting or a Terraform variable's default. */
export const passwordMarkup: Rule = {
  id: "password_markup",
  description:
    "Password in markup: <password>…</password>, <add key=… value=…/>, a variable default",
  placeholder: "<PASSWORD>",
  keywords: PASSWORD_NAME_WORDS,
  precheck: (facts) => mayHoldMarkup(facts.lower),
  pattern: () => markupPattern(PASSWORD_NAME_WORD),
  secretGroup: "secret",
  priority: 450,
  validators: [
    nameSaysPassword,
    notConfigWord,
    // `aws ssm get-parameter`'s SecureString without `--with-decryption`: KMS ciphertext.
    notSealedCiphertext,
    function markupValue(c) {
      if (c.secret.length < 4) return `length ${c.secret.length} < 4`;
      if (/\s/.test(c.secret)) return passphraseProblem(c.secret);
      if (charClasses(c.secret) < 2 && c.secret.length < 10) return "one short character class";
      return placeholderProblem(c.secret);
    },
  ],
  allowlist: [],
  truePositives: [
    // Any element's name and value, either way round, or the value as its text.
    '<sometag name="db_password" value="tBvl72WCNi+T#-QjR" />',
    '<property name="hibernate.connection.password">0Mo_x!h+%CSZi1X</property>',
    "<the_password_tag> 0M0uy7r*OIv5v+uqUK </the_password_tag>",
    // HCL, in a plan's diff.
    '      - set {\n          - name  = "auth.adminPassword" -> null\n          - value = "Vq8-Rt3-Lm9x" -> null\n        }',
    "<key>SmtpPassword</key>\n<string>Kq8-Vx2-Lm7</string>",
    "<AutoLogon>\n  <Password>\n    <Value>Kiosk77#Vq2mT</Value>\n    <PlainText>true</PlainText>\n  </Password>",
    '<void property="password">\n    <string>velvet@dragon10G</string>\n   </void>',
    '<property name="password">\n  <value>Tq8-Lm3-Vx7</value>\n</property>',
    '{\n  "db_master_password": {\n    "sensitive": true,\n    "type": "string",\n    "value": "Hq8%^x5.f%QbRt"\n  }\n}',
    '<bean id="ds"><property name="password" value="Tq8-Lm3-Vx7"/></bean>',
    // A manifest inside a Write tool's JSON arguments.
    '{"content": "env:\\n  - name: DB_PASSWORD\\n    value: \\"Kq8!Wm2_Lx7\\"\\n"}',
    "<smtp>\n  <password>Hq7$Lm2-Rv9</password>\n</smtp>",
    '<add key="DbPassword" value="Tz8!Kq3Wm" />',
    'variable "admin_password" {\n  type    = string\n  default = "Wq5-Lp8-Rz2"\n}',
    "env:\n  - name: DB_PASSWORD\n    value: Kp2-Wd7-Lx4",
    '{"name": "DB_PASS", "value": "Kp2-Wd7-Lx4"}',
    "ENV DB_PASS Kp2-Wd7-Lx4",
    // Other fields between the name and the value: 1Password's items, SSM's parameters.
    '[{\n  "id": "password",\n  "type": "CONCEALED",\n  "label": "password",\n  "value": "WdHs%Nk7yeEV0BeGvy#y"\n}]',
    '{"Parameter": {"Name": "/prod/db/password", "Type": "SecureString", "Value": "Hq7-Vm2!Lx9"}}',
  ],
  falsePositives: [
    "<AdministratorPassword>\n  <Value>*SENSITIVE*DATA*DELETED*</Value>\n  <PlainText>true</PlainText>",
    // An SSM SecureString read without decryption: KMS ciphertext.
    '{"Parameter": {"Name": "/orders/prod/db_password", "Type": "SecureString", "Value": "AQICAHhQm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1Op3As5Df7Gh9Jk1Lz4Xc8Vb2Nm6Qw0Er5Ty9Ui3Op7As1Df5Gh9Jk2Lz5Xc9Vb3Nm7Qw1Er6Ty0Ui4Op8As2Df6Gh0Jk=="}}',
    '<label name="password">Password</label>',
    '<span name="password_hint">Use 12 characters or more</span>',
    '      + set {\n          + name  = "auth.adminPassword"\n          + value = (sensitive value)\n        }',
    "<password>${LDAP_PASSWORD}</password>",
    "<passwordPolicy>strict</passwordPolicy>",
    "<requirePassword>true</requirePassword>",
    "<keystorePassword>changeit</keystorePassword>",
    'env:\n  - name: DB_PASSWORD\n    value: "$(DB_PASSWORD)"',
    "ENV PASSWORD_MIN_LENGTH 12",
    '{"name": "password_min_length", "type": "int", "value": "12"}',
    '[{"name": "db_password", "type": "string"}, {"name": "region", "value": "ap-southeast-1"}]',
  ],
};

/**
 * Netlify's `Basic-Auth` header rule (`_headers`, `netlify.toml`): one or more
 * `user:password` pairs, each password in clear.
 */
export const basicAuthHeaderPairs: Rule = {
  id: "basic_auth_header_pairs",
  description:
    "Passwords of Netlify's Basic-Auth header rule (user:password pairs in _headers or netlify.toml)",
  placeholder: "<PASSWORD>",
  keywords: ["basic-auth"],
  pattern: () =>
    new RegExp(
      // Starts at a pair's colon and looks back for the rule and the pairs before it.
      ":(?<=(?<![\\w-])Basic-Auth[\"']?[ \\t]{0,8}[:=][ \\t]{0,8}[\"']?(?:[^\\s:\"']{1,100}:[^\\s\"']{1,200}[ \\t]{1,8}){0,20}[^\\s:\"']{1,100}:)" +
        "(?<secret>[^\\s\"']{1,200})",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    notPlaceholder,
    (c) => c.secret.length < 4 ? `length ${c.secret.length} < 4` : undefined,
  ],
  allowlist: [],
  truePositives: [
    "/*\n  X-Frame-Options: DENY\n  Basic-Auth: preview:G0Vhxi!rJYBH client-review:sV1EMIKJ3l9#\n",
    '[[headers]]\n  for = "/*"\n  [headers.values]\n    Basic-Auth = "team:Wq8-Lt3-Rv7"',
  ],
  falsePositives: [
    "Basic-Auth: preview:${PREVIEW_PASSWORD}",
    "Netlify's Basic-Auth: header takes user:password pairs",
  ],
};

/**
 * ESP-IDF's NVS partition CSV (`key,type,encoding,value`): a row whose key
 * says password (`wifi_pass`) or names a Wi-Fi pre-shared key (`psk`) holds
 * it in clear.
 */
export const nvsCsvPassword: Rule = {
  id: "nvs_csv_password",
  description: "Password or Wi-Fi PSK in an ESP-IDF NVS partition CSV row (psk,data,string,VALUE)",
  placeholder: "<PASSWORD>",
  keywords: [",data,string,"],
  startsAtKeyword: true,
  pattern: () =>
    // A row may follow an escaped line break (`\\n`) in a command's JSON.
    // Starts at the row's literal and looks back for its key: a leading class made V8 try every offset.
    /,data,string,(?<=(?:(?<=\\n)|(?<![\w.\\-]))(?<name>[\w.-]{1,40}),data,string,)(?<secret>[^,\s\\"']{1,4000})/dg,
  secretGroup: "secret",
  priority: 450,
  validators: [
    function nameSaysPasswordOrPsk(c) {
      const name = c.groups["name"] ?? "";
      return /(?:^|[_.-])psk$/i.test(name) ? undefined : passwordNameProblem(name);
    },
    notPlaceholder,
  ],
  allowlist: [],
  truePositives: [
    "key,type,encoding,value\nwifi,namespace,,\nssid,data,string,Warehouse-IoT\npsk,data,string,98qh7ZqvsUn2Rq_IS\n",
    "wifi_pass,data,string,Lotus-8812-harbor",
  ],
  falsePositives: [
    "ssid,data,string,Warehouse-IoT\nmqtt_uri,data,string,mqtts://mq.lan:8883",
    "psk,data,string,CHANGE_ME",
  ],
};

/**
 * PgBouncer's `auth_file` (`userlist.txt`): a user and its password, each
 * in double quotes, a line each. A SCRAM secret or an `md5` hash there is
 * what the server stores, not the password.
 */
export const pgbouncerUserlist: Rule = {
  id: "pgbouncer_userlist",
  description:
    'Password in a PgBouncer userlist.txt line ("user" "password"), not its SCRAM or md5 hash',
  placeholder: "<PASSWORD>",
  keywords: ["userlist"],
  pattern: () =>
    // Starts at the value's quote and looks back for the line's user.
    /"(?<=(?:^|\n)[ \t]{0,8}"[\w.@-]{1,64}"[ \t]{1,8}")(?<secret>[^"\s][^"\n]{0,200})"[ \t]*(?=\r?\n|$)/dg,
  secretGroup: "secret",
  priority: 450,
  validators: [
    function notStoredHash(c) {
      return /^(?:SCRAM-SHA-256\$|md5[0-9a-f]{32}$)/.test(c.secret) ? "the stored hash" : undefined;
    },
    notPlaceholder,
    function typed(c) {
      return passwordShapeProblem(c.secret);
    },
  ],
  allowlist: [],
  truePositives: [
    '==> /etc/pgbouncer/userlist.txt <==\n"orders_app" "Kq8-Vx2mLz7RtW"\n"stats" "md5a3f1c9e07b2d4a6e8c5f0b1d2e3a4c5f"',
  ],
  falsePositives: [
    '# userlist.txt\n"admin" "SCRAM-SHA-256$4096:c2FsdA==$c3RvcmVkS2V5:c2VydmVyS2V5"\n"app" "md5a3f1c9e07b2d4a6e8c5f0b1d2e3a4c5f"',
  ],
};

/** A word each of {@linkcode APP_PASSWORD_WORDS}' names holds. */
const APP_PASSWORD_HINTS = [
  "passwor",
  "contrase",
  "senha",
  "mot de passe",
  "mật khẩu",
  "パスワード",
  "密码",
  "비밀번호",
];

/** Words that name an app password (Google's, Apple's, Microsoft's) in the languages the prose rules read. */
const APP_PASSWORD_WORDS =
  /app(?:lication)?[ -]?(?:specific[ -])?passwor[dt]|app[ -]passwort|contrase(?:ñ|n)a de (?:aplicaci(?:ó|o)n|app)|senha (?:de|do) (?:app|aplicativo|aplicação)|mot de passe d'application|password (?:per le |dell')?app|mật khẩu (?:ứng dụng|app)|アプリ ?パスワード|应用专用密码|앱 비밀번호/i;

/** Four-letter words of English prose: random groups seldom hold two of them. */
const FOUR_LETTER_WORDS =
  "then that this with have will your from when what been into over more some time just like must " +
  "pass word mail once next days care they them than also only each make made here there were well " +
  "back down even give good long look many most much need open same show such take used very want " +
  "work year code user sent name date last keep send";

/**
 * An app password (Google's four groups of four lowercase letters, also
 * joined) after words that name one: `contraseña de aplicación: xosg ltsr
 * vyxc zhwn`. Mail clients and SMTP relays log in with it in place of the
 * account's password.
 */
export const appPassword: Rule = {
  id: "app_password",
  description:
    "App password (four groups of four letters) after words that name one, in eight languages",
  placeholder: "<PASSWORD>",
  // The CJK names hold a word the prose rules ask for already (`パスワード`, `密码`, `비밀번호`):
  // a keyword of a script byte pairs cannot rule out costs every long text a search.
  keywords: [
    "app",
    "aplica",
    "passwort",
    "application",
    "ứng dụng",
    "パスワード",
    "密码",
    "비밀번호",
  ],
  // Every name holds one of these words: the whole text is searched for the names only then.
  precheck: (facts) =>
    APP_PASSWORD_HINTS.some((word) => facts.lower.includes(word)) &&
    APP_PASSWORD_WORDS.test(facts.lower),
  pattern: () =>
    /(?<![A-Za-z])(?<secret>[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}|[a-z]{16})(?![A-Za-z])/dg,
  secretGroup: "secret",
  priority: 440,
  validators: [
    function namedAnAppPassword(c) {
      // The words stand on the same line or just before it.
      const before = c.text.slice(
        Math.max(0, c.start - (c.secret.includes(" ") ? 200 : 60)),
        c.start,
      );
      return APP_PASSWORD_WORDS.test(before) ? undefined : "no app password named before";
    },
    notPlaceholder,
    function notWords(c) {
      // `abcd efgh ijkl mnop`, `your xxxx xxxx`: letters in order or words of a sentence.
      const groups = c.secret.includes(" ") ? c.secret.split(" ") : [];
      if (groups.filter((group) => inWordList(FOUR_LETTER_WORDS, group)).length >= 2) {
        return "words of a sentence";
      }
      return /abcd|efgh|ijkl|mnop|wxyz/.test(c.secret) ? "letters in order" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "La cuenta es martina@gmail.com y Google me dio esta contraseña de aplicación: xosg ltsr vyxc zhwn",
    "- Contraseña de aplicación (la generé ayer en la cuenta de Google): xfbp wfsm mmkf ubkq",
    "App-Passwort für Thunderbird erstellt → qwhtrmzkpvlsdnby",
  ],
  falsePositives: [
    "Generate an app password; it looks like abcd efgh ijkl mnop and is shown once.",
    "the app password must then be pasted into the mail client with care over the next days",
  ],
};

/** The password family. */
export const password: Rule[] = [
  passwordAssignment,
  passwordFlagAttached,
  passwordFlagToken,
  passwordHelmSet,
  passwordPgpass,
  passwordProse,
  passwordProseAbroad,
  passwordSlashPair,
  envFallbackSecret,
  passwordContinued,
  passwordCommand,
  passwordCall,
  passwordMarkup,
  passwordToolFlag,
  passwordPhraseLine,
  passwordProsePhrase,
  pgbouncerUserlist,
  passwordDslLine,
  terraformRandomPassword,
  nagiosResourceMacro,
  pentestCredential,
  basicAuthHeaderPairs,
  nvsCsvPassword,
  appPassword,
];
