/**
 * Test helpers: what someone with write access to the store file can do.
 * Each works on a store no daemon has open: drop the append-only triggers,
 * change rows, recompute every hash from the first changed row so the chain
 * is intact again, put the triggers back.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { GENESIS_HASH, rowHash } from "../lib/chain.ts";
import { APPEND_ONLY_TRIGGERS } from "../lib/store.ts";

/** Opens the store for writing with the triggers dropped, runs `edit`, puts the triggers back. */
export function tamper(db: string, edit: (sql: DatabaseSync) => void): void {
  const sql = new DatabaseSync(db);
  try {
    for (const trigger of APPEND_ONLY_TRIGGERS) sql.exec(`DROP TRIGGER IF EXISTS ${trigger.name}`);
    edit(sql);
    for (const trigger of APPEND_ONLY_TRIGGERS) sql.exec(`CREATE TRIGGER ${trigger.sql}`);
  } finally {
    sql.close();
  }
}

/** Recomputes `prev_hash` and `hash` of every row from `fromSeq` on, so the chain verifies. */
export function recomputeChain(sql: DatabaseSync, fromSeq: number): void {
  const previous = sql.prepare("SELECT hash FROM rows WHERE seq = ?").get(fromSeq - 1) as
    | { hash: string }
    | undefined;
  let prevHash = previous?.hash ?? GENESIS_HASH;
  const rows = sql.prepare("SELECT seq, kind, payload FROM rows WHERE seq >= ? ORDER BY seq")
    .all(fromSeq) as { seq: number; kind: string; payload: string }[];
  const update = sql.prepare("UPDATE rows SET prev_hash = ?, hash = ? WHERE seq = ?");
  for (const row of rows) {
    const hash = rowHash(prevHash, {
      seq: Number(row.seq),
      kind: row.kind,
      payload: JSON.parse(row.payload),
    });
    update.run(prevHash, hash, row.seq);
    prevHash = hash;
  }
}

/** Swaps the content (everything but `seq` and the hashes) of two rows. */
export function swapRows(sql: DatabaseSync, a: number, b: number): void {
  const read = sql.prepare(
    "SELECT frame_id, kind, session_id, cwd, captured_at_ns, payload FROM rows WHERE seq = ?",
  );
  // captured_at_ns is past 2^53: read it as a bigint so it is written back exactly.
  read.setReadBigInts(true);
  const rowA = read.get(a) as Record<string, string | number | bigint | null>;
  const rowB = read.get(b) as Record<string, string | number | bigint | null>;
  const write = sql.prepare(
    `UPDATE rows SET frame_id = ?, kind = ?, session_id = ?, cwd = ?, captured_at_ns = ?, payload = ?
     WHERE seq = ?`,
  );
  write.run(`${rowA.frame_id}-swap`, "", "", null, 0, "{}", a);
  write.run(
    rowA.frame_id!,
    rowA.kind!,
    rowA.session_id!,
    rowA.cwd!,
    rowA.captured_at_ns!,
    rowA.payload!,
    b,
  );
  write.run(
    rowB.frame_id!,
    rowB.kind!,
    rowB.session_id!,
    rowB.cwd!,
    rowB.captured_at_ns!,
    rowB.payload!,
    a,
  );
}

/** Copies a store (its file and any WAL and shared-memory files) to `to`. */
export function copyStore(from: string, to: string): void {
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.copyFileSync(`${from}${suffix}`, `${to}${suffix}`);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      try {
        Deno.removeSync(`${to}${suffix}`);
      } catch {
        // Not there either.
      }
    }
  }
}
