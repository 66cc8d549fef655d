/**
 * Where a text holds a column of personal ids (citizen ids, US social
 * security numbers): in a table the id context is the column's header,
 * however many rows below it a value sits. Each kind of column
 * ({@linkcode CITIZEN_ID_COLUMN}, {@linkcode SSN_COLUMN}) is read on its
 * own (also {@linkcode PASSWORD_COLUMN} and {@linkcode SECRET_COLUMN}). Four shapes
 * are read:
 *
 * - a CSV, TSV, `;`- or `|`-separated table whose header line names an id
 *   column (`so_cccd`, `cmnd`, `national_id`, `căn cước`…): that column's
 *   cells, row by row, until a blank line or a row of another width;
 * - an SQL `INSERT INTO t (…, national_id, …) VALUES (…), (…)`: that
 *   column's cell in every row;
 * - a JSON key naming an id column whose value is an array or an object
 *   (`"so_cccd": ["…", "…"]`, pandas' `{"cccd": {"0": "…"}}`): the whole
 *   value;
 * - a table aligned with blanks (pandas' `head()`, `psql`): a value under
 *   a header that names an id column in the same block of lines
 *   ({@linkcode underAlignedIdHeader}, asked per candidate, bounded).
 *
 * Text inside a JSON string (a hook payload's file content) has its line
 * breaks and quotes escaped (`\n`, `\"`), and is read the same way.
 *
 * Each text is read once per kind, in linear time (each line at most
 * twice), and only when some candidate lacks nearby context; the cells of
 * the last text read are kept, since the validator asks for each candidate.
 *
 * @module
 */

/** A kind of id column: what names one, and the cells last read. */
export interface IdColumnKind {
  /** What names such a column (lowercase or not: the pattern ignores case). */
  readonly name: RegExp;
  /** {@linkcode name}, global, to find the names in a text, made when first asked. */
  names?: RegExp;
  /** A header's whole word holding the name (`so_cccd`), made when first asked. */
  header?: RegExp;
  /** Whether a JSON key naming such a column makes its array or object a column (`"cccd": […]`). */
  readonly containers: boolean;
  /**
   * What a header's cell must be whole (blanks left out), when a name inside
   * a longer one names no such column (`Token` does, `CLOUDFLARE_API_TOKEN`
   * in a table's first column does not); a rule line (`|---|`, `+---+`) must
   * then follow the header too.
   */
  readonly wholeName?: RegExp;
  /** The text last read, and what it holds. */
  cachedText?: string;
  cached: IdColumns;
}

/** A kind of id column named by `name` (see {@linkcode IdColumnKind} for the options). */
export function idColumnKind(
  name: RegExp,
  options: { containers?: boolean; wholeName?: RegExp } = {},
): IdColumnKind {
  const { containers = true, wholeName } = options;
  return {
    name,
    containers,
    ...(wholeName === undefined ? {} : { wholeName }),
    cached: { cells: [], tables: [] },
  };
}

/** Columns of Vietnamese citizen ids (CCCD, CMND) and national ids. */
export const CITIZEN_ID_COLUMN: IdColumnKind = idColumnKind(
  /cccd|cmnd|căn[ _]?cước|can[ _]?cuoc|định[ _]?danh|dinh[ _]?danh|chứng[ _]?minh|chung[ _]?minh|national[ _-]?id|citizen[ _-]?id|id[ _-]?number|identity[ _-]?(?:number|no|card)|id[ _-]?card/i,
);

/**
 * Columns of passwords (`Mật khẩu`, `password`, `pwd`) in a table a person
 * wrote or a tool printed; a JSON key naming a password holds a value, not
 * a column (and a template's `password: {{ … }}` holds neither).
 */
export const PASSWORD_COLUMN: IdColumnKind = idColumnKind(
  /passw|passphrase|mật[ _]?khẩu|mat[ _]?khau|(?<![a-z])(?:pwd|pw|pass)(?![a-z])|contraseña|senha|passwort|kennwort|mot[ _]de[ _]passe|パスワード/i,
  { containers: false },
);

/**
 * Columns of other secrets (`Secret`, `Token`, `API key`, `Credential`) in a
 * table a person wrote or a tool printed: a column of a table, as for
 * passwords, not a JSON key's value.
 */
