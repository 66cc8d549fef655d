/**
 * The bytes the daemon holds for frames not yet parsed, across all its
 * connections. Each connection could hold a 16 MiB frame, and 64 connections
 * held 1 GiB that the process never gave back; with one budget a frame that
 * does not fit is refused (its hook's spool keeps it for the next drain).
 *
 * @module
 */

import type { FrameBudget } from "../lib/frame.ts";

/** What all connections together may hold: four frames of the largest size. */
export const CONNECTION_BYTES_BUDGET = 64 * 1024 * 1024;

/** A {@linkcode FrameBudget} with a fixed total. */
export class ByteBudget implements FrameBudget {
  readonly #total: number;
  #held = 0;

  /** Makes a budget of `total` bytes. */
  constructor(total: number = CONNECTION_BYTES_BUDGET) {
    this.#total = total;
  }

  /** Bytes reserved now. */
  get held(): number {
    return this.#held;
  }

  /** The budget's total. */
  get total(): number {
    return this.#total;
  }

  /** Takes `bytes` when they fit. */
  reserve(bytes: number): boolean {
    if (this.#held + bytes > this.#total) return false;
    this.#held += bytes;
    return true;
  }

  /** Gives `bytes` back. */
  release(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }
}
