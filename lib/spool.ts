/**
 * The spool: every frame the hook sends is also written here (temp file,
 * then rename, mode 0600; once the frame is on the socket, or could not be
 * sent), and the daemon deletes a spool file only after its row is
 * committed. A daemon that is down, hung or killed mid-write therefore loses
 * nothing: it drains the spool in capture order when it comes back, and a
 * file whose frame was already committed is simply removed.
 *
 * A file is named `<captured_at_ns, 20 digits>-<frame id>.frame`, or
 * `…-<frame id>.<outcome>.frame` when sending failed, so that the daemon can
 * count outcomes that never reached it.
 *
 * @module
 */

import { isOutcome, type Outcome } from "./outcomes.ts";
import { nsDigits } from "./json.ts";

/** At most this many spool files are kept; past it the oldest go. */
export const MAX_SPOOL_FILES = 10_000;

/** At most this many spooled bytes are kept; past it the oldest go. */
export const MAX_SPOOL_BYTES = 256 * 1024 * 1024;

const SPOOL_NAME = /^(\d{20})-([0-9a-f]{32})(?:\.([a-z_]+))?\.frame$/;

/** What a spool file's name says. */
export interface SpoolEntryName {
  /** When the frame was captured, ns since the epoch. */
  capturedAtNs: number;
  /** The frame id. */
  id: string;
  /** The hook's outcome when sending failed; `ok` when it did not. */
  outcome: Outcome;
}

/** The spool file name of a frame. */
export function spoolFileName(capturedAtNs: number, id: string, outcome: Outcome = "ok"): string {
  const stamp = nsDigits(capturedAtNs).padStart(20, "0");
  return outcome === "ok" ? `${stamp}-${id}.frame` : `${stamp}-${id}.${outcome}.frame`;
}

/** Reads a spool file name, or `undefined` for anything else in the folder. */
export function parseSpoolFileName(name: string): SpoolEntryName | undefined {
  const match = SPOOL_NAME.exec(name);
  if (!match) return undefined;
  const outcome = match[3] ?? "ok";
  if (!isOutcome(outcome)) return undefined;
  return { capturedAtNs: Number(match[1]), id: match[2]!, outcome };
}

/** Writes one encoded frame into the spool atomically; returns its path. */
export function writeSpoolFile(dir: string, name: string, bytes: Uint8Array): string {
  const path = `${dir}/${name}`;
  const temp = `${dir}/.tmp-${name}`;
  Deno.writeFileSync(temp, bytes, { mode: 0o600 });
  Deno.renameSync(temp, path);
  return path;
}

/**
 * Keeps the spool within {@linkcode MAX_SPOOL_FILES} and
 * {@linkcode MAX_SPOOL_BYTES} by deleting the oldest files.
 *
 * @returns how many files were dropped.
 */
export function pruneSpool(
  dir: string,
  limits: { maxFiles?: number; maxBytes?: number } = {},
): number {
  const { maxFiles = MAX_SPOOL_FILES, maxBytes = MAX_SPOOL_BYTES } = limits;
  const names: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isFile && parseSpoolFileName(entry.name)) names.push(entry.name);
  }
  names.sort();
  const sizes = names.map((name) => {
    try {
      return Deno.lstatSync(`${dir}/${name}`).size;
    } catch {
      return 0;
    }
  });
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let count = names.length;
  let dropped = 0;
  for (let i = 0; i < names.length && (count > maxFiles || total > maxBytes); i++) {
    try {
      Deno.removeSync(`${dir}/${names[i]}`);
      dropped++;
    } catch {
      // Already drained by the daemon.
    }
    count--;
    total -= sizes[i]!;
  }
  return dropped;
}