export const SECRET_COLUMN: IdColumnKind = idColumnKind(
  /secret|token|api[ _-]?key|access[ _-]?key|credential|khóa[ _]?bí[ _]?mật/i,
  {
    containers: false,
    wholeName:
      /^(?:[a-z]+[_-]?)?(?:secret|token|api[_-]?key|access[_-]?key|credentials?|khóabímật)(?:[_-]?(?:value|key))?$/i,
  },
);

/** Columns of US social security numbers (`ssn`, `applicantSsn`, `social_security_no`; not `classname`). */
export const SSN_COLUMN: IdColumnKind = idColumnKind(
  /(?<![a-z])ssn|ssn(?![a-z])|social[ _-]?security|soc[ _.-]?sec(?![a-z])/i,
);

/** Lines longer than this are no table rows (and bound every scan of a line). */
const MAX_LINE = 4096;

/** Column names longer than this are no header. */
const MAX_NAME = 64;

/** Spans found in one text, each list sorted by start and never overlapping. */
export interface IdColumns {
  /** Cells of id columns, and values of JSON keys naming one. */
  cells: Array<[start: number, end: number]>;
  /** Rows of the tables that have an id column (SQL statements, CSV bodies). */
  tables: Array<[start: number, end: number]>;
}

/**
 * Why `[start, end)` stands in no id column of `kind`, or `undefined` when
 * it does: a cell of such a column, or a value under its header in an
 * aligned table. `what` names the id in the reasons (`an SSN`).
 */
export function idColumnProblem(
  text: string,
  start: number,
  end: number,
  kind: IdColumnKind,
  what: string,
): string | undefined {
  const place = idColumnPlace(text, start, end, kind);
  if (place === "id") return undefined;
  if (place === "other") return `another column of a table with ${what} column`;
  return underAlignedIdHeader(text, start, end, kind)
    ? undefined
    : `no ${what} named nearby, nor ${what} column`;
}

/**
 * Where `[start, end)` lies among the id columns of `kind` in `text` (see
 * the module comment for the shapes read): `"id"` inside a cell of one,
 * `"other"` in another column of a table that has one, `undefined` outside
 * such tables.
 *
 * @example
 * ```ts
 * const csv = "ho_ten,so_cccd\nAn,079203001234\nBinh,001199004321";
 * idColumnPlace(csv, 34, 46); // "id"
 * ```
 */
export function idColumnPlace(
  text: string,
  start: number,
  end: number,
  kind: IdColumnKind = CITIZEN_ID_COLUMN,
): "id" | "other" | undefined {
  if (text !== kind.cachedText) kind.cached = idColumns(text, kind);
  // Kept even when equal: the next call then compares one string with
  // itself, which costs nothing, where two equal copies compare in full.
  kind.cachedText = text;
  if (within(kind.cached.cells, start, end)) return "id";
  return within(kind.cached.tables, start, end) ? "other" : undefined;
}

/** Whether `[start, end)` lies inside one of `spans` (sorted, never overlapping). */
function within(
  spans: ReadonlyArray<readonly [number, number]>,
  start: number,
  end: number,
): boolean {
  // The last span starting at or before `start`.
  let low = 0;
  let high = spans.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (spans[mid]![0] <= start) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found >= 0 && end <= spans[found]![1];
}

/** The id columns of `kind` in `text`, read once. */
function idColumns(text: string, kind: IdColumnKind): IdColumns {
  const found: IdColumns = { cells: [], tables: [] };
  const statements = sqlInsertCells(text, found, kind);
  headerCells(text, found, statements, kind);
  found.cells.sort((a, b) => a[0] - b[0]);
  found.tables.sort((a, b) => a[0] - b[0]);
  return found;
}

/**
 * The columns of `names` that name an id of `kind`: every one whose name
 * ends with the id's name (`ssn` and `spouse_ssn`, not `national_id_type`,
 * nor `password_expired`), else the first that holds it; none when no name
 * does.
 */
