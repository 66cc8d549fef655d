/**
 * Sends one encoded frame to the daemon within a time budget, fire-and-forget:
 * no ack bytes, and the hook does not wait for the daemon to read. Bytes a
 * Unix socket has taken stay queued for the daemon after the hook exits, and
 * the spool holds every frame until the daemon has committed it, so waiting
 * would buy only a report, not safety (it cost each run 0.3 to 1 ms).
 *
 * The hook starts connecting after its first read of stdin
 * ({@linkcode connectEarly}), so the connection is ready by the time the
 * frame is: the connect overlaps the rest of stdin and redaction instead of
 * adding to them.
 *
 * @module
 */

import type { Outcome } from "./outcomes.ts";

/** Connect + write must fit in this many milliseconds (DESIGN.md, Outcomes). */
export const EMIT_BUDGET_MS = 40;

/** What {@linkcode sendFrame} reports. */
export interface SendResult {
  /** `ok`, `socket_unavailable` or `emit_timeout`. */
  outcome: Outcome;
  /** Why it failed, for the WARN line. */
  detail?: string;
}

/** Options for {@linkcode sendFrame}. */
export interface SendOptions {
  /**
   * Writing the frame must finish within this many milliseconds.
   *
   * @default {40}
   */
  budgetMs?: number;
  /**
   * Close the connection before returning. A process about to exit can leave
   * it to the exit: an explicit close wakes the daemon while the hook is still
   * running, on the same two cores (the hook ran 0.5 to 1.7 ms longer with it).
   *
   * @default {true}
   */
  close?: boolean;
}

/** A connection being made: the connection, or the error that prevented it. */
export type PendingConnection = Promise<Deno.UnixConn | Error>;

/** Starts connecting to the Unix socket at `path`; never rejects. */
export function connectEarly(path: string): PendingConnection {
  return Deno.connect({ transport: "unix", path }).catch((error: Error) => error);
}

/**
 * Sends `bytes` over a pending connection within the budget. Never throws.
 *
 * A Unix socket's connect never waits: it succeeds, or fails at once (no
 * listener, a full backlog). A write waits only when the socket's buffer
 * (about 200 KB) is full, so only then is a timer started: the first timer
 * of a cold process costs about 0.7 ms.
 */
export async function sendFrame(
  connection: PendingConnection,
  bytes: Uint8Array,
  options: SendOptions = {},
): Promise<SendResult> {
  const { budgetMs = EMIT_BUDGET_MS, close = true } = options;
  let conn: Deno.UnixConn | undefined;
  try {
    const connected = await connection;
    if (connected instanceof Error) {
      return { outcome: "socket_unavailable", detail: connected.message };
    }
    conn = connected;
    let written = await conn.write(bytes);
    if (written < bytes.length) {
      const expired = expiry(budgetMs);
      while (written < bytes.length) {
        const n = await Promise.race([conn.write(bytes.subarray(written)), expired]);
        if (n === "expired") {
          return {
            outcome: "emit_timeout",
            detail: `the daemon did not read within ${budgetMs} ms`,
          };
        }
        written += n;
      }
    }
    return { outcome: "ok" };
  } catch (error) {
    return { outcome: "socket_unavailable", detail: (error as Error).message };
  } finally {
    if (close) {
      try {
        conn?.close();
      } catch {
        // Already closed.
      }
    }
  }
}

/**
 * Resolves `"expired"` after `ms`. A Deno timer: the hook runs V8 without
 * background threads (`--single-threaded`), and V8's own timers
 * (`Atomics.waitAsync`) need one.
 */
function expiry(ms: number): Promise<"expired"> {
  return new Promise((resolve) => {
    AbortSignal.timeout(ms).addEventListener("abort", () => resolve("expired"));
  });
}
