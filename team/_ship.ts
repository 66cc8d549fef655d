/**
 * Shipping: every committed row and checkpoint the team store lacks, in
 * order, in batches of one transaction each, resuming after the team store's
 * last `seq` for this origin. At-least-once and idempotent: a row the team
 * store holds already is compared column by column, never inserted twice;
 * one that differs stops everything ({@linkcode DivergenceError}) and the
 * transaction rolls back, so the team store keeps its copy.
 *
 * @module
 */

import type postgres from "postgres";
import type { Queryable, Sql } from "./_connect.ts";
import type { LocalCheckpoint, LocalRow, LocalStore } from "./_local.ts";
import { LOCAL_ROW_COLUMNS } from "./_schema.ts";
import { GENESIS_HASH } from "../lib/chain.ts";

/** The local store and the team store disagree about a row already shipped. */
export class DivergenceError extends Error {
  /** The first `seq` (or checkpoint tree size) that differs. */
  readonly seq: number;

  /** Makes the error for the first differing `seq`. */
  constructor(seq: number, detail: string) {
    super(`Divergence at seq ${seq}: ${detail}`);
    this.name = "DivergenceError";
    this.seq = seq;
  }
}

/** The local chain does not link where the next batch starts: fix it before shipping. */
export class LocalChainError extends Error {
  /** The row whose `prev_hash` does not link. */
  readonly seq: number;

  /** Makes the error for `seq`. */
  constructor(seq: number) {
    super(
      `Local chain broken at seq ${seq}: prev_hash does not match the row before, run deno task verify`,
    );
    this.name = "LocalChainError";
    this.seq = seq;
  }
}

/** The store is not the log the URL's login was enrolled for. */
export class OriginMismatchError extends Error {
  /** Makes the error from the store's origin and the login's. */
  constructor(local: string | undefined, enrolled: string | undefined) {
    super(
      enrolled === undefined
        ? "Cannot ship: the URL's login is not an enrolled machine; use the URL `team enroll` printed"
        : `Cannot ship: the store is ${
          local === undefined
            ? "a log without an origin yet (start the daemon once)"
            : `the log ${local}`
        }, but the URL's login was enrolled for ${enrolled}; use the URL enrolled with this machine's \`deno task key\``,
    );
    this.name = "OriginMismatchError";
  }
}

/** Options for {@linkcode shipOnce}. */
export interface ShipOptions {
  /**
   * Rows per transaction.
   *
   * @default {1000}
   */
  batchSize?: number;
  /** Called after each committed batch (tests use it to crash mid-way). */
  onBatch?: (shipped: { lastSeq: number }) => void | Promise<void>;
}

/** What one pass shipped. */
export interface ShipResult {
  /** The machine's origin. */
  origin: string;
  /** Rows inserted. */
  rows: number;
  /** Checkpoints inserted. */
  checkpoints: number;
  /** The team store's last `seq` for this origin afterwards. */
  lastSeq: number;
}

/**
 * Ships everything the team store lacks, then returns.
 *
 * @throws {OriginMismatchError} when the store is not the login's log.
 * @throws {DivergenceError} when a row already shipped differs.
 * @throws {LocalChainError} when the local chain does not link.
 */
export async function shipOnce(
  sql: Sql,
  local: LocalStore,
  options: ShipOptions = {},
): Promise<ShipResult> {
  const { batchSize = 1000, onBatch } = options;
  const origin = await enrolledOrigin(sql, local);
  const [tip] = await sql<{ seq: string; hash: string }[]>`
    SELECT seq::text AS seq, hash FROM cyberos_memory.rows
    WHERE origin = ${origin} ORDER BY rows.seq DESC LIMIT 1`;
  let lastSeq = tip ? Number(tip.seq) : 0;
  let lastHash = tip ? tip.hash : GENESIS_HASH;
  if (tip) await compareTip(sql, local, { origin, seq: lastSeq });
  const [cp] = await sql<{ size: string }[]>`
    SELECT COALESCE(MAX(tree_size), -1)::text AS size FROM cyberos_memory.checkpoints
    WHERE origin = ${origin}`;
  let lastCheckpoint = Number(cp!.size);
  const result: ShipResult = { origin, rows: 0, checkpoints: 0, lastSeq };
  while (true) {
    const rows = local.rowsAfter(lastSeq, batchSize);
    const batchEnd = rows.at(-1)?.seq ?? lastSeq;
    const checkpoints = local.checkpointsBetween(lastCheckpoint, batchEnd);
    if (rows.length === 0 && checkpoints.length === 0) break;
    for (const row of rows) {
      if (row.prev_hash !== lastHash || row.seq !== lastSeq + 1) throw new LocalChainError(row.seq);
      lastSeq = row.seq;
      lastHash = row.hash;
    }
    const inserted = await sql.begin(async (tx) => ({
      rows: await insertRows(tx, origin, rows),
      checkpoints: await insertCheckpoints(tx, origin, checkpoints),
    }));
    result.rows += inserted.rows;
    result.checkpoints += inserted.checkpoints;
    result.lastSeq = lastSeq;
    lastCheckpoint = checkpoints.at(-1)?.tree_size ?? lastCheckpoint;
    await onBatch?.({ lastSeq });
  }
  return result;
}

