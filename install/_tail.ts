/**
 * `tail [-n N] [--session ID] [--json]`: the last rows of the store. Pretty by
 * default, one line a row (time, kind, short session, summary), consecutive
 * identical tool runs folded into one line with ×N, colours only on a
 * terminal; `--json` prints each row object `{seq, kind, payload, prev_hash,
 * hash}` on its own line, oldest first.
 *
 * @module
 */

import { ROW_KINDS } from "../lib/kinds.ts";
import { describeLifecycleRow, lifecycleShortKind } from "../lib/lifecycle.ts";
import { resolvePaths } from "../lib/paths.ts";
import type { StoredRow } from "../lib/rows.ts";
import { openStore } from "../lib/store.ts";
import { UserError } from "./_files.ts";

/** Parsed `tail` arguments. */
export interface TailArgs {
  /** How many rows (before folding). */
  limit: number;
  /** Only this session's rows. */
  sessionId: string | undefined;
  /** One JSON row a line. */
  json: boolean;
}

/**
 * Parses `tail`'s arguments.
 *
 * @throws {UserError} on an unknown option or a bad count.
 */
export function parseTailArgs(args: readonly string[]): TailArgs {
  const parsed: TailArgs = { limit: 20, sessionId: undefined, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--json") parsed.json = true;
    else if (arg === "-n") {
      const value = args[++i] ?? "";
      if (!/^[1-9][0-9]{0,6}$/.test(value)) {
        throw new UserError(`-n needs a positive count, got "${value}"`);
      }
      parsed.limit = Number(value);
    } else if (arg === "--session") {
      const value = args[++i];
      if (!value) throw new UserError("--session needs a session id");
      parsed.sessionId = value;
    } else throw new UserError(`unexpected argument "${arg}"; use -n N, --session ID or --json`);
  }
  return parsed;
}

/** Options for {@linkcode formatRows}. */
export interface FormatRowsOptions {
  /** Colour with ANSI escapes. */
  color: boolean;
}

/** One readable line per row, consecutive identical tool runs folded with ×N. */
export function formatRows(rows: readonly StoredRow[], options: FormatRowsOptions): string[] {
  const paint = options.color
    ? (code: number, text: string) => `\x1b[${code}m${text}\x1b[0m`
    : (_code: number, text: string) => text;
  const lines: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let runs = [row];
    if (row.kind === ROW_KINDS.toolUse) {
      while (i + 1 < rows.length && sameToolRun(row, rows[i + 1]!)) runs = [...runs, rows[++i]!];
    }
    const p = row.payload;
    const time = paint(2, formatTime(p.captured_at_ns, { date: false }));
    const session = paint(2, String(p.session_id ?? "").slice(0, 8).padEnd(8));
    lines.push(`${time}  ${kindLabel(row, paint)}  ${session}  ${summary(runs, paint)}`);
  }
  return lines;
}

/** The kind of a row as a short word (`prompt`, `tool`, `turn`, `redaction`). */
export function shortKind(kind: string): string {
  switch (kind) {
    case ROW_KINDS.prompt:
      return "prompt";
    case ROW_KINDS.toolUse:
      return "tool";
    case ROW_KINDS.sessionCompleted:
      return "turn";
    default:
      return lifecycleShortKind(kind) ?? "redaction";
  }
}

/** Options for {@linkcode formatTime}. */
export interface FormatTimeOptions {
  /** Include the date (`YYYY-MM-DD HH:MM:SS`); otherwise `HH:MM:SS`. */
  date: boolean;
}

