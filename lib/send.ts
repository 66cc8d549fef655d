/**
 * Sends one encoded frame to the daemon within a time budget. Fire-and-forget
 * on the wire (no ack bytes), but the hook half-closes and waits for the
 * daemon to close in turn: a daemon that accepts and never reads is then
 * caught as `emit_timeout` instead of being mistaken for success.
 *
 * The hook starts connecting after its first read of stdin
 * ({@linkcode connectEarly}), so the connection is ready by the time the
 * frame is: the connect overlaps the rest of stdin and redaction instead of
 * adding to them.
 *
 * @module
 */

import type { Outcome } from "./outcomes.ts";

/** Connect + write + close must fit in this many milliseconds. */
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
   * Connect + write + close must fit in this many milliseconds.
   *
   * @default {40}
   */
  budgetMs?: number;
  /**
   * Runs once the frame is written and half-closed, while the daemon reads
   * it; not at all when connecting or writing fails.
   */
  whileDelivering?: () => void;
}

/** A connection being made: the connection, or the error that prevented it. */
export type PendingConnection = Promise<Deno.UnixConn | Error>;

/** Starts connecting to the Unix socket at `path`; never rejects. */
export function connectEarly(path: string): PendingConnection {
  return Deno.connect({ transport: "unix", path }).catch((error: Error) => error);
}

/** Sends `bytes` over a pending connection within the budget. Never throws. */
export async function sendFrame(
  connection: PendingConnection,
  bytes: Uint8Array,
  options: SendOptions = {},
): Promise<SendResult> {
  const { budgetMs = EMIT_BUDGET_MS, whileDelivering } = options;
  const expired = expiry(budgetMs);
  let conn: Deno.UnixConn | undefined;
  try {
    const connected = await Promise.race([connection, expired]);
    if (connected === "expired") {
      return { outcome: "emit_timeout", detail: `connect took over ${budgetMs} ms` };
    }
    if (connected instanceof Error) {
      return { outcome: "socket_unavailable", detail: connected.message };
    }
    conn = connected;
    const delivered = await Promise.race([deliver(conn, bytes, whileDelivering), expired]);
    if (delivered === "expired") {
      return { outcome: "emit_timeout", detail: `the daemon did not read within ${budgetMs} ms` };
    }
    return { outcome: "ok" };
  } catch (error) {
    return { outcome: "socket_unavailable", detail: (error as Error).message };
  } finally {
    try {
      conn?.close();
    } catch {
      // Already closed by the daemon.
    }
  }
}

/**
 * Resolves `"expired"` after `ms`. `Atomics.waitAsync` on a private cell is a
 * timer built into V8: in a cold process it costs 0.03 ms where Deno's timers
 * (`AbortSignal.timeout` plus its listener) cost 0.9 ms. It does not keep the
 * event loop alive by itself, which is fine here: it is only ever raced
 * against a connect, write or read that does.
 */
function expiry(ms: number): Promise<"expired"> {
  const wait = Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return Promise.resolve(wait.value).then(() => "expired");
}

async function deliver(
  conn: Deno.UnixConn,
  bytes: Uint8Array,
  whileDelivering: (() => void) | undefined,
): Promise<"done"> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
  await conn.closeWrite();
  whileDelivering?.();
  const scratch = new Uint8Array(16);
  while ((await conn.read(scratch)) !== null) {
    // The daemon sends nothing; wait for its close.
  }
  return "done";
}
