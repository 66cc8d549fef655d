/**
 * `tail [-n N] [--session ID] [--project DIR] [--kind KIND] [--since TIME]
 * [--json] [--follow]`: the last rows of the store. Pretty by default, one
 * line a row (date and time, kind, short session, project, summary),
 * consecutive identical tool runs folded into one line with ×N, colours only
 * on a terminal; `--json` prints each row object `{seq, kind, payload,
 * prev_hash, hash}` on its own line, oldest first. `--follow` then polls the
 * store read-only and prints rows as the daemon commits them, until SIGINT.
 *
 * Every field passes through `printable` (`jsonLine` for `--json`): a
 * `tool_name`, a prompt or a path may hold escape sequences.
 *
 * @module
 */

import { type CommandLine, EXIT, optionValue, UsageError, writeLines } from "../lib/cli.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { describeLifecycleRow, lifecycleShortKind } from "../lib/lifecycle.ts";
import { resolveDbPath } from "../lib/paths.ts";
import type { StoredRow } from "../lib/rows.ts";
import { type LastRowsOptions, openStore, type Store } from "../lib/store.ts";
import { jsonLine, printable } from "../lib/terminal.ts";
import { UserError } from "./_files.ts";

/** Parsed `tail` arguments. */
export interface TailArgs {
  /** How many rows (before folding). */
  limit: number;
  /** Only sessions whose id starts with this. */
  sessionPrefix: string | undefined;
  /** Only rows captured in this folder or below it (absolute). */
  project: string | undefined;
  /** Only rows of this kind (a `ROW_KINDS` value). */
  kind: string | undefined;
  /** Only rows captured at or after this time, ms since the epoch. */
  sinceMs: number | undefined;
  /** One JSON row a line. */
  json: boolean;
  /** Keep printing new rows. */
  follow: boolean;
}

/** The `--kind` words and the row kinds they name. */
export const KIND_WORDS: Readonly<Record<string, string>> = {
  prompt: ROW_KINDS.prompt,
  tool: ROW_KINDS.toolUse,
  turn: ROW_KINDS.sessionCompleted,
  redaction: ROW_KINDS.redactionFailed,
};

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * A `--since` value as ms since the epoch: `10m`, `2h`, `1d`, `30s` ago, or
 * an ISO date or date-time (`2026-12-01`, `2026-12-01T14:30`, `…Z`; without
 * a zone, local time).
 *
 * @throws {UsageError} for anything else.
 */
export function parseSince(value: string, nowMs: number): number {
  const relative = /^([1-9][0-9]{0,6})([smhd])$/.exec(value);
  if (relative) return nowMs - Number(relative[1]) * UNIT_MS[relative[2]!]!;
  const iso =
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
  if (iso.test(value)) {
    // A bare date is UTC to Date.parse; the user means their own midnight.
    const ms = Date.parse(value.length === 10 ? `${value}T00:00` : value.replace(" ", "T"));
    if (Number.isFinite(ms)) return ms;
  }
  throw new UsageError(
    `--since needs a time such as 10m, 2h, 1d, 2026-12-01 or 2026-12-01T14:30, got "${value}"`,
  );
}

/**
 * Reads `tail`'s options from a parsed command line.
 *
 * @throws {UsageError} on a bad count, kind or time.
 */
export function tailArgs(
  line: CommandLine,
  options: { nowMs: number; cwd: string },
): TailArgs {
  const count = optionValue(line, "-n");
  if (count !== undefined && !/^[1-9][0-9]{0,6}$/.test(count)) {
    throw new UsageError(`-n needs a positive count, got "${count}"`);
  }
  const kindWord = optionValue(line, "--kind");
  if (kindWord !== undefined && !Object.hasOwn(KIND_WORDS, kindWord)) {
    throw new UsageError(
      `--kind needs one of ${Object.keys(KIND_WORDS).join(", ")}, got "${kindWord}"`,
    );
  }
  const since = optionValue(line, "--since");
  const project = optionValue(line, "--project");
  return {
    limit: count === undefined ? 20 : Number(count),
    sessionPrefix: optionValue(line, "--session"),
    project: project === undefined ? undefined : absoluteFolder(project, options.cwd),
    kind: kindWord === undefined ? undefined : KIND_WORDS[kindWord],
    sinceMs: since === undefined ? undefined : parseSince(since, options.nowMs),
    json: line.options.has("--json"),
    follow: line.options.has("--follow"),
  };
}

