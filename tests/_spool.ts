/**
 * Test helpers: frames left in the spool the way the hook leaves them when
 * no daemon answers, and what a folder holds.
 *
 * @module
 */

import { encodeFrame, type Frame } from "../lib/frame.ts";
import { spoolDir } from "../lib/paths.ts";
import { spoolFileName, writeSpoolFile } from "../lib/spool.ts";

/** Writes `frames` into the spool of `traceDir` (made 0700 when missing); their paths. */
export function spoolFrames(traceDir: string, frames: Frame[]): string[] {
  Deno.mkdirSync(spoolDir(traceDir), { recursive: true, mode: 0o700 });
  return frames.map((frame) =>
    writeSpoolFile(
      spoolDir(traceDir),
      spoolFileName(Number(frame.payload.captured_at_ns), frame.id),
      encodeFrame(frame),
    )
  );
}

/** The names in `dir`, sorted (none when it does not exist). */
export function listNames(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}