function idColumnsOf(names: readonly string[], kind: IdColumnKind): number[] {
  const ending: number[] = [];
  let first = -1;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!.replace(/\\[nrt]|[\s"'`\\[\]]/g, "");
    if (name.length > MAX_NAME) continue;
    const m = kind.name.exec(name);
    if (m === null || (kind.wholeName !== undefined && !kind.wholeName.test(name))) continue;
    // The word the name is in, to its end (`passw` in `password`).
    let end = m.index + m[0].length;
    while (end < name.length && /\p{L}/u.test(name[end]!)) end++;
    if (end >= name.replace(/[\d_.-]+$/, "").length) ending.push(i);
    else if (first < 0) first = i;
  }
  if (ending.length > 0) return ending;
  return first < 0 ? [] : [first];
}

/** Whether a line is a table's rule (`+------+----+`, `|---|---|`). */
function isRuleLine(line: string): boolean {
  return /^[ \t|+:=-]*-{3}[ \t|+:=-]*$/.test(line);
}

/**
 * Skips whitespace, real or escaped (`\n`, `\r`, `\t` inside a JSON string),
 * and the Read tool's line numbers (`     5→`).
 */
function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text[at];
    if (c === " " || c === "\n" || c === "\r" || c === "\t") at++;
    else if (c === "\\" && (text[at + 1] === "n" || text[at + 1] === "r" || text[at + 1] === "t")) {
      at += 2;
    } else if (c !== undefined && c >= "0" && c <= "9" && text[at - 1] === " ") {
      let end = at;
      while (end < at + 7 && text[end]! >= "0" && text[end]! <= "9") end++;
      if (text[end] !== "→") return at;
      at = end + 1;
    } else return at;
  }
}

