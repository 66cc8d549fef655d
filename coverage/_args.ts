/**
 * `coverage`'s command line: `[--session ID] [--since TIME] [-h|--help]`.
 *
 * @module
 */

import { SESSION_ID } from "./_find.ts";

/** The usage text `--help` prints. */
export const USAGE = `usage: deno task coverage [--session ID] [--since TIME]

Compares what Claude Code's own transcripts record (prompts, tool calls, turns) with what the
store captured, per session, and lists what is missing. Exit 0 when everything is captured,
1 when anything is missing or the store cannot be read, 2 on bad usage.

  --session ID   only this session (its id, or a prefix of it that names one session)
  --since TIME   only sessions active since TIME, and only their events since TIME:
                 an ISO time (2026-12-01, 2026-12-01T14:00:00Z) or an age (30m, 2h, 7d)
  -h, --help     this text

Reads the store ($CYBEROS_MEMORY_DB, else $XDG_DATA_HOME or ~/.local/share/cyberos-memory)
and Claude Code's projects folder ($CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects);
prints ids, tool names, outcomes and times, never a prompt or a tool's input or output.`;

/** Parsed arguments. */
export interface CoverageArgs {
  /** Print the usage and stop. */
  help: boolean;
  /** A session id or id prefix. */
  session: string | undefined;
  /** Only what happened at or after this time, ms since the epoch. */
  sinceMs: number | undefined;
}

/** Bad usage: the message names the argument and the fix. */
export class UsageError extends Error {
  /** The one-line message, without the `cyberos-memory coverage:` prefix. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

const AGE = /^([1-9][0-9]{0,5})(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * Parses the arguments; `nowMs` anchors ages such as `2h`.
 *
 * @throws {UsageError} on an unknown flag, a missing value or a value that does not parse
 */
export function parseCoverageArgs(args: readonly string[], nowMs: number): CoverageArgs {
  const parsed: CoverageArgs = { help: false, session: undefined, sinceMs: undefined };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-h" || arg === "--help") parsed.help = true;
    else if (arg === "--session") {
      const value = args[++i];
      if (value === undefined || !SESSION_ID.test(value)) {
        throw new UsageError(
          `--session needs a session id or a prefix of one (letters, digits, - and _), got "${
            printableArg(value)
          }"`,
        );
      }
      parsed.session = value;
    } else if (arg === "--since") {
      parsed.sinceMs = parseSince(args[++i], nowMs);
    } else {
      throw new UsageError(
        `unknown argument "${printableArg(arg)}"; use --session ID, --since TIME or --help`,
      );
    }
  }
  return parsed;
}

function parseSince(value: string | undefined, nowMs: number): number {
  const age = AGE.exec(value ?? "");
  if (age) return nowMs - Number(age[1]) * UNIT_MS[age[2] as keyof typeof UNIT_MS];
  if (
    value !== undefined && /^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9:]+)?)?$/.test(value)
  ) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw new UsageError(
    `--since needs an ISO time (2026-12-01T14:00:00Z) or an age (30m, 2h, 7d), got "${
      printableArg(value)
    }"`,
  );
}

function printableArg(value: string | undefined): string {
  // deno-lint-ignore no-control-regex
  return (value ?? "").replace(/[\x00-\x1f\x7f-\x9f]/g, "?").slice(0, 80);
}
