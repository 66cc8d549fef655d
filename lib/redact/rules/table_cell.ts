/**
 * Passwords in a table's password column: a Markdown or pipe table handed
 * over in a prompt (`| staging | pg-stg | app | \`syI6…\` |`), or an ASCII
 * table a tool prints with pipes on both sides of each cell. The column's
 * header says password, however many rows below it the cell sits (see
 * `_id_columns.ts`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { notPlaceholder, passwordShapeProblem } from "../_validators.ts";
import { idColumnPlace, PASSWORD_COLUMN } from "./_id_columns.ts";

/** A cell of a pipe table under a header that names a password column. */
export const passwordTableCell: Rule = {
  id: "password_table_cell",
  description: "Password in a cell of a pipe table's password column (Markdown, ASCII tables)",
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
  // Pipes, and a name of a password column somewhere: the column map is built only then.
  precheck: (facts) => facts.text.includes("|") && PASSWORD_COLUMN.name.test(facts.text),
  // Each cell between pipes, a code span's backticks left out.
  pattern: () => /\|[ \t]*`?(?<secret>[^|\s`][^|`\n]{0,198}[^|\s`])`?[ \t]*(?=\|)/dg,
  secretGroup: "secret",
  priority: 440,
  validators: [
    function inPasswordColumn(c) {
      return idColumnPlace(c.text, c.start, c.end, PASSWORD_COLUMN) === "id"
        ? undefined
        : "not in a password column";
    },
    notPlaceholder,
    function looksSet(c) {
      return /\s/.test(c.secret) ? "words, not a password" : passwordShapeProblem(c.secret);
    },
  ],
  allowlist: [],
  truePositives: [
    "| Môi trường | Host | User | Mật khẩu |\n|---|---|---|---|\n| staging | pg-stg.noibo.local | app_stg | `syI6jF!yfupWWc` |\n| prod (RO) | pg-prod-ro | readonly | `!!R!a2B39xPPXkgn` |",
  ],
  falsePositives: [
    "| Môi trường | Host | User | Mật khẩu |\n|---|---|---|---|\n| prod (RW) | pg-prod | — | hỏi chị Hạnh |\n| dev | pg-dev | dev | ${DEV_PG_PASSWORD} |",
    "| service | port | note |\n|---|---|---|\n| api | 8080 | Kq7-Zr2-Vn9 rotated |",
    // A template's pipes.
    "  password: {{ .Values.auth.password | b64enc | quote }}",
  ],
};
