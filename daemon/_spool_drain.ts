/**
 * Drains the hook's spool into the writer in capture order, and keeps the
 * trace dir tidy: stale temp files and trace ids idle past an hour go.
 *
 * @module
 */

import { FrameError, parseFrameBody } from "../lib/frame.ts";
import { MAX_SPOOL_FILES, parseSpoolFileName, pruneSpool } from "../lib/spool.ts";
import { TRACE_IDLE_MS } from "../lib/trace_id.ts";
import type { Ingest } from "./_ingest.ts";
import { log } from "./_log.ts";
import type { Quarantine } from "./_quarantine.ts";
import type { Telemetry } from "./_telemetry.ts";

const TEMP_FILE_GRACE_MS = 60_000;
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
  for (const name of names) {
    const parsed = parseSpoolFileName(name);
    if (!parsed || ingest.isQueued(parsed.id)) continue;
    const path = `${dir}/${name}`;
    try {
      const bytes = Deno.readFileSync(path);
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
      log("WARN", `spool file ${name} dropped: ${(error as Error).message}`);
      telemetry.rejected(error instanceof FrameError ? error.reason : "bad_spool");
      try {
        Deno.removeSync(path);
      } catch {
        // Gone already.
      }
    }
  }
  telemetry.spoolDepth(names.length);
  return names.length;
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
