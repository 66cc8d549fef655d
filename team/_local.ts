/**
 * The machine's own store as `team ship` sees it: opened read-only, read in
 * short statements (each its own read transaction), so the daemon's writes
 * and WAL checkpoints never wait for the shipper.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { openReadOnlyDatabase, PreparedStatements } from "../lib/sqlite.ts";

/** One row as stored locally, every column as text the way it is stored. */
export interface LocalRow {
  /** Position in the chain. */
  seq: number;
  /** The frame id. */
  frame_id: string;
  /** The row kind. */
  kind: string;
  /** The session. */
  session_id: string;
  /** The working folder, or null. */
  cwd: string | null;
  /** Nanoseconds since the epoch, as decimal digits (past 2^53). */
  captured_at_ns: string;
  /** The payload's JSON text, byte for byte. */
  payload: string;
  /** The previous row's hash. */
  prev_hash: string;
  /** This row's hash. */
  hash: string;
}

/** A signed checkpoint as stored locally. */
export interface LocalCheckpoint {
  /** How many rows the checkpoint's tree covers. */
  tree_size: number;
  /** The signed note, byte for byte. */
  note: string;
}

const ROW_SELECT = `SELECT seq, frame_id, kind, session_id, cwd,
  CAST(captured_at_ns AS TEXT) AS captured_at_ns, payload, prev_hash, hash FROM rows`;

/** The store, read-only. */
export class LocalStore {
  readonly #db: DatabaseSync;
  readonly #statements: PreparedStatements;
  readonly #hasCheckpoints: boolean;

  /**
   * Opens `path` read-only.
   *
   * @throws {Deno.errors.NotFound} when there is no store.
   */
  constructor(path: string) {
    this.#db = openReadOnlyDatabase(path);
    this.#statements = new PreparedStatements(this.#db);
    // A store from before checkpoints has neither table until its daemon runs once.
    this.#hasCheckpoints = this.#statements.hasTable("checkpoints");
  }

  /** The log's origin (`meta`), or undefined when the daemon has not chosen one yet. */
  origin(): string | undefined {
    if (!this.#statements.hasTable("meta")) return undefined;
    const row = this.#statements.get("SELECT value FROM meta WHERE key = 'origin'").get() as
      | { value: string }
      | undefined;
    return row?.value;
  }

  /** The highest `seq` (0 for an empty store). */
  tipSeq(): number {
    const row = this.#statements.get("SELECT COALESCE(MAX(seq), 0) AS n FROM rows").get() as {
      n: number;
    };
    return Number(row.n);
  }

  /** The tip `seq` and the latest checkpoint's tree size: what changes when there is more to ship. */
  progressMark(): string {
    const size = this.#hasCheckpoints
      ? (this.#statements.get("SELECT COALESCE(MAX(size), 0) AS size FROM checkpoints").get() as {
        size: number;
      }).size
      : 0;
    return `${this.tipSeq()}/${size}`;
  }

  /** Up to `limit` rows after `seq`, in order. */
  rowsAfter(seq: number, limit: number): LocalRow[] {
    return this.#statements.get(`${ROW_SELECT} WHERE seq > ? ORDER BY seq LIMIT ?`)
      .all(seq, limit).map(toLocalRow);
  }

  /** The row at `seq`, if any. */
  row(seq: number): LocalRow | undefined {
    const raw = this.#statements.get(`${ROW_SELECT} WHERE seq = ?`).get(seq);
    return raw === undefined ? undefined : toLocalRow(raw);
  }

  /** Checkpoints with `after < tree_size ≤ upTo`, smallest first. */
  checkpointsBetween(after: number, upTo: number): LocalCheckpoint[] {
    if (!this.#hasCheckpoints) return [];
    return this.#statements.get(
      `SELECT size, note FROM checkpoints WHERE size > ? AND size <= ? ORDER BY size`,
    ).all(after, upTo).map((raw) => ({
      tree_size: Number(raw.size),
      note: String(raw.note),
    }));
  }

  /** Closes the database. */
  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}

function toLocalRow(raw: Record<string, unknown>): LocalRow {
  return {
    seq: Number(raw.seq),
    frame_id: String(raw.frame_id),
    kind: String(raw.kind),
    session_id: String(raw.session_id),
    cwd: raw.cwd === null ? null : String(raw.cwd),
    captured_at_ns: String(raw.captured_at_ns),
    payload: String(raw.payload),
    prev_hash: String(raw.prev_hash),
    hash: String(raw.hash),
  };
}
