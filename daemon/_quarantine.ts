/**
 * The quarantine: a frame the store cannot take (a shape the validator
 * refuses, a number out of range, a constraint) is moved here, beside the
 * store, with a WARN and a counter, instead of stopping its whole batch or
 * the daemon. Each file keeps the spool file's name and bytes (length
 * prefix and frame JSON, already redacted by the hook), so a person can read
 * it, or move it back into the spool once the cause is fixed.
 *
 * The folder is `<store>.quarantine/` (0700, files 0600): beside the store,
 * which outlives a cleaned runtime folder, and named after it, so the
 * daemon's write grant covers only the store's own paths.
 *
 * @module
 */

import { encodeFrame, type Frame } from "../lib/frame.ts";
import { log } from "./_log.ts";

export { quarantineDirOf } from "../lib/store_paths.ts";
import type { Telemetry } from "./_telemetry.ts";

/** At most this many files are kept; past it a bad frame is dropped with a WARN. */
export const MAX_QUARANTINE_FILES = 1000;

/** One frame to quarantine: its spool file, or the frame itself when it never reached the spool. */
export interface QuarantineItem {
  /** The spool file name, kept in quarantine. */
  name: string;
  /** The spool file, removed once copied. */
  spoolPath: string;
  /** The decoded frame, written when the spool file is not (yet) there. */
  frame?: Frame;
  /** The counter's reason label. */
  reason: string;
  /** What went wrong, for the WARN line (never the frame's content). */
  detail: string;
}

/** Moves frames the store cannot take out of the spool, into the quarantine folder. */
export class Quarantine {
  readonly #dir: string;
  readonly #telemetry: Telemetry;

  /** A quarantine in `dir` (made on first use). */
  constructor(dir: string, options: { telemetry: Telemetry }) {
    this.#dir = dir;
    this.#telemetry = options.telemetry;
  }

  /** The folder. */
  get dir(): string {
    return this.#dir;
  }

  /**
   * Quarantines one frame: copies its spool file (or writes the frame) into
   * the folder, then removes the spool file. Never throws: a quarantine that
   * cannot be written drops the frame with a WARN rather than block the rest.
   */
  add(item: QuarantineItem): void {
    const target = `${this.#dir}/${item.name}`;
    this.#telemetry.quarantined(item.reason);
    try {
      const bytes = readIfPresent(item.spoolPath) ?? (item.frame && encodeFrame(item.frame));
      if (bytes === undefined) throw new Error("neither its spool file nor the frame is at hand");
      this.#ensureDir();
      if (this.#count() >= MAX_QUARANTINE_FILES) {
        throw new Error(`the quarantine holds ${MAX_QUARANTINE_FILES} files already`);
      }
      Deno.writeFileSync(target, bytes, { mode: 0o600 });
      Deno.chmodSync(target, 0o600);
      log("WARN", `frame quarantined: ${item.detail}; kept as ${target}`);
    } catch (error) {
      log("WARN", `frame dropped: ${item.detail}; cannot quarantine: ${(error as Error).message}`);
    }
    try {
      Deno.removeSync(item.spoolPath);
    } catch {
      // Not spooled (yet): a copy that lands later fails again and is settled here again.
    }
  }

  #ensureDir(): void {
    try {
      Deno.mkdirSync(this.#dir, { mode: 0o700 });
      Deno.chmodSync(this.#dir, 0o700);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      if (!Deno.lstatSync(this.#dir).isDirectory) {
        throw new Error(`${this.#dir} exists and is not a folder`);
      }
    }
  }

  #count(): number {
    let files = 0;
    for (const _ of Deno.readDirSync(this.#dir)) files++;
    return files;
  }
}

function readIfPresent(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
