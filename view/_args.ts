/**
 * What `deno task view` accepts on its command line, shared by the launcher
 * and the server (which must not load the store's modules to print usage).
 *
 * @module
 */

/** The usage text of `deno task view`. */
export const VIEW_USAGE = `usage: deno task view [--port N]

Serves a read-only web view of the capture store on 127.0.0.1 and prints its
URL with a random token; without the token every request is refused.

  --port N    listen on this port (default: a free one)
  -h, --help  show this help

The store is CYBEROS_MEMORY_DB (default $XDG_DATA_HOME/cyberos-memory/capture.db).`;

/** A command-line mistake: exit 2. */
export class UsageError extends Error {
  /** Makes the error with what is wrong and the fix. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Parses a port number, 1 to 65535. */
export function parsePort(value: string | undefined): number {
  if (value === undefined || !/^[1-9][0-9]{0,4}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`--port needs a port from 1 to 65535, got "${value ?? ""}"`);
  }
  return Number(value);
}
