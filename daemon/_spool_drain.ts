/**
 * Drains the hook's spool into the writer in capture order, and keeps the
 * trace dir tidy: stale temp files and trace ids idle past an hour go.
 *
 * A spool file is read only when it is a regular file (not a symlink, FIFO or
 * device), the file opened is the one examined (same device and inode), its
 * size is at most one frame's and its length prefix says exactly that size;
 * and one drain reads at most {@linkcode DRAIN_BYTES_PER_TICK}, the rest
 * waiting for the next, so a spool of large frames never sits in memory at
 * once. Nothing read is queued, quarantined or removed until the folder is
 * checked again, after the reads: it may have been swapped for another
 * user's since the check before them.
 *
 * @module
 */

import { type Frame, FrameError, MAX_FRAME_BYTES, parseFrameBody } from "../lib/frame.ts";
import type { Outcome } from "../lib/outcomes.ts";
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
 * Why a drain stopped before acting on what it read: the spool's folder was
 * no longer the one trusted (removed, and made again by someone else).
 */
export class SpoolDistrusted extends Error {
  /** Says what changed. */
  constructor(reason: string) {
    super(reason);
    this.name = "SpoolDistrusted";
  }
}

/** Options for {@linkcode drainSpool}. */
export interface DrainOptions {
  /** Where frames go. */
  ingest: Ingest;
  /** Counts drops and the spool's depth. */
  telemetry: Telemetry;
  /** Now, for the age of temp files. */
  nowMs: number;
  /** Where a spool file that is no frame is kept for a person to read. */
  quarantine?: Quarantine;
  /**
   * Why the spool's folder is no longer the one trusted, or `undefined`:
   * asked once the files are read and before any is queued, quarantined or
   * removed. A check made only before the reads leaves a window in which the
   * folder can be swapped for another user's, whose frames would be read.
   */
  distrust?: () => string | undefined;
}

/** One spool file as a drain read it: its frame, or why it could not be read or parsed. */
interface ReadSpoolFile {
  name: string;
  path: string;
  outcome: Outcome;
  frame?: Frame;
  /** Not one frame's bytes (too large, a lying prefix, not a regular file). */
  unreadable?: Error;
  /** One frame's bytes that do not parse as a valid frame. */
  invalid?: Error;
}

/**
 * Queues every spool file not yet queued, oldest first.
 *
 * @returns how many files the spool holds.
 * @throws {SpoolDistrusted} when `distrust` says the folder changed while
 * its files were read: nothing read is acted on.
 */
export function drainSpool(dir: string, options: DrainOptions): number {
  const { ingest, telemetry, nowMs, quarantine, distrust } = options;
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
  const read: ReadSpoolFile[] = [];
  for (const name of names) {
    const parsed = parseSpoolFileName(name);
    if (!parsed || ingest.isQueued(parsed.id)) continue;
    if (budget <= 0) break;
    const path = `${dir}/${name}`;
    const file: ReadSpoolFile = { name, path, outcome: parsed.outcome };
    let bytes: Uint8Array;
    try {
      bytes = readSpoolFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      file.unreadable = error as Error;
      read.push(file);
      continue;
    }
    budget -= bytes.length;
    try {
      const frame = parseFrameBody(bytes.subarray(4));
      if (frame.id !== parsed.id) throw new FrameError("bad_shape", "id differs from the name");
      file.frame = frame;
    } catch (error) {
      file.invalid = error as Error;
    }
    read.push(file);
  }
  const changed = distrust?.();
  if (changed !== undefined) throw new SpoolDistrusted(changed);
  for (const file of read) {
    if (file.frame !== undefined) {
      ingest.enqueue(file.frame, { outcome: file.outcome, spoolPath: file.path });
    } else if (file.invalid instanceof FrameError && quarantine !== undefined) {
      // Kept for a person to read, out of the spool so no drain tries it again.
      const detail = `spool file ${file.name}: ${file.invalid.message}`;
      quarantine.add({
        name: file.name,
        spoolPath: file.path,
        reason: file.invalid.reason,
        detail,
      });
    } else {
      // Not one frame (too large, a lying prefix, not a regular file): never copied anywhere.
      const error = file.unreadable ?? file.invalid!;
      dropSpoolFile(file.path, { name: file.name, error, telemetry });
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