const INSERT_INTO = /insert\s+(?:ignore\s+)?into\s+[^\s(]{1,128}\s*\(/gi;

/**
 * Adds the id cells of every `INSERT INTO t (…) VALUES (…), …` of `text`
 * to `found`; returns the statements' spans, flattened, so the header pass
 * skips them.
 */
function sqlInsertCells(text: string, found: IdColumns, kind: IdColumnKind): number[] {
  const statements: number[] = [];
  if (!/insert/i.test(text)) return statements;
  INSERT_INTO.lastIndex = 0;
  // The first `)` at or after the last list's start: reused while ahead, so
  // text of many unclosed lists is searched once, not once per list.
  let close = -1;
  let closeFrom = Infinity;
  let m: RegExpExecArray | null;
  while ((m = INSERT_INTO.exec(text)) !== null) {
    const listStart = m.index + m[0].length;
    if (listStart < closeFrom || (close >= 0 && close < listStart)) {
      close = text.indexOf(")", listStart);
      closeFrom = listStart;
    }
    if (close < 0) break;
    const listEnd = close;
    if (listEnd - listStart > MAX_LINE) continue;
    const columns = idColumnsOf(text.slice(listStart, listEnd).split(","), kind);
    if (columns.length === 0) continue;
    let at = skipSpace(text, listEnd + 1);
    if (text.slice(at, at + 6).toLowerCase() !== "values") continue;
    at = skipSpace(text, at + 6);
    while (text[at] === "(") {
      const rowEnd = tupleCells(text, at, columns, found.cells);
      if (rowEnd < 0) break;
      at = skipSpace(text, rowEnd);
      if (text[at] !== ",") break;
      at = skipSpace(text, at + 1);
    }
    statements.push(m.index, at);
    found.tables.push([m.index, at]);
    INSERT_INTO.lastIndex = Math.max(INSERT_INTO.lastIndex, at);
  }
  return statements;
}

/**
 * Adds the cells `columns` of the tuple opening at `open` to `spans`;
 * returns the offset past its closing `)`, or -1 when it does not close
 * within a line's length. A quote between two letters is an apostrophe
 * (`'O'Brien'`, pasted without SQL's doubling), not a string's end: no
 * closing quote is followed by a letter.
 */
function tupleCells(
  text: string,
  open: number,
  columns: readonly number[],
  spans: Array<[number, number]>,
): number {
  let depth = 0;
  let quoted = false;
  let index = 0;
  let cellStart = open + 1;
  const limit = Math.min(text.length, open + MAX_LINE);
  for (let at = open; at < limit; at++) {
    const c = text[at];
    if (quoted) {
      if (c === "'" && !(isLetterAt(text, at - 1) && isLetterAt(text, at + 1))) quoted = false;
    } else if (c === "'") {
      quoted = true;
    } else if (c === "(") {
      depth++;
    } else if (c === ")" || (c === "," && depth === 1)) {
      if (c === ")" && --depth > 0) continue;
      if (columns.includes(index)) spans.push([cellStart, at]);
      index++;
      cellStart = at + 1;
      if (c === ")") return at + 1;
    }
  }
  return -1;
}

/** Whether the character at `at` is a letter (of any script). */
function isLetterAt(text: string, at: number): boolean {
  const c = text[at];
  return c !== undefined && /\p{L}/u.test(c);
}

/** The length of the line break at `at` (`\n`, `\r\n`, or the escaped `\n`, `\r\n`), or 0. */
function breakAt(text: string, at: number): number {
  const c = text[at];
  if (c === "\n") return 1;
  if (c === "\r") return text[at + 1] === "\n" ? 2 : 1;
  if (c !== "\\") return 0;
  const next = text[at + 1];
  if (next === "n") return 2;
  if (next === "r") return text[at + 2] === "\\" && text[at + 3] === "n" ? 4 : 2;
  return 0;
}

/**
 * Where the line starting at `from` ends: at a line break, at the text's
 * end, or (in `escaped` text) at a bare `"` closing the JSON string; -1 when
 * that is more than {@linkcode MAX_LINE} away.
 */
function lineEnd(text: string, from: number, escaped: boolean): number {
  const limit = Math.min(text.length, from + MAX_LINE);
  for (let at = from; at < limit; at++) {
    if (breakAt(text, at) > 0) return at;
    if (escaped && text[at] === '"' && text[at - 1] !== "\\") return at;
  }
  return limit === text.length ? limit : -1;
}

/**
 * Where the line holding `at` starts, looking back no further than `floor`
 * (in `escaped` text a bare `"` opening the JSON string starts it too); -1
 * when not found.
 */
function lineStart(text: string, at: number, floor: number, escaped: boolean): number {
  for (let i = at - 1; i >= floor; i--) {
    if (text[i] === "\n" || text[i] === "\r") return i + 1;
    if ((text[i] === "n" || text[i] === "r") && text[i - 1] === "\\") return i + 1;
    if (escaped && text[i] === '"' && text[i - 1] !== "\\") return i + 1;
  }
  return floor === 0 ? 0 : -1;
}

/**
 * The cells of one line split at `delimiter` outside quotes, as offsets.
 * With `doubled`, `||` is one delimiter: Jira's and Confluence's wiki
 * markup writes a header row `|| Host || Password ||` over `| a | b |`.
 */
function splitCells(
  text: string,
  from: number,
  to: number,
  delimiter: string,
  doubled = false,
): number[] {
  const bounds = [from];
  let quoted = false;
  for (let at = from; at < to; at++) {
    const c = text[at];
    if (c === '"') quoted = !quoted;
    else if (c === delimiter && !quoted) {
      const width = doubled && text[at + 1] === delimiter ? 2 : 1;
      bounds.push(at, at + width);
      at += width - 1;
    }
  }
  bounds.push(to);
  return bounds;
}

/** The delimiter a header line uses most, of `,`, `;`, tab and `|`; undefined for none. */
function delimiterOf(line: string): string | undefined {
  let best: string | undefined;
  let most = 0;
  for (const delimiter of [",", ";", "\t", "|"]) {
    const n = line.split(delimiter).length - 1;
    if (n > most) [best, most] = [delimiter, n];
  }
  return best;
}

const JSON_CONTAINER = /\w*\\?["']?\s*:\s*[[{]/y;

/**
 * Adds the id cells of the tables whose header line names an id column, and
 * the values of JSON keys naming one, to `found`; names inside `statements`
 * (already read as SQL) are skipped.
 */
function headerCells(
  text: string,
  found: IdColumns,
  statements: readonly number[],
  kind: IdColumnKind,
): void {
  let done = 0;
  let statement = 0;
  // Made when first asked: four at load cost every hook run 0.1 ms.
  const names = kind.names ??= new RegExp(kind.name.source, "gi");
  names.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = names.exec(text)) !== null) {
    const at = m.index;
    if (at < done) {
      names.lastIndex = done;
      continue;
    }
    while (statement < statements.length && statements[statement + 1]! <= at) statement += 2;
    if (statement < statements.length && statements[statement]! <= at) {
      done = statements[statement + 1]!;
      continue;
    }
    JSON_CONTAINER.lastIndex = at + m[0].length;
    if (kind.containers && JSON_CONTAINER.test(text)) {
      const open = JSON_CONTAINER.lastIndex - 1;
      const close = containerEnd(text, open);
      found.cells.push([open, close]);
      done = close;
      continue;
    }
    done = tableCells(text, at, found, kind);
  }
}

/** The offset past the bracket closing the one at `open` (strings not read: ids hold no brackets). */
function containerEnd(text: string, open: number): number {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    const c = text[at];
    if (c === "[" || c === "{") depth++;
    else if ((c === "]" || c === "}") && --depth === 0) return at + 1;
  }
  return text.length;
}