/** The origin the login was enrolled for, which must be the store's. */
async function enrolledOrigin(sql: Sql, local: LocalStore): Promise<string> {
  const [row] = await sql<{ origin: string | null }[]>`
    SELECT cyberos_memory.login_origin() AS origin`;
  const enrolled = row?.origin ?? undefined;
  const mine = local.origin();
  if (enrolled === undefined || enrolled !== mine) throw new OriginMismatchError(mine, enrolled);
  return enrolled;
}

async function insertRows(sql: Queryable, origin: string, rows: LocalRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  // One JSON parameter for the whole batch: PostgreSQL unpacks it into typed
  // columns (text stays byte for byte), faster than ten parameters a row.
  const inserted = await sql<{ seq: string }[]>`
    INSERT INTO cyberos_memory.rows (origin, ${sql.unsafe(LOCAL_ROW_COLUMNS.join(", "))})
    SELECT ${origin}, ${sql.unsafe(LOCAL_ROW_COLUMNS.join(", "))}
    FROM jsonb_to_recordset(${sql.json(rows as unknown as postgres.JSONValue)}) AS batch (
      seq bigint, frame_id text, kind text, session_id text, cwd text,
      captured_at_ns bigint, payload text, prev_hash text, hash text)
    ORDER BY seq
    ON CONFLICT (origin, seq) DO NOTHING RETURNING seq::text AS seq`;
  if (inserted.length < rows.length) {
    // Another shipper of this store got there first: what it sent must be ours.
    const fresh = new Set(inserted.map((row) => Number(row.seq)));
    for (const row of rows) {
      if (!fresh.has(row.seq)) await compareRow(sql, origin, row);
    }
  }
  return inserted.length;
}

async function insertCheckpoints(
  sql: Queryable,
  origin: string,
  checkpoints: LocalCheckpoint[],
): Promise<number> {
  let inserted = 0;
  for (const checkpoint of checkpoints) {
    const [row] = await sql<{ note: string; fresh: boolean }[]>`
      WITH inserted AS (
        INSERT INTO cyberos_memory.checkpoints (origin, tree_size, note)
        VALUES (${origin}, ${checkpoint.tree_size}, ${checkpoint.note})
        ON CONFLICT (origin, tree_size) DO NOTHING RETURNING note)
      SELECT note, true AS fresh FROM inserted
      UNION ALL
      SELECT note, false FROM cyberos_memory.checkpoints
      WHERE origin = ${origin} AND tree_size = ${checkpoint.tree_size}`;
    if (row?.fresh) inserted++;
    else if (row?.note !== checkpoint.note) {
      throw new DivergenceError(
        checkpoint.tree_size,
        `the team store's checkpoint of tree size ${checkpoint.tree_size} differs from the local one`,
      );
    }
  }
  return inserted;
}

async function centralRows(
  sql: Queryable,
  origin: string,
  range: { from: number; to: number },
): Promise<Map<number, LocalRow>> {
  const rows = await sql<Record<string, unknown>[]>`
    SELECT seq::text AS seq, frame_id, kind, session_id, cwd,
           captured_at_ns::text AS captured_at_ns, payload, prev_hash, hash
    FROM cyberos_memory.rows
    WHERE origin = ${origin} AND seq BETWEEN ${range.from} AND ${range.to} ORDER BY rows.seq`;
  return new Map(rows.map((raw) => [Number(raw.seq), raw as unknown as LocalRow]));
}

/** The first column in which two copies of a row differ, if any. */
function differingColumn(central: LocalRow, local: LocalRow): string | undefined {
  return LOCAL_ROW_COLUMNS.find((column) => String(central[column]) !== String(local[column]));
}

async function compareRow(sql: Queryable, origin: string, row: LocalRow): Promise<void> {
  const central = (await centralRows(sql, origin, { from: row.seq, to: row.seq })).get(row.seq);
  const column = central && differingColumn(central, row);
  if (central === undefined || column !== undefined) {
    throw new DivergenceError(
      row.seq,
      `the team store's ${column ?? "row"} differs from the local one`,
    );
  }
}

/**
 * Checks the team store's last row against the local one. The chain makes
 * that enough for a rewrite with recomputed hashes; when it differs, the
 * rows before it are compared to name the first one that differs.
 */
async function compareTip(
  sql: Sql,
  local: LocalStore,
  options: { origin: string; seq: number },
): Promise<void> {
  const { origin, seq } = options;
  const central = (await centralRows(sql, origin, { from: seq, to: seq })).get(seq)!;
  const mine = local.row(seq);
  if (mine && differingColumn(central, mine) === undefined) return;
  const step = 1000;
  for (let from = 1; from <= seq; from += step) {
    const to = Math.min(seq, from + step - 1);
    const theirs = await centralRows(sql, origin, { from, to });
    for (const row of local.rowsAfter(from - 1, to - from + 1)) {
      const copy = theirs.get(row.seq);
      const column = copy && differingColumn(copy, row);
      if (copy && column) {
        throw new DivergenceError(
          row.seq,
          `the team store's ${column} differs from the local one (the local chain was rewritten after shipping)`,
        );
      }
    }
  }
  throw new DivergenceError(
    (local.tipSeq() || 0) + 1,
    `the team store holds ${seq} rows, the local store only ${local.tipSeq()} (rows were removed after shipping)`,
  );
}
