/**
 * Trust checks for what the hook and the daemon share: the trace dir (and the
 * spool inside it) must be a real folder owned by this user and closed to
 * group and others, and stay the same folder (device and inode) for as long as
 * it is used; a socket must be owned by this user, checked right before the
 * connect and again right after it.
 *
 * Synchronous on purpose: the hook is short-lived and every await costs it
 * more than the syscall.
 *
 * @module
 */

/** Why a folder or socket is not trusted, or `undefined` when it is. */
export type Distrust = string | undefined;

/** Which folder or socket was checked: its device and inode. */
export interface Identity {
  /** The device. */
  dev: number;
  /** The inode. */
  ino: number;
}

/** A check's answer: the identity of what was trusted, or why it was not. */
export type TrustCheck = { identity: Identity; distrust?: undefined } | {
  identity?: undefined;
  distrust: string;
};

/**
 * Says why a path's `lstat` makes it untrustworthy: a symlink, another
 * owner, group or other access on a folder, or the wrong type.
 */
export function distrustOf(
  info: Deno.FileInfo,
  uid: number,
  want: "folder" | "socket",
): Distrust {
  if (info.isSymlink) return "is a symlink";
  if (want === "folder" && !info.isDirectory) return "is not a folder";
  if (want === "socket" && !info.isSocket) return "is not a socket";
  if (info.uid !== uid) return `is owned by uid ${info.uid}`;
  if (want === "folder" && ((info.mode ?? 0) & 0o077) !== 0) {
    return `is open to group or others (mode ${((info.mode ?? 0) & 0o777).toString(8)})`;
  }
  return undefined;
}

/**
 * Checks a private folder (the trace dir, the spool): makes it (0700) when
 * missing and `create` says so, then trusts it only when {@linkcode distrustOf}
 * finds nothing.
 *
 * @throws when the folder cannot be examined or made (not a trust answer).
 */
export function checkPrivateDir(
  path: string,
  options: { uid: number; create: boolean },
): TrustCheck {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound) || !options.create) throw error;
    Deno.mkdirSync(path, { mode: 0o700, recursive: true });
    info = Deno.lstatSync(path);
  }
  return trusted(info, options.uid, "folder");
}

/**
 * Checks the socket right before connecting: it must exist, be a socket and
 * belong to this user.
 *
 * @throws {Deno.errors.NotFound} when nothing is there (no daemon).
 */
export function checkSocket(path: string, options: { uid: number }): TrustCheck {
  return trusted(Deno.lstatSync(path), options.uid, "socket");
}

/**
 * Checks that a folder or socket checked before is still the same one, still
 * trusted: nobody removed it and put another in its place.
 */
export function recheck(
  path: string,
  identity: Identity,
  options: { uid: number; want: "folder" | "socket" },
): Distrust {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "was removed";
    return `cannot be examined: ${(error as Error).message}`;
  }
  const distrust = distrustOf(info, options.uid, options.want);
  if (distrust !== undefined) return distrust;
  if (info.dev !== identity.dev || info.ino !== identity.ino) {
    return `was replaced (inode ${info.dev}:${info.ino}, was ${identity.dev}:${identity.ino})`;
  }
  return undefined;
}

/** Why a connect was not made or not used: the socket is not trusted. */
export class UntrustedSocket extends Error {
  /** Makes the error for `path` with the reason. */
  constructor(path: string, distrust: string) {
    super(`${path} ${distrust}`);
    this.name = "UntrustedSocket";
  }
}

/**
 * Connects to a socket checked by {@linkcode checkSocket} and checks it again
 * once connected: a socket removed and re-bound by someone else between the
 * check and the connect shows another inode or owner then, and the
 * connection is closed before anything is written. Never rejects.
 */
export function connectChecked(
  path: string,
  identity: Identity,
  options: { uid: number },
): Promise<Deno.UnixConn | Error> {
  return Deno.connect({ transport: "unix", path }).then((conn) => {
    const distrust = recheck(path, identity, { uid: options.uid, want: "socket" });
    if (distrust === undefined) return conn;
    conn.close();
    return new UntrustedSocket(path, `${distrust} while connecting`);
  }, (error: Error) => error);
}

function trusted(info: Deno.FileInfo, uid: number, want: "folder" | "socket"): TrustCheck {
  const distrust = distrustOf(info, uid, want);
  if (distrust !== undefined) return { distrust };
  return { identity: { dev: info.dev, ino: info.ino ?? -1 } };
}