/** A `captured_at_ns` value as local time. */
export function formatTime(capturedAtNs: unknown, options: FormatTimeOptions): string {
  const ms = Number(capturedAtNs) / 1e6;
  if (!Number.isFinite(ms)) return "?";
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  const clock = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  if (!options.date) return clock;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${clock}`;
}

/** A one-line description of a row (or a folded run of identical tool uses). */
export function summary(
  runs: readonly StoredRow[],
  paint: (code: number, text: string) => string = (_code, text) => text,
): string {
  const row = runs[0]!;
  const p = row.payload;
  switch (row.kind) {
    case ROW_KINDS.prompt: {
      const text = String(p.prompt_redacted ?? "");
      const firstLine = text.split("\n", 1)[0]!.trim();
      const lines = text.split("\n").length;
      const source = p.prompt_source ? ` (${p.prompt_source})` : "";
      return `${clip(firstLine, 100)}${lines > 1 ? ` (+${lines - 1} lines)` : ""}${source}`;
    }
    case ROW_KINDS.toolUse: {
      const outcomes = new Set(runs.map((run) => run.payload.outcome));
      const outcome = outcomes.size === 1 ? String(p.outcome) : "mixed";
      const colour = outcome === "success" ? 32 : outcome === "error" ? 31 : 33;
      const durations = runs.map((run) => run.payload.duration_ms).filter((d) =>
        typeof d === "number"
      ) as number[];
      const duration = durations.length === 0
        ? ""
        : ` ${formatDuration(durations.reduce((a, b) => a + b, 0) / durations.length)}`;
      const times = runs.length > 1 ? ` ×${runs.length}` : "";
      const error = typeof p.error === "string" && outcome !== "success"
        ? `: ${clip(p.error, 80)}`
        : "";
      return `${String(p.tool_name)} ${paint(colour, outcome)}${duration}${times}${error}`;
    }
    case ROW_KINDS.sessionCompleted:
      return `turn done: ${p.prompt_count} prompts, ${p.tool_use_count} tool uses, ${
        formatDuration(Number(p.duration_ms))
      } since the session's first row`;
    default:
      return describeLifecycleRow(row.kind, p) ??
        paint(31, `redaction failed, nothing stored: ${clip(String(p.error ?? ""), 80)}`);
  }
}

/**
 * Runs `tail`; returns the lines to print.
 *
 * @throws {UserError} for bad arguments or a missing store.
 */
export function runTail(
  args: readonly string[],
  env: (name: string) => string | undefined,
): string[] {
  const parsed = parseTailArgs(args);
  let db: string;
  try {
    db = resolvePaths(env).db;
  } catch (error) {
    throw new UserError((error as Error).message);
  }
  let store;
  try {
    store = openStore(db, { readOnly: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UserError(
        `${db}: no store yet; start the daemon (deno task start) and use Claude Code in an installed project`,
      );
    }
    throw new UserError(`${db}: cannot open the store: ${(error as Error).message}`);
  }
  let rows: StoredRow[];
  try {
    rows = store.lastRows({
      limit: parsed.limit,
      ...(parsed.sessionId === undefined ? {} : { sessionId: parsed.sessionId }),
    });
  } finally {
    store.close();
  }
  if (parsed.json) return rows.map((row) => JSON.stringify(row));
  const color = Deno.stdout.isTerminal() && !Deno.noColor;
  return formatRows(rows, { color });
}

function sameToolRun(a: StoredRow, b: StoredRow): boolean {
  return b.kind === ROW_KINDS.toolUse && a.payload.tool_name === b.payload.tool_name &&
    a.payload.tool_args_hash === b.payload.tool_args_hash &&
    a.payload.session_id === b.payload.session_id;
}

function kindLabel(row: StoredRow, paint: (code: number, text: string) => string): string {
  const label = shortKind(row.kind).padEnd(9);
  const colour = row.kind === ROW_KINDS.prompt
    ? 36
    : row.kind === ROW_KINDS.sessionCompleted
    ? 35
    : row.kind === ROW_KINDS.toolUse
    ? 34
    : 31;
  return paint(colour, label);
}

function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function clip(text: string, max: number): string {
  // Control characters (escape sequences above all) must not reach the terminal.
  // deno-lint-ignore no-control-regex
  const line = text.replace(/[\x00-\x1f\x7f]/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