function absoluteFolder(path: string, cwd: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
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
    const time = paint(2, formatTime(p.captured_at_ns, { date: true }));
    const session = paint(2, printable(String(p.session_id ?? "")).slice(0, 8).padEnd(8));
    const project = paint(2, clip(projectName(p.cwd), 20).padEnd(20));
    lines.push(
      `${time}  ${kindLabel(row, paint)}  ${session}  ${project}  ${summary(runs, paint)}`,
    );
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

/** The last folder name of a row's `cwd` (`?` when it has none). */
function projectName(cwd: unknown): string {
  if (typeof cwd !== "string" || cwd === "") return "?";
  const trimmed = cwd.length > 1 && cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || "/";
}

/** `1 prompt`, `2 prompts`. */
export function countOf(count: unknown, noun: string): string {
  const n = Number(count);
  return `${Number.isFinite(n) ? n : "?"} ${n === 1 ? noun : `${noun}s`}`;
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
      const source = p.prompt_source ? ` (${clip(String(p.prompt_source), 40)})` : "";
      const more = lines > 1 ? ` (+${countOf(lines - 1, "line")})` : "";
      return `${clip(firstLine, 100)}${more}${source}`;
    }
    case ROW_KINDS.toolUse: {
      const outcomes = new Set(runs.map((run) => run.payload.outcome));
      const outcome = outcomes.size === 1 ? clip(String(p.outcome), 20) : "mixed";
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
      return `${clip(String(p.tool_name), 80)} ${
        paint(colour, outcome)
      }${duration}${times}${error}`;
    }
    case ROW_KINDS.sessionCompleted:
      return `turn done: ${countOf(p.prompt_count, "prompt")}, ${
        countOf(p.tool_use_count, "tool use")
      }, ${formatDuration(Number(p.duration_ms))} since the session's first row`;
    default:
      return describeLifecycleRow(row.kind, p) ??
        paint(31, `redaction failed, nothing stored: ${clip(String(p.error ?? ""), 80)}`);
  }
}

/** How often `--follow` looks for new rows. */
const FOLLOW_POLL_MS = 250;

/**
 * Runs `tail`: prints the rows, then with `--follow` keeps printing new ones
 * until SIGINT; returns the exit code.
 *
 * @throws {UserError} for a missing store or an unknown session.
 * @throws {UsageError} for bad options or an ambiguous session prefix.
 */
export async function runTail(
  line: CommandLine,
  env: (name: string) => string | undefined,
): Promise<number> {
  const parsed = tailArgs(line, { nowMs: Date.now(), cwd: env("INIT_CWD") || Deno.cwd() });
  let db: string;
  try {
    db = resolveDbPath(env);
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
  try {
    const filters: Omit<LastRowsOptions, "limit"> = {
      ...(parsed.sessionPrefix === undefined
        ? {}
        : { sessionId: resolveSession(store, parsed.sessionPrefix) }),
      ...(parsed.project === undefined ? {} : { cwdWithin: parsed.project }),
      ...(parsed.kind === undefined ? {} : { kind: parsed.kind }),
      ...(parsed.sinceMs === undefined ? {} : { sinceNs: sinceNs(parsed.sinceMs) }),
    };
    const color = Deno.stdout.isTerminal() && !Deno.noColor;
    const show = (rows: StoredRow[]) =>
      writeLines(
        Deno.stdout,
        parsed.json ? rows.map((row) => jsonLine(row)) : formatRows(rows, { color }),
      );
    const rows = store.lastRows({ limit: parsed.limit, ...filters });
    show(rows);
    if (!parsed.follow) return EXIT.done;
    await follow(store, {
      afterSeq: rows.at(-1)?.seq ?? store.count(),
      filters,
      show,
    });
    return EXIT.done;
  } finally {
    store.close();
  }
}

/** The largest time SQLite's 64-bit integers hold in ns (April 2262). */
const MAX_NS = 2n ** 63n - 1n;

/** A time in ms as ns, capped at what the store can compare. */
function sinceNs(ms: number): bigint {
  const ns = BigInt(Math.floor(ms)) * 1_000_000n;
  return ns > MAX_NS ? MAX_NS : ns < 0n ? 0n : ns;
}

/** The one session id starting with `prefix`. */
function resolveSession(store: Store, prefix: string): string {
  const ids = store.sessionIdsStartingWith(prefix, 6);
  if (ids.length === 1) return ids[0]!;
  if (ids.length === 0) {
    throw new UserError(`no session id starts with "${printable(prefix)}" in the store`);
  }
  const shown = ids.slice(0, 5).map(printable).join(", ");
  throw new UsageError(
    `--session "${printable(prefix)}" matches ${
      ids.length > 5 ? "more than 5" : ids.length
    } sessions (${shown}${ids.length > 5 ? ", …" : ""}); give more of the id`,
  );
}

/** Prints rows committed after `afterSeq`, polling read-only, until SIGINT or SIGTERM. */
async function follow(
  store: Store,
  options: {
    afterSeq: number;
    filters: Omit<LastRowsOptions, "limit">;
    show: (rows: StoredRow[]) => void;
  },
): Promise<void> {
  let afterSeq = options.afterSeq;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => stop = resolve);
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  try {
    while (true) {
      // Every row after the last one seen, filtered or not, moves the mark on.
      const newest = store.count();
      if (newest > afterSeq) {
        let batch;
        do {
          batch = store.firstRows({ limit: 1000, ...options.filters, afterSeq });
          options.show(batch);
          afterSeq = batch.at(-1)?.seq ?? afterSeq;
        } while (batch.length === 1000);
        afterSeq = Math.max(afterSeq, newest);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const tick = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), FOLLOW_POLL_MS);
      });
      const more = await Promise.race([tick, stopped.then(() => false)]);
      clearTimeout(timer);
      if (!more) return;
    }
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, stop);
  }
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
  const line = printable(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
