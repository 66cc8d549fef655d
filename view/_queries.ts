/**
 * The view's read-only queries over the store: sessions with their counts,
 * one session's rows a page at a time, one row, and the rows in chain order
 * for verification. The database is opened read-only, so nothing here can
 * change it; every row kind is accepted, including kinds newer than this code.
 *
 * @module
 */

import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { openReadOnlyDatabase, PreparedStatements } from "../lib/sqlite.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import type { ChainColumns } from "../lib/chain.ts";
import { META_KEYS, readCheckpoints, type StoredCheckpoint } from "../lib/store.ts";

/** Which sessions to list. */
export interface SessionFilter {
  /** Only sessions with a row whose `cwd` is this folder or inside it. */
  project?: string;
  /** Only sessions with a row captured at or after this time (ms since the epoch). */
  sinceMs?: number;
  /** Only sessions with a row captured before this time (ms since the epoch). */
  untilMs?: number;
  /** Only sessions with a row of this kind. */
  kind?: string;
  /** Only sessions whose redacted text contains this (ASCII letters case-insensitive). */
  search?: string;
  /** Only sessions whose newest row is older than this `seq` (the next page). */
  beforeSeq?: number;
  /** Only this session. */
  sessionId?: string;
  /** How many sessions at most. */
  limit: number;
}

/** One session as the list shows it. */
export interface SessionSummary {
  /** The session id. */
  sessionId: string;
  /** The `cwd` of the session's first row that has one. */
  project: string | null;
  /** The first row's capture time, ms since the epoch. */
  startedMs: number;
  /** The last row's capture time, ms since the epoch. */
  endedMs: number;
  /** Prompt rows. */
  prompts: number;
  /** Tool-use rows. */
  toolCalls: number;
  /** Tool uses that failed, and rows whose redaction failed. */
  failures: number;
  /** Secrets and personal numbers redacted from the prompts. */
  redactions: number;
  /** All rows of the session. */
  rows: number;
  /** The newest row's `seq`. */
  lastSeq: number;
}

/** A stored row for display, any kind. */
export interface ViewRow {
  /** Position in the chain. */
  seq: number;
  /** The row kind (possibly one this code does not know). */
  kind: string;
  /** The session id column. */
  sessionId: string;
  /** Capture time, ms since the epoch. */
  capturedMs: number;
  /** The payload, parsed. */
  payload: Record<string, unknown>;
  /** The previous row's hash. */
  prevHash: string;
  /** This row's hash. */
  hash: string;
}

interface RawViewRow {
  seq: number;
  kind: string;
  session_id: string;
  captured_ms: number;
  payload: string;
  prev_hash: string;
  hash: string;
}

const VIEW_ROW_COLUMNS =
  "seq, kind, session_id, captured_at_ns / 1000000 AS captured_ms, payload, prev_hash, hash";

/** The text a search looks in: prompts, assistant messages, error lines, tool names. */
const SEARCHED_TEXT = `lower(COALESCE(json_extract(payload, '$.prompt_redacted'), '') || ' ' ||
  COALESCE(json_extract(payload, '$.last_assistant_message_redacted'), '') || ' ' ||
  COALESCE(json_extract(payload, '$.error'), '') || ' ' ||
  COALESCE(json_extract(payload, '$.tool_name'), '') || ' ' ||
  COALESCE(json_extract(payload, '$.subject'), ''))`;

/** The store, opened read-only for the view. */
export class ViewStore {
  readonly #db: DatabaseSync;
  readonly #statements: PreparedStatements;

