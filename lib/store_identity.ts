/**
 * The store's identity: the device and inode of the file at the store's path
 * when it was opened. A store deleted or replaced under a running daemon
 * keeps the old file open (a deleted inode, or another file now at the path),
 * so every later commit would land where nobody reads it while the spool
 * files are deleted: rows lost without a word. The daemon compares the path
 * with this identity on every tick and before every commit, and stops instead.
 *
 * @module
 */

/** The file a path named when it was opened. */
export interface FileIdentity {
  /** The path. */
  path: string;
  /** Its device. */
  dev: number;
  /** Its inode. */
  ino: number;
}

/** A store whose file was deleted or replaced while open. */
export class StoreReplacedError extends Error {
  /** Makes the error for `path`, saying what happened to it. */
  constructor(path: string, what: string) {
    super(`Cannot write the store: ${path} was ${what} while the daemon ran`);
    this.name = "StoreReplacedError";
  }
}

/** The identity of the file at `path` now (no symlink followed). */
export function fileIdentity(path: string): FileIdentity {
  const info = Deno.lstatSync(path);
  return { path, dev: info.dev, ino: info.ino ?? 0 };
}

/**
 * Checks that `identity.path` still names the same file.
 *
 * @throws {StoreReplacedError} when it was deleted or replaced.
 */
export function assertSameFile(identity: FileIdentity): void {
  let now: Deno.FileInfo;
  try {
    now = Deno.lstatSync(identity.path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new StoreReplacedError(identity.path, "deleted");
    }
    throw error;
  }
  if (now.dev !== identity.dev || (now.ino ?? 0) !== identity.ino) {
    throw new StoreReplacedError(identity.path, "replaced");
  }
}
