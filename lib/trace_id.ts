/**
 * The per-session trace id cache: one file per session in the trace dir,
 * holding 32 lowercase hex. The first hook of a session creates it atomically
 * (write a temp file, then hard-link it into place, so concurrent first hooks
 * agree); later hooks reuse it; after an hour idle a new one starts.
 *
 * The trace dir is used only once `lib/trust.ts` trusts it. Synchronous on
 * purpose: the hook is short-lived and every await costs it more than the
 * syscall.
 *
 * @module
 */

import { isHex32 } from "./ids.ts";

/** A trace id goes stale after this long without a hook. */
export const TRACE_IDLE_MS = 60 * 60 * 1000;

/** A fresh random 32-hex id. */
export function newTraceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * The trace id to use when the trace dir is not trusted: derived from the
 * session id itself, so a session still lands in one trace and nothing is
 * written.
 */
export function fallbackTraceId(sessionId: string): string {
  return sessionId.replaceAll("-", "").toLowerCase();
}

/**
 * Returns the session's trace id from a trusted trace dir, creating or
 * renewing it as needed.
 */
export function sessionTraceId(
  dir: string,
  sessionId: string,
  options: { nowMs: number },
): string {
  const path = `${dir}/${sessionId}`;
  const existing = readFresh(path, options.nowMs);
  if (existing !== undefined) return existing;
  const candidate = newTraceId();
  const temp = `${dir}/.tmp-${candidate}`;
  Deno.writeTextFileSync(temp, candidate, { mode: 0o600 });
  Deno.utimeSync(temp, options.nowMs / 1000, options.nowMs / 1000);
  try {
    Deno.linkSync(temp, path);
    return candidate;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    const winner = readFresh(path, options.nowMs);
    if (winner !== undefined) return winner;
    Deno.renameSync(temp, path);
    return candidate;
  } finally {
    try {
      Deno.removeSync(temp);
    } catch {
      // Renamed into place, or already gone.
    }
  }
}

function readFresh(path: string, nowMs: number): string | undefined {
  let text: string;
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
    if (!info.isFile) return undefined;
    text = Deno.readTextFileSync(path).trim();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  if (!isHex32(text)) return undefined;
  const lastUsed = info.mtime?.getTime() ?? 0;
  if (nowMs - lastUsed > TRACE_IDLE_MS) return undefined;
  if (nowMs - lastUsed > 60_000) {
    try {
      Deno.utimeSync(path, nowMs / 1000, nowMs / 1000);
    } catch {
      // A missed touch only shortens the idle window.
    }
  }
  return text;
}
