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
