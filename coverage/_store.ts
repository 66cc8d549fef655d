/**
 * What the store captured, per session, as far as coverage needs it: the prompt ids, the tool call
 * ids with their outcomes, and the times of the Stop rows. Opens the store read-only and reads only
 * those fields (`json_extract`), so row kinds this version does not know are simply not asked for.
 *
 * @module
 */

import { openReadOnlyDatabase } from "../lib/sqlite.ts";
import { ROW_KINDS } from "../lib/kinds.ts";

/** A session the store has rows of. */
export interface StoredSession {
  /** Claude Code's session id. */
  sessionId: string;
  /** The working directory of its first row (unset when no row names one). */
  cwd: string | undefined;
  /** When its first row was captured, ms since the epoch. */
  firstMs: number;
  /** When its last row was captured, ms since the epoch. */
  lastMs: number;
}

/** One session's captured events. */
export interface CapturedEvents {
  /** `prompt_id` of every prompt row that has one. */
  promptIds: Set<string>;
  /** `tool_use_id` of every tool row that has one, with its outcome. */
  toolCalls: Map<string, string>;
  /** `captured_at_ns` of every Stop row, as ms since the epoch, ascending. */
  stopsMs: number[];
}

/** A read-only view of the store. */
export interface CoverageStore {
  /** Every session with at least one row, oldest first. */
  sessions(): StoredSession[];
  /** What the store captured of one session. */
  captured(sessionId: string): CapturedEvents;
  /** Closes the database. */
  close(): void;
}

/**
 * Opens the store read-only.
 *
 * @throws {Deno.errors.NotFound} when there is no store at `path`
 */
export function openCoverageStore(path: string): CoverageStore {
  const db = openReadOnlyDatabase(path);
  const eventsOf = db.prepare(
    `SELECT kind, CAST(captured_at_ns AS TEXT) AS captured,
            json_extract(payload, '$.prompt_id') AS prompt_id,
            json_extract(payload, '$.tool_use_id') AS tool_use_id,
            json_extract(payload, '$.outcome') AS outcome
       FROM rows WHERE session_id = ? AND kind IN (?, ?, ?) ORDER BY seq`,
  );
  return {
    sessions() {
      const rows = db.prepare(
        `SELECT session_id, MIN(cwd) AS cwd, CAST(MIN(captured_at_ns) AS TEXT) AS first,
                CAST(MAX(captured_at_ns) AS TEXT) AS last
           FROM rows GROUP BY session_id ORDER BY MIN(seq)`,
      ).all() as { session_id: string; cwd: string | null; first: string; last: string }[];
      return rows.map((row) => ({
        sessionId: row.session_id,
        cwd: row.cwd ?? undefined,
        firstMs: Number(row.first) / 1e6,
        lastMs: Number(row.last) / 1e6,
      }));
    },
    captured(sessionId) {
      const rows = eventsOf.all(
        sessionId,
        ROW_KINDS.prompt,
        ROW_KINDS.toolUse,
        ROW_KINDS.sessionCompleted,
      ) as {
        kind: string;
        captured: string;
        prompt_id: unknown;
        tool_use_id: unknown;
        outcome: unknown;
      }[];
      const events: CapturedEvents = { promptIds: new Set(), toolCalls: new Map(), stopsMs: [] };
      for (const row of rows) {
        if (row.kind === ROW_KINDS.prompt && typeof row.prompt_id === "string") {
          events.promptIds.add(row.prompt_id);
        } else if (row.kind === ROW_KINDS.toolUse && typeof row.tool_use_id === "string") {
          events.toolCalls.set(row.tool_use_id, String(row.outcome));
        } else if (row.kind === ROW_KINDS.sessionCompleted) {
          events.stopsMs.push(Number(row.captured) / 1e6);
        }
      }
      events.stopsMs.sort((a, b) => a - b);
      return events;
    },
    close() {
      db.close();
    },
  };
}
