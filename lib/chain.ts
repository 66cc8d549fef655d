/**
 * The hash chain. For each row,
 *
 *     hash = BLAKE3( UTF-8(prev_hash) ‖ UTF-8(JCS({"kind", "payload", "seq"})) )
 *
 * as lowercase hex, where `prev_hash` is the previous row's `hash` as 64
 * lowercase hex characters (64 `0`s for the first row) and JCS is RFC 8785
 * canonical JSON. Anyone with a BLAKE3 and a JCS implementation can re-verify
 * a store with another tool.
 *
 * @module
 */

import { blake3Hex, canonicalJson } from "./hash.ts";

/** The `prev_hash` of the first row. */
export const GENESIS_HASH = "0".repeat(64);

/** What the chain hashes of a row. */
export interface ChainedRow {
  /** Position in the chain. */
  seq: number;
  /** The row kind. */
  kind: string;
  /** The payload. */
  payload: Record<string, unknown>;
}

/** The canonical bytes of a row (as text), the part after `prev_hash`. */
export function canonicalRow(row: ChainedRow): string {
  return canonicalJson({ kind: row.kind, payload: row.payload, seq: row.seq });
}

/** A row's hash given the previous row's hash. */
export function rowHash(prevHash: string, row: ChainedRow): string {
  return blake3Hex(prevHash + canonicalRow(row));
}

/** The chain is broken at `seq`. */
export class ChainBrokenError extends Error {
  /** The first bad row. */
  readonly seq: number;

  /** Makes the error for the first bad `seq` with what is wrong there. */
  constructor(seq: number, detail: string) {
    super(`Chain broken at seq ${seq}: ${detail}`);
    this.name = "ChainBrokenError";
    this.seq = seq;
  }
}

/** A row's columns as stored, for re-walking the chain. */
export interface ChainColumns {
  /** Position in the chain. */
  seq: number;
  /** The kind column. */
  kind: string;
  /** The session id column. */
  session_id: string;
  /** The cwd column. */
  cwd: string | null;
  /** The capture time column, as decimal text (it exceeds 2^53). */
  captured: string;
  /** The payload JSON text. */
  payload: string;
  /** The previous row's hash column. */
  prev_hash: string;
  /** The hash column. */
  hash: string;
}

/** Checks one stored row against the chain so far; the problem, or `undefined` when it holds. */
export function chainProblem(
  row: ChainColumns,
  expected: { seq: number; prevHash: string },
): string | undefined {
  if (Number(row.seq) !== expected.seq) return "row is missing";
  if (row.prev_hash !== expected.prevHash) {
    return "prev_hash does not match the previous row's hash";
  }
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return "payload is not JSON";
  }
  if (rowHash(expected.prevHash, { seq: expected.seq, kind: row.kind, payload }) !== row.hash) {
    return "hash does not match the row's content";
  }
  const columnsAgree = row.session_id === payload.session_id &&
    row.cwd === (typeof payload.cwd === "string" ? payload.cwd : null) &&
    row.captured === String(payload.captured_at_ns);
  return columnsAgree ? undefined : "columns disagree with the payload";
}
