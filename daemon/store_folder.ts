/**
 * Makes the store's folder, 0700, when it is missing: `deno task start` runs
 * this before the daemon, since the daemon is granted only the store's own
 * paths and so cannot create the folder that holds them. Run with read and
 * write on that folder only (`storeFolderPermissionFlags`).
 *
 * Usage: `daemon/store_folder.ts DB_PATH`
 *
 * @module
 */

import { dirname } from "../lib/paths.ts";

/**
 * Makes `dirname(db)` (and any missing parent) 0700 unless it exists.
 *
 * @throws {TypeError} when the path exists and is not a folder.
 */
export function makeStoreFolder(db: string): void {
  const folder = dirname(db);
  try {
    if (Deno.statSync(folder).isDirectory) return;
    throw new TypeError(`Cannot make the store's folder: ${folder} exists and is not a folder`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
  Deno.chmodSync(folder, 0o700);
}

if (import.meta.main) {
  const [db] = Deno.args;
  try {
    if (db === undefined || !db.startsWith("/") || Deno.args.length !== 1) {
      throw new TypeError("usage: store_folder.ts DB_PATH (absolute)");
    }
    makeStoreFolder(db);
  } catch (error) {
    console.error(`cyberos-memory start: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
