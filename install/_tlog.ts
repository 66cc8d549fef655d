/**
 * What the tamper-evidence commands (`checkpoint`, `key`, `prove`, `verify`)
 * share: their failures with exit codes, the store opened read-only, files
 * read with a size cap, and the verifier key from the command line or the
 * store.
 *
 * @module
 */

import { parseVerifierKey, type VerifierKey } from "../lib/note.ts";
import { resolveDbPath } from "../lib/paths.ts";
import { META_KEYS, openStore, type Store } from "../lib/store.ts";

/** A failure with its exit code: 1 failed, 2 bad usage. */
export class CommandError extends Error {
  /** The exit code. */
  readonly code: 1 | 2;

  /** Makes the failure: one line without the `cyberos-memory <command>:` prefix. */
  constructor(code: 1 | 2, message: string) {
    super(message);
    this.name = "CommandError";
    this.code = code;
  }
}

/** The largest checkpoint or proof file read (a proof of 2^53 rows is under 10 KB). */
export const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * Runs a command body, printing a {@linkcode CommandError} as one line with
 * the command's prefix; returns the exit code.
 */
export async function runCommand(command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof CommandError) {
      console.error(`cyberos-memory ${command}: ${error.message}`);
      return error.code;
    }
    throw error;
  }
}

/** The store at the configured path, opened read-only, and its path. */
export function openReadOnlyStore(): { store: Store; db: string } {
  let db: string;
  try {
    db = resolveDbPath((name) => Deno.env.get(name));
  } catch (error) {
    throw new CommandError(2, (error as Error).message);
  }
  try {
    return { store: openStore(db, { readOnly: true }), db };
  } catch (error) {
    throw new CommandError(
      1,
      `cannot open ${db}: ${
        (error as Error).message
      }; start the daemon once or set CYBEROS_MEMORY_DB`,
    );
  }
}

/** A text file of at most {@linkcode MAX_INPUT_BYTES}, or a failure (exit 1) naming it. */
export function readInputFile(path: string, what: string): string {
  let bytes: Uint8Array;
  try {
    if (Deno.statSync(path).size > MAX_INPUT_BYTES) {
      throw new Error(`larger than ${MAX_INPUT_BYTES} bytes`);
    }
    bytes = Deno.readFileSync(path);
  } catch (error) {
    throw new CommandError(1, `cannot read ${what} ${path}: ${(error as Error).message}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CommandError(1, `${what} ${path} is not UTF-8 text`);
  }
}

/**
 * The verifier key given with `--vkey`, else the one the store keeps (a key
 * kept elsewhere is the stronger check: the store's copy is only as good as
 * the store).
 */
export function verifierKeyOf(vkey: string | undefined, store: Store | undefined): VerifierKey {
  if (vkey !== undefined) {
    try {
      return parseVerifierKey(vkey);
    } catch (error) {
      throw new CommandError(2, `--vkey: ${(error as Error).message}`);
    }
  }
  const stored = store?.meta(META_KEYS.verifierKey);
  if (stored === undefined) {
    throw new CommandError(
      1,
      "the store has no verifier key yet (the daemon makes one at its first start); pass --vkey",
    );
  }
  return parseVerifierKey(stored);
}

/**
 * Parses `--flag value` options and positionals; `-h`/`--help` is reported,
 * any other unknown flag is a usage failure.
 */
export function parseOptions(
  args: readonly string[],
  options: { valued: readonly string[]; usage: string },
): { values: Map<string, string>; positionals: string[]; help: boolean } {
  const values = new Map<string, string>();
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-h" || arg === "--help") help = true;
    else if (options.valued.includes(arg)) {
      const value = args[++i];
      if (value === undefined) throw new CommandError(2, `${arg} needs a value; ${options.usage}`);
      if (values.has(arg)) throw new CommandError(2, `${arg} is given twice; ${options.usage}`);
      values.set(arg, value);
    } else if (arg.startsWith("-")) {
      throw new CommandError(2, `unknown option "${arg}"; ${options.usage}`);
    } else positionals.push(arg);
  }
  return { values, positionals, help };
}
