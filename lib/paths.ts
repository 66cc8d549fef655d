/**
 * Default paths and the environment variables that override them. Only the
 * daemon, the launchers, the installer and the readers call
 * {@linkcode resolvePaths}; the hook gets its paths as arguments and never
 * reads the environment.
 *
 * Everything the hook and the daemon share (the socket, the trace ids, the
 * spool) lives in one private per-user folder, the runtime dir
 * (`$XDG_STATE_HOME/cyberos-memory`, else `~/.local/state/cyberos-memory`,
 * mode 0700), which no other user can create, replace or enter: the shared
 * `/tmp` let another user squat the paths, forge rows and catch frames
 * (docs/security.md). The spec's `/tmp` paths stay selectable through the
 * variables, with every trust check.
 *
 * @module
 */

/** The runtime dir's name inside `$XDG_STATE_HOME` (or `~/.local/state`). */
export const RUNTIME_DIR_NAME = "cyberos-memory";

/** The socket's name inside the runtime dir. */
export const SOCKET_NAME = "capture.sock";

/** The environment variables this product reads. */
export const ENV_VARS = {
  socket: "CYBEROS_MEMORY_SOCKET",
  traceDir: "CYBEROS_MEMORY_TRACE_DIR",
  db: "CYBEROS_MEMORY_DB",
} as const;

/**
 * Where the daemon binds its socket inside the trace dir before renaming it
 * into place: nobody else can connect to it there before its chmod.
 */
export const BIND_SOCKET_NAME = ".bind.sock";

/** The sub-folder of the trace dir where the hook spools frames until the daemon commits them. */
export const SPOOL_DIR_NAME = "spool";

/**
 * The most bytes a Unix socket path may have: `sun_path` holds 108 on Linux
 * (104 on macOS) including the final NUL.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

/** The paths every part agrees on. */
export interface CapturePaths {
  /** The daemon's Unix socket. */
  socket: string;
  /** The per-session trace id cache; the spool lives inside it. */
  traceDir: string;
  /** The SQLite store. */
  db: string;
}

/** Reads one environment variable; `Deno.env.get` in production. */
export type EnvLookup = (name: string) => string | undefined;

/**
 * The private runtime dir: `$XDG_STATE_HOME/cyberos-memory`, else
 * `$HOME/.local/state/cyberos-memory`. It is the default trace dir, and holds
 * the default socket.
 *
 * @throws {TypeError} when neither variable is set to an absolute path.
 */
export function runtimeDir(env: EnvLookup): string {
  const stateHome = env("XDG_STATE_HOME") ||
    (env("HOME") ? `${absolute(env("HOME")!, "HOME")}/.local/state` : undefined);
  if (!stateHome) {
    throw new TypeError(
      `Cannot find the runtime dir: set XDG_STATE_HOME or HOME, or set ${ENV_VARS.socket} and ${ENV_VARS.traceDir}`,
    );
  }
  return `${absolute(stateHome, "XDG_STATE_HOME")}/${RUNTIME_DIR_NAME}`;
}

/**
 * Resolves the paths from the environment, falling back to the private
 * runtime dir and `$XDG_DATA_HOME/cyberos-memory/capture.db`. Relative
 * overrides are refused, since a hook command must carry absolute paths, and
 * so is a socket path too long for a Unix socket.
 *
 * @throws {TypeError} when an override is not an absolute path, a default
 * cannot be found, or the socket path is too long.
 */
export function resolvePaths(env: EnvLookup): CapturePaths {
  const socketOverride = env(ENV_VARS.socket);
  const traceOverride = env(ENV_VARS.traceDir);
  const runtime = socketOverride && traceOverride ? undefined : runtimeDir(env);
  const socket = socketOverride
    ? absolute(socketOverride, ENV_VARS.socket)
    : `${runtime}/${SOCKET_NAME}`;
  checkSocketPathLength(socket);
  const traceDir = traceOverride ? absolute(traceOverride, ENV_VARS.traceDir) : runtime!;
  return { socket, traceDir, db: resolveDbPath(env) };
}

/**
 * The store's path alone, for the commands that need nothing else (`tail`,
 * `verify`, `coverage`, `team`): they must not fail over a socket path.
 *
 * @throws {TypeError} when `CYBEROS_MEMORY_DB` is not absolute, or neither it,
 * `XDG_DATA_HOME` nor `HOME` is set.
 */
export function resolveDbPath(env: EnvLookup): string {
  const dbOverride = env(ENV_VARS.db);
  if (dbOverride) return absolute(dbOverride, ENV_VARS.db);
  const dataHome = env("XDG_DATA_HOME") ||
    (env("HOME") ? `${env("HOME")}/.local/share` : undefined);
  if (!dataHome) {
    throw new TypeError(
      `Cannot find the store: set ${ENV_VARS.db}, XDG_DATA_HOME or HOME to an absolute path`,
    );
  }
  return `${absolute(dataHome, "XDG_DATA_HOME")}/cyberos-memory/capture.db`;
}

/**
 * Refuses a socket path longer than a Unix socket address holds, naming the
 * variable that shortens it (`Deno.listen` would fail later with a less
 * helpful message, and the hook would only ever say `socket_unavailable`).
 *
 * @throws {TypeError} when `path` has more than {@linkcode MAX_SOCKET_PATH_BYTES} bytes.
 */
export function checkSocketPathLength(path: string): void {
  const bytes = new TextEncoder().encode(path).length;
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new TypeError(
      `Cannot use the socket path ${path}: ${bytes} bytes, a Unix socket path holds at most ${MAX_SOCKET_PATH_BYTES}; set ${ENV_VARS.socket} to a shorter path in a folder only you can write (or XDG_STATE_HOME to a shorter folder)`,
    );
  }
}

/** The spool folder inside a trace dir. */
export function spoolDir(traceDir: string): string {
  return `${traceDir}/${SPOOL_DIR_NAME}`;
}

/** The folder part of a path (`/a/b/c` → `/a/b`). */
export function dirname(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

function absolute(path: string, name: string): string {
  if (!path.startsWith("/")) {
    throw new TypeError(
      `Cannot use ${name}: "${path}" is not an absolute path, give one starting with /`,
    );
  }
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}
