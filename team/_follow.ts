/**
 * `team ship --follow`: ships, waits for new rows, ships again, for as long as
 * it runs. A team store that goes away is retried with a growing pause (half
 * a second doubling to 30 s) and caught up with when it answers again. Only a
 * divergence or a broken local chain ends it: those need a person.
 *
 * The shipper only reads the store (read-only, short statements), so a slow
 * or absent team store never reaches the hook or the daemon.
 *
 * @module
 */

import type { Sql } from "./_connect.ts";
import type { LocalStore } from "./_local.ts";
import {
  DivergenceError,
  LocalChainError,
  OriginMismatchError,
  shipOnce,
  type ShipOptions,
} from "./_ship.ts";

/** Options for {@linkcode follow}. */
export interface FollowOptions extends ShipOptions {
  /** Opens a fresh pool (after the team store went away). */
  connect: () => Sql;
  /** Ends the loop when aborted. */
  signal: AbortSignal;
  /**
   * How often to look for new rows, in ms.
   *
   * @default {1000}
   */
  intervalMs?: number;
  /**
   * The longest pause between retries, in ms.
   *
   * @default {30000}
   */
  maxBackoffMs?: number;
  /** Told about each pass that shipped something, and each failed attempt. */
  log: (line: string) => void;
}

const FIRST_BACKOFF_MS = 500;

/**
 * Ships until `signal` aborts.
 *
 * @throws {DivergenceError}, {@linkcode LocalChainError} or
 * {@linkcode OriginMismatchError}, which need a person.
 */
export async function follow(local: LocalStore, options: FollowOptions): Promise<void> {
  const { connect, signal, intervalMs = 1000, maxBackoffMs = 30_000, log } = options;
  let sql: Sql | undefined;
  let backoff = FIRST_BACKOFF_MS;
  // What the store held when the last pass ended: nothing new, no pass.
  let shippedUpTo = "";
  try {
    while (!signal.aborted) {
      let pause = intervalMs;
      try {
        const mark = local.progressMark();
        if (mark !== shippedUpTo) {
          sql ??= connect();
          const result = await shipOnce(sql, local, options);
          if (result.rows > 0 || result.checkpoints > 0) {
            log(
              `shipped ${result.rows} rows and ${result.checkpoints} checkpoints (up to seq ${result.lastSeq})`,
            );
          }
          shippedUpTo = mark;
        }
        backoff = FIRST_BACKOFF_MS;
      } catch (error) {
        if (
          error instanceof DivergenceError || error instanceof LocalChainError ||
          error instanceof OriginMismatchError
        ) throw error;
        log(`WARN team_store_unavailable: ${(error as Error).message}; retrying in ${backoff} ms`);
        await sql?.end({ timeout: 0 }).catch(() => {});
        sql = undefined;
        shippedUpTo = "";
        pause = backoff;
        backoff = Math.min(backoff * 2, maxBackoffMs);
      }
      await sleep(pause, signal);
    }
  } finally {
    await sql?.end({ timeout: 1 }).catch(() => {});
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