/**
 * Reads the line holding the id column name at `at` as a table's header
 * and adds the id cells of the rows below it, and the rows, to `found`; returns the
 * offset where reading stopped (no name before it is read again).
 */
function tableCells(text: string, at: number, found: IdColumns, kind: IdColumnKind): number {
  const end = lineEnd(text, at, false);
  // A line too long to be a header: no name before its end is one either.
  if (end < 0) return at + MAX_LINE;
  const escaped = text[end] === "\\";
  const start = lineStart(text, at, Math.max(0, at - MAX_LINE), escaped);
  if (start < 0) return end;
  const header = text.slice(start, end);
  const delimiter = delimiterOf(header);
  if (delimiter === undefined || /\d{12}/.test(header)) return end;
  const bounds = splitCells(
    text,
    start,
    end,
    delimiter,
    delimiter === "|" && header.includes("||"),
  );
  // A row below another of the table's rows is a body row, whatever its cells say
  // (`| Smtp:Password | "" |` under `| Setting | … |`).
  if (start > 0 && !escaped) {
    const above = text.lastIndexOf("\n", start - 2) + 1;
    const previous = text.slice(above, start - 1);
    if (
      !/^[ \t|+:=-]*$/.test(previous) &&
      splitCells(text, above, start - 1, delimiter).length === bounds.length
    ) return end;
  }
  const names: string[] = [];
  for (let i = 0; i < bounds.length; i += 2) names.push(text.slice(bounds[i], bounds[i + 1]));
  const columns = idColumnsOf(names, kind);
  if (columns.length === 0 || names.some((name) => name.trim().length > MAX_NAME)) return end;
  let row = end + breakAt(text, end);
  if (kind.wholeName !== undefined && !isRuleLine(text.slice(row, lineEnd(text, row, escaped)))) {
    return end;
  }
  let bodyEnd = end;
  for (;;) {
    const rowEnd = lineEnd(text, row, escaped);
    if (rowEnd <= row) break;
    // A rule between rows (`+------+----+`, `|---|---|`) belongs to the table.
    if (isRuleLine(text.slice(row, rowEnd))) {
      const next = breakAt(text, rowEnd);
      if (next === 0) break;
      row = rowEnd + next;
      continue;
    }
    const cells = splitCells(text, row, rowEnd, delimiter);
    if (cells.length !== names.length * 2) break;
    for (const column of columns) found.cells.push([cells[2 * column]!, cells[2 * column + 1]!]);
    bodyEnd = rowEnd;
    const next = breakAt(text, rowEnd);
    if (next === 0) break;
    row = rowEnd + next;
  }
  if (bodyEnd > end) found.tables.push([end, bodyEnd]);
  return bodyEnd;
}

/** Lines an aligned table's header may stand above a value, and the characters they may span. */
const ALIGNED_MAX_LINES = 40;
const ALIGNED_MAX_CHARS = 4096;

/**
 * Whether the value at `[start, end)` stands under a header naming an id
 * column in a table aligned with blanks (pandas' `head()`, `psql`, `docker
 * ps`): a line above, in the same block of lines, whose id-column name
 * overlaps the value's columns. Bounded, so linear however many values a
 * text holds.
 */
export function underAlignedIdHeader(
  text: string,
  start: number,
  end: number,
  kind: IdColumnKind = CITIZEN_ID_COLUMN,
): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const from = start - lineStart;
  const to = end - lineStart;
  let lineEnd = lineStart - 1;
  for (let lines = 0; lines < ALIGNED_MAX_LINES && lineEnd > 0; lines++) {
    if (start - lineEnd > ALIGNED_MAX_CHARS) return false;
    const previousStart = text.lastIndexOf("\n", lineEnd - 1) + 1;
    const line = text.slice(previousStart, lineEnd);
    if (line.trim() === "") return false;
    kind.header ??= new RegExp(`[\\w.]*(?:${kind.name.source})[\\w.]*`, "gi");
    for (const found of line.matchAll(kind.header)) {
      const nameEnd = found.index + found[0].length;
      if (found.index < to && nameEnd > from) return true;
    }
    lineEnd = previousStart - 1;
  }
  return false;
}
