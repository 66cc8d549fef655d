/**
 * The store's rows against checkpoints: the roots of its first n rows for
 * every n asked in one pass over the chain hashes, and where rows changed
 * when a root no longer matches.
 *
 * @module
 */

import { type Checkpoint, openCheckpoint } from "./checkpoint.ts";
import { bytesToHex, equalBytes, MerkleFrontier, rowLeafHash } from "./merkle.ts";
import type { VerifierKey } from "./note.ts";
import type { StoredCheckpoint } from "./store.ts";

/** Roots of a store's prefixes. */
export interface PrefixRoots {
  /** How many rows the store has. */
  rows: number;
  /** The root of the first n rows, for each n asked that the store reaches. */
  roots: Map<number, Uint8Array>;
}

/** The roots of the first n rows for each of `sizes`, from the chain hashes in seq order. */
export function prefixRoots(hashes: Iterable<string>, sizes: Iterable<number>): PrefixRoots {
  const wanted = new Set(sizes);
  const frontier = new MerkleFrontier();
  const roots = new Map<number, Uint8Array>();
  if (wanted.has(0)) roots.set(0, frontier.root());
  for (const hash of hashes) {
    frontier.appendLeafHash(rowLeafHash(hash));
    if (wanted.has(frontier.size)) roots.set(frontier.size, frontier.root());
  }
  return { rows: frontier.size, roots };
}

/** A stored checkpoint whose signature verified, with its content. */
export interface OpenedCheckpoint {
  /** The stored record. */
  stored: StoredCheckpoint;
  /** The verified content. */
  checkpoint: Checkpoint;
}

/**
 * Opens the stored checkpoints with `key`; those that do not verify are
 * returned apart (by size).
 */
export async function openStoredCheckpoints(
  stored: readonly StoredCheckpoint[],
  key: VerifierKey,
): Promise<{ opened: OpenedCheckpoint[]; unverified: number[] }> {
  const opened: OpenedCheckpoint[] = [];
  const unverified: number[] = [];
  for (const record of stored) {
    try {
      const checkpoint = await openCheckpoint(record.note, key);
      if (checkpoint.size !== record.size || bytesToHex(checkpoint.root) !== record.root) {
        unverified.push(record.size);
      } else opened.push({ stored: record, checkpoint });
    } catch {
      unverified.push(record.size);
    }
  }
  return { opened, unverified };
}

/** Where the first changed row lies, per the checkpoints that still match and those that do not. */
export interface ChangeBounds {
  /** Rows 1..this still have the root a checkpoint signed. */
  unchangedThrough: number;
  /** The first changed row is at most this seq. */
  changedBy: number;
}

/**
 * Brackets the first changed row: the largest checkpoint whose root the
 * store still has, and the smallest above it whose root it no longer has
 * (`mismatchAt`, the size already known to differ, bounds it from above).
 */
export function boundChange(
  checkpoints: readonly Checkpoint[],
  roots: Map<number, Uint8Array>,
  mismatchAt: number,
): ChangeBounds {
  let unchangedThrough = 0;
  for (const checkpoint of checkpoints) {
    const root = roots.get(checkpoint.size);
    if (checkpoint.size < mismatchAt && root !== undefined && equalBytes(root, checkpoint.root)) {
      unchangedThrough = Math.max(unchangedThrough, checkpoint.size);
    }
  }
  let changedBy = mismatchAt;
  for (const checkpoint of checkpoints) {
    const root = roots.get(checkpoint.size);
    if (
      checkpoint.size > unchangedThrough && checkpoint.size < changedBy &&
      (root === undefined || !equalBytes(root, checkpoint.root))
    ) changedBy = checkpoint.size;
  }
  return { unchangedThrough, changedBy };
}
