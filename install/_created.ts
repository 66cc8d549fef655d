/**
 * The installer's record of the settings files `install` created (or found
 * holding nothing), so that `uninstall` gives back exactly what was there: it
 * deletes a file (or puts back its exact text) only when this record names it
 * and the file is still what install last wrote: the same device and inode,
 * the same bytes (BLAKE3). Any other file (one the user had with settings in
 * it, or one install created that the user has since edited or replaced)
 * keeps everything but our entries.
 *
 * The record lives in the user's private state,
 * `<runtime dir>/installer/created.json` (`$XDG_STATE_HOME/cyberos-memory`,
 * else `~/.local/state/cyberos-memory`), never in the repository installed
 * into: a hostile repository cannot write a record that makes uninstall delete
 * its files. A record folder that is a symlink, another user's, or open to
 * group or others is refused, since whoever can write there could name any
 * file.
 *
 * @module
 */

import { blake3Hex } from "../lib/hash.ts";
import { type EnvLookup, runtimeDir } from "../lib/paths.ts";
import { checkPrivateDir } from "../lib/trust.ts";
import { readSettings, UserError, writeSettingsAtomic } from "./_files.ts";

/** The record folder's name inside the runtime dir. */
export const RECORD_DIR_NAME = "installer";

/** The record file's name inside the record folder. */
export const RECORD_FILE_NAME = "created.json";

/** What install left in one settings file it created or filled. */
export interface CreatedEntry {
  /** The device of the file install last wrote. */
  dev: number;
  /** The inode of the file install last wrote. */
  ino: number;
  /** BLAKE3 of the text install last wrote, lowercase hex. */
  blake3: string;
  /**
   * The file's text before install wrote it, when it held nothing
   * ({@linkcode holdsNothing}); `null` when install created the file.
   */
  before: string | null;
  /** Install created the `.claude` folder holding the file. */
  createdDir: boolean;
}

/**
 * Whether a settings text holds nothing: blank, or an empty object laid out
 * any way (a byte-order mark counts as blank). Install records the exact text
 * of such a file, since putting our entries in loses its layout; it copies no
 * other file into the record (a settings file may hold secrets in `env`).
 */
export function holdsNothing(text: string): boolean {
  return /^\s*(?:\{\s*\}\s*)?$/.test(text);
}

/** The record: settings file path → what install left there. */
export type CreatedRecord = Map<string, CreatedEntry>;

/**
 * The record folder of this user: `<runtime dir>/installer`.
 *
 * @throws {UserError} when neither `XDG_STATE_HOME` nor `HOME` names an absolute path.
 */
export function recordDir(env: EnvLookup): string {
  try {
    return `${runtimeDir(env)}/${RECORD_DIR_NAME}`;
  } catch {
    throw new UserError(
      "cannot find the installer's record folder: set XDG_STATE_HOME or HOME to an absolute path",
    );
  }
}

/**
 * Reads the record in `dir` (empty when there is none yet), after checking
 * the folder is a real one of this user's, closed to group and others.
 * `create` makes the folder (0700) when missing.
 *
 * @throws {UserError} when the folder or the record is not trusted or not a
 * record this installer wrote.
 */
export function readRecord(dir: string, options: { create: boolean }): CreatedRecord {
  let check;
  try {
    check = checkPrivateDir(dir, { uid: Deno.uid()!, create: options.create });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Map();
    throw new UserError(`${dir}: cannot use the installer's record folder: ${firstLine(error)}`);
  }
  if (check.distrust !== undefined) {
    throw new UserError(
      `${dir} ${check.distrust}; the installer keeps its record of the settings files it created there: make it a folder of yours with mode 0700 (chmod 700), or remove it`,
    );
  }
  const path = `${dir}/${RECORD_FILE_NAME}`;
  const text = readSettings(path);
  return text === undefined ? new Map() : parseRecord(path, text);
}

/** Writes the record into `dir` atomically (mode 0600); removes the file when it names nothing. */
export function writeRecord(dir: string, record: CreatedRecord): void {
  const path = `${dir}/${RECORD_FILE_NAME}`;
  if (record.size === 0) {
    try {
      Deno.removeSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return;
  }
  const files = Object.fromEntries(record);
  writeSettingsAtomic(path, JSON.stringify({ version: 1, files }, null, 2) + "\n", { mode: 0o600 });
}

/** The entry for a file install has just written `text` to. */
export function entryFor(
  path: string,
  text: string,
  options: { before: string | null; createdDir: boolean },
): CreatedEntry {
  const info = Deno.lstatSync(path);
  return { dev: info.dev, ino: info.ino ?? -1, blake3: blake3Hex(text), ...options };
}

/**
 * Whether the file at `path`, read as `text`, is still the one install last
 * wrote: same device and inode, same bytes. A file the user edited, or
 * deleted and made again, is not.
 */
export function isAsWritten(entry: CreatedEntry, path: string, text: string): boolean {
  const info = Deno.lstatSync(path);
  return info.dev === entry.dev && info.ino === entry.ino && blake3Hex(text) === entry.blake3;
}

function parseRecord(path: string, text: string): CreatedRecord {
  const refuse = (detail: string) =>
    new UserError(
      `${path}: not a record this installer wrote (${detail}); remove it and run the command again`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refuse(firstLine(error));
  }
  if (!isObject(value) || value.version !== 1 || !isObject(value.files)) {
    throw refuse('expected {"version": 1, "files": {...}}');
  }
  const record: CreatedRecord = new Map();
  for (const [file, entry] of Object.entries(value.files)) {
    if (!isEntry(entry)) throw refuse(`the entry for ${file}`);
    record.set(file, {
      dev: entry.dev,
      ino: entry.ino,
      blake3: entry.blake3,
      before: entry.before,
      createdDir: entry.createdDir,
    });
  }
  return record;
}

function isEntry(value: unknown): value is CreatedEntry {
  if (!isObject(value)) return false;
  const { dev, ino, blake3, before, createdDir } = value;
  return Number.isSafeInteger(dev) && Number.isSafeInteger(ino) && typeof blake3 === "string" &&
    /^[0-9a-f]{64}$/.test(blake3) &&
    (before === null || (typeof before === "string" && holdsNothing(before))) &&
    typeof createdDir === "boolean";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n", 1)[0]!;
}
