/**
 * Drains the hook's spool into the writer in capture order, and keeps the
 * trace dir tidy: stale temp files and trace ids idle past an hour go.
 *
 * A spool file is read only when it is a regular file (not a symlink, FIFO or
 * device), the file opened is the one examined (same device and inode), its
 * size is at most one frame's and its length prefix says exactly that size;
 * and one drain reads at most {@linkcode DRAIN_BYTES_PER_TICK}, the rest
 * waiting for the next, so a spool of large frames never sits in memory at
 * once.
 *
 * @module
 */

import { FrameError, MAX_FRAME_BYTES, parseFrameBody } from "../lib/frame.ts";
import { MAX_SPOOL_FILES, parseSpoolFileName, pruneSpool } from "../lib/spool.ts";
import { TRACE_IDLE_MS } from "../lib/trace_id.ts";
import type { Ingest } from "./_ingest.ts";
import { log } from "./_log.ts";
import type { Quarantine } from "./_quarantine.ts";
import type { Telemetry } from "./_telemetry.ts";

const TEMP_FILE_GRACE_MS = 60_000;

/** One drain queues spool files up to this many bytes; the next drain goes on. */
export const DRAIN_BYTES_PER_TICK = 64 * 1024 * 1024;
const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Queues every spool file not yet queued, oldest first.
 *
 * @returns how many files the spool holds.
 */
export function drainSpool(
  dir: string,
  options: { ingest: Ingest; telemetry: Telemetry; nowMs: number; quarantine?: Quarantine },
): number {
  const { ingest, telemetry, nowMs, quarantine } = options;
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile) continue;
      if (entry.name.startsWith(".tmp-")) removeIfOlder(`${dir}/${entry.name}`, nowMs);
      else names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
  if (names.length > MAX_SPOOL_FILES) {
    const dropped = pruneSpool(dir);
    log("WARN", `spool over ${MAX_SPOOL_FILES} files: dropped the ${dropped} oldest`);
    return drainSpool(dir, options);
  }
  names.sort();
  let budget = DRAIN_BYTES_PER_TICK;
  for (const name of names) {
    const parsed = parseSpoolFileName(name);
    if (!parsed || ingest.isQueued(parsed.id)) continue;
    if (budget <= 0) break;
    const path = `${dir}/${name}`;
    let bytes: Uint8Array;
    try {
      bytes = readSpoolFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      // Not one frame (too large, a lying prefix, not a regular file): never copied anywhere.
      dropSpoolFile(path, { name, error: error as Error, telemetry });
      continue;
    }
    budget -= bytes.length;
    try {
      const frame = parseFrameBody(bytes.subarray(4));
      if (frame.id !== parsed.id) throw new FrameError("bad_shape", "id differs from the name");
      ingest.enqueue(frame, { outcome: parsed.outcome, spoolPath: path });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      if (error instanceof FrameError && quarantine !== undefined) {
        // Kept for a person to read, out of the spool so no drain tries it again.
        const detail = `spool file ${name}: ${error.message}`;
        quarantine.add({ name, spoolPath: path, reason: error.reason, detail });
        continue;
      }
      dropSpoolFile(path, { name, error: error as Error, telemetry });
    }
  }
  telemetry.spoolDepth(names.length);
  return names.length;
}

/**
 * Reads one spool file without following a link planted in its place, and
 * only as much as one frame may take.
 *
 * @throws {FrameError} for anything but a regular file holding one frame.
 */
export function readSpoolFile(path: string): Uint8Array {
  const seen = Deno.lstatSync(path);
  if (!seen.isFile) throw new FrameError("bad_spool", "not a regular file");
  if (seen.size > 4 + MAX_FRAME_BYTES || seen.size < 4) {
    throw new FrameError("oversize", `${seen.size} bytes, not one frame of at most 16 MiB`);
  }
  const file = Deno.openSync(path, { read: true });
  try {
    const opened = file.statSync();
    const same = opened.dev === seen.dev && opened.ino === seen.ino && opened.size === seen.size;
    if (!opened.isFile || !same) {
      throw new FrameError("bad_spool", "replaced while being opened");
    }
    const bytes = new Uint8Array(opened.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = file.readSync(bytes.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    const length = new DataView(bytes.buffer).getUint32(0);
    if (filled !== bytes.length || length !== bytes.length - 4) {
      throw new FrameError(
        "bad_spool",
        `length prefix ${length} does not match its ${filled} bytes`,
      );
    }
    return bytes;
  } finally {
    file.close();
  }
}

function dropSpoolFile(
  path: string,
  options: { name: string; error: Error; telemetry: Telemetry },
): void {
  const { name, error, telemetry } = options;
  log("WARN", `spool file ${name} dropped: ${error.message}`);
  telemetry.rejected(error instanceof FrameError ? error.reason : "bad_spool");
  try {
    Deno.removeSync(path);
  } catch {
    // Gone already.
  }
}

/** Removes trace id files idle for more than an hour. */
export function pruneTraceIds(dir: string, options: { nowMs: number }): number {
  let pruned = 0;
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile || !SESSION_FILE.test(entry.name)) continue;
      const path = `${dir}/${entry.name}`;
      const info = Deno.lstatSync(path);
      if (options.nowMs - (info.mtime?.getTime() ?? 0) > TRACE_IDLE_MS) {
        Deno.removeSync(path);
        pruned++;
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return pruned;
}

function removeIfOlder(path: string, nowMs: number): void {
  try {
    const info = Deno.lstatSync(path);
    if (nowMs - (info.mtime?.getTime() ?? 0) > TEMP_FILE_GRACE_MS) Deno.removeSync(path);
  } catch {
    // Renamed into place meanwhile.
  }
}
