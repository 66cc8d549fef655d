/**
 * One daemon per store: an exclusive lock on `<db>.lock`, taken before the
 * store is opened and held until the process ends (the kernel drops it with
 * the file, even after SIGKILL, so a crash leaves no stale lock). The file
 * says who holds it (`pid <n> socket <path>`), so a second daemon, whatever
 * its socket, can name the running one and exit at once. Two daemons on one
 * store would both append to the chain (the second died at its first commit
 * on `UNIQUE constraint failed: rows.seq`).
 *
 * The lock file is never deleted: deleting it would let a third daemon lock
 * a new file while the second still waits on the old one.
 *
 * @module
 */

/** The lock file of a store. */
export function storeLockPath(db: string): string {
  return `${db}.lock`;
}

/** A held store lock; keep it for the life of the process. */
export interface StoreLock {
  /** The lock file. */
  path: string;
  /** Releases the lock (the process's exit does the same). */
  release(): void;
}

/** Why the lock could not be taken: another daemon has it, or the file is not one we trust. */
export class StoreLockError extends Error {
  /** `message` is one line naming the file and what to do. */
  constructor(message: string) {
    super(message);
    this.name = "StoreLockError";
  }
}

/** Options for {@linkcode lockStore}. */
export interface LockStoreOptions {
  /** The socket this daemon listens on, written into the lock file for the next one to read. */
  socket: string;
  /** This process's uid; a lock file owned by another user is refused. */
  uid: number;
}

/**
 * Takes the exclusive lock on `<db>.lock` without waiting, creating the file
 * (0600) when missing (and the store's folder, 0700, for a caller granted it:
 * the daemon's launcher makes the folder, the daemon may not).
 *
 * The file is opened only when it is a regular file of ours: a symlink
 * planted in its place is refused, and after opening, the open file and the
 * path must still be the same inode (nothing swapped in between).
 *
 * @throws {StoreLockError} naming the running daemon, or the file refused.
 */
export function lockStore(db: string, options: LockStoreOptions): StoreLock {
  const path = storeLockPath(db);
  let file: Deno.FsFile;
  try {
    file = createLockFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    file = openExisting(path, options.uid);
  }
  if (!file.tryLockSync(true)) {
    const holder = holderOf(file);
    file.close();
    throw new StoreLockError(
      `another daemon is running on the store ${db} (${holder}); stop it first, or give this one another store (CYBEROS_MEMORY_DB)`,
    );
  }
  file.truncateSync(0);
  const record = new TextEncoder().encode(`pid ${Deno.pid} socket ${options.socket}\n`);
  for (let written = 0; written < record.length;) {
    written += file.writeSync(record.subarray(written));
  }
  return {
    path,
    release() {
      try {
        file.close();
      } catch {
        // Closed already.
      }
    },
  };
}

function createLockFile(path: string): Deno.FsFile {
  // createNew is O_CREAT|O_EXCL, which never follows a symlink.
  const options = { read: true, write: true, createNew: true, mode: 0o600 };
  try {
    return Deno.openSync(path, options);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true, mode: 0o700 });
    return Deno.openSync(path, options);
  }
}

function openExisting(path: string, uid: number): Deno.FsFile {
  const before = Deno.lstatSync(path);
  if (!before.isFile) {
    throw new StoreLockError(
      `${path} is not a regular file (a symlink or folder was put there); remove it and start again`,
    );
  }
  if (before.uid !== null && before.uid !== uid) {
    throw new StoreLockError(
      `${path} belongs to uid ${before.uid}, not to you; remove it or use another store`,
    );
  }
  const file = Deno.openSync(path, { read: true, write: true });
  const opened = file.statSync();
  if (opened.ino !== before.ino || opened.dev !== before.dev) {
    file.close();
    throw new StoreLockError(`${path} was replaced while opening it; start again`);
  }
  return file;
}

/** How long a daemon that lost the lock waits for its holder's record, and how often it looks. */
const HOLDER_WAIT_MS = 200;
const HOLDER_POLL_MS = 10;

/**
 * The lock holder's record. The holder writes it right after it takes the
 * lock, so a daemon started at the same moment may look before that: it
 * looks again for a moment before saying the holder is unknown.
 */
function holderOf(file: Deno.FsFile): string {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0;; waited += HOLDER_POLL_MS) {
    const holder = readHolder(file);
    if (holder !== "" || waited >= HOLDER_WAIT_MS) return holder || "its pid and socket unknown";
    Atomics.wait(pause, 0, 0, HOLDER_POLL_MS);
  }
}

function readHolder(file: Deno.FsFile): string {
  const buffer = new Uint8Array(4096);
  let text = "";
  try {
    file.seekSync(0, Deno.SeekMode.Start);
    const n = file.readSync(buffer) ?? 0;
    text = new TextDecoder().decode(buffer.subarray(0, n)).trim();
  } catch {
    // Unreadable: `holderOf` says the holder is unknown.
  }
  // deno-lint-ignore no-control-regex
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, " ");
}
