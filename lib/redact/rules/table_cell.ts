/**
 * Secrets in tables: passwords in a table's password column (a Markdown or
 * pipe table handed over in a prompt, `| staging | pg-stg | app |
 * \`syI6…\` |`, an ASCII table a tool prints with pipes on both sides of
 * each cell, a CSV inventory; the column's header says password, however
 * many rows below it the cell sits, see `_id_columns.ts`), and a row that
 * names its secret in its first cell (`| \`SMTP_PASSWORD\` | worker |
 * \`E2sb…\` |`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { notPlaceholder, passwordShapeProblem } from "../_validators.ts";
import { NAMED_VALUE_CHECKS } from "./generic_key.ts";
import { type IdColumnKind, idColumnPlace, PASSWORD_COLUMN, SECRET_COLUMN } from "./_id_columns.ts";

/** Each cell between pipes, a code span's backticks left out. */
const PIPE_CELL = () => /\|[ \t]*`?(?<secret>[^|\s`][^|`\n]{0,198}[^|\s`])`?[ \t]*(?=\|)/dg;

/**
 * Each cell between pipes, and each unquoted CSV cell after a comma (an
 * inventory's `host,ip,root_password` rows; a first column holds names).
 */
const PIPE_OR_CSV_CELL = () =>
  new RegExp(
    PIPE_CELL().source +
      String.raw`|,(?<secret>[^,\s"'\\][^,\n"\\]{0,198}[^,\s"'\\]|[^,\s"'\\])(?=,|\r?\n|$)`,
    "dg",
  );

/** The checks of a cell of a `kind` column: in one, set, and one word. */
function cellChecks(kind: IdColumnKind, what: string): Rule["validators"] {
  return [
    function inColumn(c) {
      return idColumnPlace(c.text, c.start, c.end, kind) === "id"
        ? undefined
        : `not in a ${what} column`;
    },
    notPlaceholder,
    function looksSet(c) {
      return /\s/.test(c.secret) ? `words, not a ${what}` : passwordShapeProblem(c.secret);
    },
  ];
}

/** A cell of a pipe table under a header that names a password column. */
export const passwordTableCell: Rule = {
  id: "password_table_cell",
  description:
    "Password in a cell of a table's password column (Markdown, ASCII and wiki tables, CSV)",
  placeholder: "<PASSWORD>",
  keywords: [
    "pass",
    "pwd",
    "mật khẩu",
    "mat khau",
    "contraseña",
    "senha",
    "kennwort",
    "パスワード",
  ],
  // Pipes or commas, and a name of a password column somewhere: the column map is built only then.
  precheck: (facts) =>
    (facts.text.includes("|") || facts.text.includes(",")) &&
    PASSWORD_COLUMN.name.test(facts.text),
  pattern: PIPE_OR_CSV_CELL,
  secretGroup: "secret",
  priority: 440,
  validators: cellChecks(PASSWORD_COLUMN, "password"),
  allowlist: [],
  truePositives: [
    "| Môi trường | Host | User | Mật khẩu |\n|---|---|---|---|\n| staging | pg-stg.noibo.local | app_stg | `syI6jF!yfupWWc` |\n| prod (RO) | pg-prod-ro | readonly | `!!R!a2B39xPPXkgn` |",
    // A CSV inventory, and Confluence's wiki table with its `||` header.
    "hostname,ip,ssh_user,root_password,owner\nhn-app-01,10.1.2.11,root,Kq8.Lm2-Wx9,Lam\nhn-db-01,10.1.2.21,root,Rt5!Vz8Qw2,Quan",
    "|| Role || Login || Mật khẩu ||\n| Admin | qa.admin | Vx7-Lq2!Rm9 |",
  ],
  falsePositives: [
    "| Môi trường | Host | User | Mật khẩu |\n|---|---|---|---|\n| prod (RW) | pg-prod | — | hỏi chị Hạnh |\n| dev | pg-dev | dev | ${DEV_PG_PASSWORD} |",
    "| service | port | note |\n|---|---|---|\n| api | 8080 | Kq7-Zr2-Vn9 rotated |",
    // A template's pipes.
    "  password: {{ .Values.auth.password | b64enc | quote }}",
    "user,password_changed_at,password_expires\nan,2025-01-04,2025-04-04\nbinh,2025-02-11,never",
  ],
};

/** A cell of a pipe table under a header that names a column of secrets (not passwords). */
export const secretTableCell: Rule = {
  id: "secret_table_cell",
  description:
    "Secret in a cell of a pipe table's Secret, Token, API key or Credential column (Markdown, ASCII tables)",
  placeholder: "<SECRET>",
  keywords: ["secret", "token", "api key", "api_key", "apikey", "access key", "credential", "khóa"],
  precheck: (facts) => facts.text.includes("|") && SECRET_COLUMN.name.test(facts.text),
  pattern: PIPE_CELL,
  secretGroup: "secret",
  priority: 435,
  validators: cellChecks(SECRET_COLUMN, "secret"),
  allowlist: [],
  truePositives: [
    "| Service | User | Secret |\n|---|---|---|\n| RabbitMQ | `orders` | `Wq8zR2mVt5Lx9Kp3Hd7c` |\n| Datadog | – | `3f9a1c7e5b2d8f4a6c0e9b1d3f5a7c2e` |",
    "+---------+----------------------------------+\n| name    | token                            |\n+---------+----------------------------------+\n| ci-bot  | Zx7Kq2Wv9Lp4Rt8Mn3Bc6Hd1Jf5Gs0Ya |\n+---------+----------------------------------+",
  ],
  falsePositives: [
    "| Secret | Where it lives | Rotated |\n|---|---|---|\n| `STRIPE_KEY` | Vault `kv/pay` | 2024-05-01 |\n| DB password | SSM `/prod/db` | never |",
    "| Token type | Lifetime |\n|---|---|\n| access | 15 min |\n| refresh | 30 days |",
    "| API key | Status |\n|---|---|\n| ${STRIPE_SECRET_KEY} | missing |",
  ],
};

/**
 * A Markdown table's row that names a secret in its first cell and gives
 * its value, as code, in a later one: what an assistant writes when it
 * lists a file's variables (`| \`SMTP_PASSWORD\` | worker | \`E2sb…\` |`).
 */
export const namedRowSecret: Rule = {
  id: "named_row_secret",
  description:
    "Secret in a Markdown table row whose first cell names it (| `SMTP_PASSWORD` | … | `value` |)",
  placeholder: "<SECRET>",
  keywords: ["|"],
  precheck: (facts) => facts.text.includes("| `"),
  pattern: () =>
    // Starts at the row's first cell, a name in backticks; the value is the first cell in
    // backticks after it.
    /\|(?<=(?:^|\n|\\n)[ \t]{0,8}\|)[ \t]*`(?<name>[A-Za-z_][\w.-]{1,60})`[ \t]*\|(?:[^|`\n]{0,80}\|){0,4}[ \t]*`(?<secret>[^`|\s]{8,512})`[ \t]*\|/dg,
  secretGroup: "secret",
  priority: 430,
  validators: NAMED_VALUE_CHECKS,
  allowlist: [],
  truePositives: [
    "| Variable | Service | Value in your file | Notes |\n|---|---|---|---|\n| `SMTP_HOST` | worker | `smtp-relay.brevo.com` | |\n| `SMTP_PASSWORD` | worker | `E2sbWsZ8ppEzNa17` | move it |",
  ],
  falsePositives: [
    "| `PASSWORD_MIN_LENGTH` | `12` |\n| `API_KEY` | required | `string` |\n| `QUEUE_URL` | worker | `${REDIS_URL}/2` |",
  ],
};

/**
 * A row of two cells whose first names a secret in words and whose second
 * is its value: what a CLI prints for a key it made (`| API Key | BCFY… |`,
 * `| API Secret | Z1Fq… |`).
 */
export const namedPairRow: Rule = {
  id: "named_pair_row",
  description:
    "Secret in a table row of two cells, the first naming it in words (| API Secret | value |)",
  placeholder: "<SECRET>",
  keywords: ["key", "secret", "token", "password"],
  precheck: (facts) =>
    /[|║│][ \t]*[A-Za-z][\w .-]{0,40}(?:key|secret|token|password)[ \t]*[|│]/i.test(facts.text),
  // Pipes, or the box-drawing lines `railway variables` prints (`║ NAME │ value ║`).
  pattern: () =>
    /[|║│](?<=(?:^|\n|\\n)[ \t]{0,8}[|║│])[ \t]*(?<name>[A-Za-z][\w.-]{0,30}(?: [\w.-]{1,30}){0,3})[ \t]*[|│][ \t]*(?<secret>[^`|║│\s]{8,512})[ \t]*[|║│][ \t]*(?=\r?\n|\\[rn]|$)/dg,
  secretGroup: "secret",
  priority: 430,
  validators: NAMED_VALUE_CHECKS,
  allowlist: [],
  truePositives: [
    "+------------+------------------------------------------+\n| API Key    | KQ7ZV2PX9MRT4WLD                         |\n| API Secret | q8Zr4Lm2Vn7Xc1Tb6Yk9Hs3Jd5Fg0Wp2Ae4Rt/Xy |\n+------------+------------------------------------------+",
    '{"stdout": "| API Key    | KQ7ZV2PX9MRT4WLD |\\n| API Secret | q8Zr4Lm2Vn7Xc1Tb6Yk9Hs3Jd5Fg0Wp2Ae4Rt/Xy |\\n"}',
    "║ RAILWAY_ENVIRONMENT  │ production                                        ║\n║ SESSION_SECRET       │ 9c41e7a2b05d38f6c1a4e9b7d2f05a83c6e1b94d7a2f05c8 ║",
  ],
  falsePositives: [
    "| Setting | Value |\n|---|---|\n| Token lifetime | 3600 |\n| API key header | X-Api-Key |\n| Secret store | vault-prod-01 |",
  ],
};