  /** Wraps a read-only database; use {@linkcode openViewStore}. */
  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#statements = new PreparedStatements(db);
  }

  /**
   * Sessions matching `filter`, the most recently active first. Two steps, so
   * a page costs the same in a store of any size: the page's session ids come
   * from the session index (and, for a filter, one pass over plain columns),
   * then only those sessions' rows are counted, JSON and all.
   */
  sessions(filter: SessionFilter): SessionSummary[] {
    return this.#sessionIds(filter).map((sessionId) => this.#summary(sessionId));
  }

  #sessionIds(filter: SessionFilter): string[] {
    const where: string[] = [];
    const having: string[] = [];
    const whereParams: SQLInputValue[] = [];
    const havingParams: SQLInputValue[] = [];
    const sessionsWith = (condition: string, ...params: SQLInputValue[]) => {
      where.push(`session_id IN (SELECT session_id FROM rows WHERE ${condition})`);
      whereParams.push(...params);
    };
    if (filter.sessionId !== undefined) {
      where.push("session_id = ?");
      whereParams.push(filter.sessionId);
    }
    if (filter.project !== undefined) {
      const base = filter.project.endsWith("/") && filter.project.length > 1
        ? filter.project.slice(0, -1)
        : filter.project;
      // The folder itself, or a path under it: "/" sorts just before "0", so a range of the index.
      sessionsWith("cwd = ? OR (cwd > ? AND cwd < ?)", base, `${base}/`, `${base}0`);
    }
    if (filter.kind !== undefined) sessionsWith("kind = ?", filter.kind);
    if (filter.search !== undefined) {
      sessionsWith(`instr(${SEARCHED_TEXT}, lower(?)) > 0`, filter.search);
    }
    if (filter.sinceMs !== undefined) {
      having.push("MAX(captured_at_ns) >= ?");
      havingParams.push(BigInt(Math.floor(filter.sinceMs)) * 1_000_000n);
    }
    if (filter.untilMs !== undefined) {
      having.push("MIN(captured_at_ns) < ?");
      havingParams.push(BigInt(Math.floor(filter.untilMs)) * 1_000_000n);
    }
    if (filter.beforeSeq !== undefined) {
      having.push("MAX(seq) < ?");
      havingParams.push(filter.beforeSeq);
    }
    const sql = `SELECT session_id, MAX(seq) AS last_seq FROM rows
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      GROUP BY session_id ${having.length ? `HAVING ${having.join(" AND ")}` : ""}
      ORDER BY last_seq DESC LIMIT ?`;
    const rows = this.#statements.get(sql).all(...whereParams, ...havingParams, filter.limit) as {
      session_id: string;
    }[];
    return rows.map((row) => row.session_id);
  }

  #summary(sessionId: string): SessionSummary {
    const row = this.#statements.get(
      `SELECT MIN(captured_at_ns) / 1000000 AS started_ms,
              MAX(captured_at_ns) / 1000000 AS ended_ms,
              SUM(kind = ?) AS prompts,
              SUM(kind = ?) AS tool_calls,
              SUM(CASE kind WHEN ? THEN json_extract(payload, '$.outcome') = 'error'
                            WHEN ? THEN 1 ELSE 0 END) AS failures,
              SUM(CASE kind WHEN ? THEN COALESCE(json_extract(payload, '$.redaction_match_count'), 0)
                            ELSE 0 END) AS redactions,
              COUNT(*) AS row_count,
              MAX(seq) AS last_seq,
              (SELECT cwd FROM rows WHERE session_id = ? AND cwd IS NOT NULL ORDER BY seq LIMIT 1)
                AS project
       FROM rows WHERE session_id = ?`,
    ).get(
      ROW_KINDS.prompt,
      ROW_KINDS.toolUse,
      ROW_KINDS.toolUse,
      ROW_KINDS.redactionFailed,
      ROW_KINDS.prompt,
      sessionId,
      sessionId,
    ) as Record<string, unknown>;
    return {
      sessionId,
      project: row.project === null ? null : String(row.project),
      startedMs: Number(row.started_ms),
      endedMs: Number(row.ended_ms),
      prompts: Number(row.prompts),
      toolCalls: Number(row.tool_calls),
      failures: Number(row.failures),
      redactions: Number(row.redactions),
      rows: Number(row.row_count),
      lastSeq: Number(row.last_seq),
    };
  }

  /** Every project folder in the store, sorted (at most `limit`). */
  projects(options: { limit: number }): string[] {
    const rows = this.#statements.get(
      "SELECT DISTINCT cwd FROM rows WHERE cwd IS NOT NULL ORDER BY cwd LIMIT ?",
    ).all(options.limit) as { cwd: string }[];
    return rows.map((row) => row.cwd);
  }

  /** A session's rows after `afterSeq`, in chain order, at most `limit`. */
  sessionRows(sessionId: string, options: { afterSeq: number; limit: number }): ViewRow[] {
    const rows = this.#statements.get(
      `SELECT ${VIEW_ROW_COLUMNS} FROM rows WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ).all(sessionId, options.afterSeq, options.limit) as unknown as RawViewRow[];
    return rows.map(toViewRow);
  }

  /** The distinct trace ids of a session, in the order they first appear. */
  traceIds(sessionId: string): string[] {
    const rows = this.#statements.get(
      `SELECT json_extract(payload, '$.trace_id') AS trace_id FROM rows WHERE session_id = ?
       GROUP BY trace_id ORDER BY MIN(seq)`,
    ).all(sessionId) as { trace_id: unknown }[];
    return rows.map((row) => String(row.trace_id));
  }

  /** One row by `seq`, or `undefined`. */
  row(seq: number): ViewRow | undefined {
    const row = this.#statements.get(`SELECT ${VIEW_ROW_COLUMNS} FROM rows WHERE seq = ?`).get(seq);
    return row === undefined ? undefined : toViewRow(row as unknown as RawViewRow);
  }

  /** The newest `seq` (0 when empty); readers see the daemon's commits. */
  lastSeq(): number {
    const row = this.#statements.get("SELECT COALESCE(MAX(seq), 0) AS n FROM rows").get() as {
      n: number;
    };
    return Number(row.n);
  }

  /** Rows after `afterSeq` in chain order with every column, at most `limit`. */
  chainRows(options: { afterSeq: number; limit: number }): ChainColumns[] {
    return this.#statements.get(
      `SELECT seq, kind, session_id, cwd, CAST(captured_at_ns AS TEXT) AS captured, payload,
              prev_hash, hash FROM rows WHERE seq > ? ORDER BY seq LIMIT ?`,
    ).all(options.afterSeq, options.limit) as unknown as ChainColumns[];
  }

  /** The checkpoint of the largest tree, or `undefined` (none yet, or a store from before checkpoints). */
  latestCheckpoint(): StoredCheckpoint | undefined {
    return readCheckpoints(this.#statements, { latestOnly: true })[0];
  }

  /** The verifier key the store keeps for its checkpoints, if any. */
  verifierKey(): string | undefined {
    if (!this.#statements.hasTable("meta")) return undefined;
    const row = this.#statements.get("SELECT value FROM meta WHERE key = ?").get(
      META_KEYS.verifierKey,
    ) as { value: string } | undefined;
    return row?.value;
  }

  /** Closes the database. */
  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}

/**
 * Opens the store at `path` read-only.
 *
 * @throws {Deno.errors.NotFound} when there is no store yet.
 */
export function openViewStore(path: string): ViewStore {
  return new ViewStore(openReadOnlyDatabase(path));
}

function toViewRow(raw: RawViewRow): ViewRow {
  let payload: Record<string, unknown>;
  try {
    const parsed = JSON.parse(raw.payload);
    payload = typeof parsed === "object" && parsed !== null ? parsed : { value: parsed };
  } catch {
    // A damaged row is still shown (the trust banner says the chain is broken there).
    payload = { unparsable_payload: raw.payload };
  }
  return {
    seq: Number(raw.seq),
    kind: raw.kind,
    sessionId: raw.session_id,
    capturedMs: Number(raw.captured_ms),
    payload,
    prevHash: raw.prev_hash,
    hash: raw.hash,
  };
}
