/**
 * The daemon's hold on what it shares with the hook: the trace dir and its
 * spool (verified at start, then on every tick to be the same private folders
 * of this user), one daemon per trace dir (an exclusive lock), and the socket,
 * bound where nobody else can reach it before its mode is 0600.
 *
 * Every failure here is one line for the operator, not a stack trace: a
 * {@linkcode StartupError}.
 *
 * @module
 */

import { BIND_SOCKET_NAME, spoolDir } from "../lib/paths.ts";
import {
  checkPrivateDir,
  type Distrust,
  distrustOf,
  type Identity,
  recheck,
} from "../lib/trust.ts";

/** A reason the daemon cannot start or go on, as one line with the fix. */
export class StartupError extends Error {
  /** Makes the error from its line. */
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

/** The lock file inside the trace dir: whoever holds it serves that trace dir. */
export const LOCK_FILE_NAME = "daemon.lock";

/** The trace dir and its spool, as checked at start. */
export class TraceDirWatch {
  readonly #traceDir: string;
  readonly #uid: number;
  readonly #traceId: Identity;
  readonly #spoolId: Identity;

  private constructor(traceDir: string, uid: number, traceId: Identity, spoolId: Identity) {
    this.#traceDir = traceDir;
    this.#uid = uid;
    this.#traceId = traceId;
    this.#spoolId = spoolId;
  }

  /**
   * Makes the trace dir and spool (0700) when missing and trusts them, or says
   * why not.
   *
   * @throws {StartupError} when either is not a private folder of this user.
   */
  static open(traceDir: string, options: { uid: number }): TraceDirWatch {
    const trace = checked(traceDir, options.uid, "CYBEROS_MEMORY_TRACE_DIR");
    const spool = checked(spoolDir(traceDir), options.uid, "CYBEROS_MEMORY_TRACE_DIR");
    return new TraceDirWatch(traceDir, options.uid, trace, spool);
  }

  /**
   * Whether both folders are still the ones checked at start, still private:
   * `undefined` when they are, else what changed.
   */
  check(): Distrust {
    const spool = spoolDir(this.#traceDir);
    const trace = recheck(this.#traceDir, this.#traceId, { uid: this.#uid, want: "folder" });
    if (trace !== undefined) return `the trace dir ${this.#traceDir} ${trace}`;
    const inner = recheck(spool, this.#spoolId, { uid: this.#uid, want: "folder" });
    return inner === undefined ? undefined : `the spool ${spool} ${inner}`;
  }
}

function checked(path: string, uid: number, variable: string): Identity {
  let result;
  try {
    result = checkPrivateDir(path, { uid, create: true });
  } catch (error) {
    throw new StartupError(
      `cannot use ${path}: ${(error as Error).message}; set ${variable} to a folder you own`,
    );
  }
  if (result.distrust !== undefined) {
    throw new StartupError(
      `${path} ${result.distrust}: another user may have made it; nothing in it is used. Remove it (or chmod 700 it if it is yours) or set ${variable} to a folder only you can write`,
    );
  }
  return result.identity;
}

/**
 * Takes the trace dir's lock, held until the process exits: two daemons
 * started at once on the same trace dir cannot both replace a stale socket,
 * and one spool has one drainer.
 *
 * @throws {StartupError} when another daemon holds it.
 */
export function lockTraceDir(traceDir: string): Deno.FsFile {
  const path = `${traceDir}/${LOCK_FILE_NAME}`;
  const file = Deno.openSync(path, { read: true, write: true, create: true, mode: 0o600 });
  if (!file.tryLockSync(true)) {
    file.close();
    throw new StartupError(
      `another daemon is running on ${traceDir} (it holds ${path}); stop it first or set CYBEROS_MEMORY_TRACE_DIR to another folder`,
    );
  }
  return file;
}

/**
 * Binds the socket: checks what is at its path (only a stale socket of ours
 * may be replaced), listens at {@linkcode BIND_SOCKET_NAME} inside the private
 * trace dir, sets mode 0600 and checks it, then renames it into place, which
 * also replaces a stale socket atomically. When the two are on different
 * filesystems the rename cannot work, and the socket is bound in place (the
 * window before its chmod is documented in docs/security.md).
 *
 * @throws {StartupError} for a path that is not ours to take, or a live daemon.
 */
export async function bindSocket(
  socket: string,
  options: { traceDir: string; uid: number },
): Promise<Deno.UnixListener> {
  const stale = await claimSocket(socket, options.uid);
  const temp = `${options.traceDir}/${BIND_SOCKET_NAME}`;
  removeIfPresent(temp);
  const listener = listenPrivately(temp, options.uid);
  try {
    Deno.renameSync(temp, socket);
    return listener;
  } catch (error) {
    listener.close();
    removeIfPresent(temp);
    if (!/os error 18\b/.test((error as Error).message)) {
      throw new StartupError(`cannot move the socket to ${socket}: ${(error as Error).message}`);
    }
  }
  if (stale) removeIfPresent(socket);
  return listenPrivately(socket, options.uid);
}

/**
 * What is at the socket's path: nothing (`false`), a stale socket of ours to
 * replace (`true`), or a reason not to start.
 */
async function claimSocket(path: string, uid: number): Promise<boolean> {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw new StartupError(`cannot examine ${path}: ${(error as Error).message}`);
  }
  const distrust = distrustOf(info, uid, "socket");
  if (distrust !== undefined) {
    throw new StartupError(
      `${path} ${distrust}, so it is not a stale socket of ours: remove it (as its owner) or set CYBEROS_MEMORY_SOCKET to a path in a folder only you can write`,
    );
  }
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
  } catch {
    return true;
  }
  throw new StartupError(
    `another daemon is already listening on ${path}; stop it first or use another socket`,
  );
}

function listenPrivately(path: string, uid: number): Deno.UnixListener {
  let listener: Deno.UnixListener;
  try {
    listener = Deno.listen({ transport: "unix", path });
  } catch (error) {
    throw new StartupError(`cannot listen on ${path}: ${(error as Error).message}`);
  }
  Deno.chmodSync(path, 0o600);
  const info = Deno.lstatSync(path);
  if (info.uid !== uid || ((info.mode ?? 0) & 0o077) !== 0) {
    listener.close();
    throw new StartupError(
      `the socket ${path} is mode ${((info.mode ?? 0) & 0o777).toString(8)} after its chmod to 600`,
    );
  }
  return listener;
}

function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
