/**
 * Default paths and the environment variables that override them. Only the
 * daemon, the installer and the readers call {@linkcode resolvePaths}; the hook
 * gets its paths as arguments and never reads the environment.
 *
 * @module
 */

/** Where the daemon listens unless `CYBEROS_MEMORY_SOCKET` says otherwise. */
export const DEFAULT_SOCKET_PATH = "/tmp/cyberos-memory-capture.sock";

/** The per-session trace id cache unless `CYBEROS_MEMORY_TRACE_DIR` says otherwise. */
export const DEFAULT_TRACE_DIR = "/tmp/cyberos-memory-claude-traces";

/** The environment variables this product reads. */
export const ENV_VARS = {
  socket: "CYBEROS_MEMORY_SOCKET",
  traceDir: "CYBEROS_MEMORY_TRACE_DIR",
  db: "CYBEROS_MEMORY_DB",
} as const;

/** The sub-folder of the trace dir where the hook spools frames until the daemon commits them. */
export const SPOOL_DIR_NAME = "spool";

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
 * Resolves the paths from the environment, falling back to the defaults of
 * DESIGN.md. Relative overrides are refused, since a hook command must carry
 * absolute paths.
 *
 * @throws {TypeError} when an override is not an absolute path, or neither
 * `CYBEROS_MEMORY_DB`, `XDG_DATA_HOME` nor `HOME` is set.
 */
export function resolvePaths(env: EnvLookup): CapturePaths {
  const socket = absolute(env(ENV_VARS.socket) || DEFAULT_SOCKET_PATH, ENV_VARS.socket);
  const traceDir = absolute(env(ENV_VARS.traceDir) || DEFAULT_TRACE_DIR, ENV_VARS.traceDir);
  const dbOverride = env(ENV_VARS.db);
  if (dbOverride) return { socket, traceDir, db: absolute(dbOverride, ENV_VARS.db) };
  const dataHome = env("XDG_DATA_HOME") ||
    (env("HOME") ? `${env("HOME")}/.local/share` : undefined);
  if (!dataHome) {
    throw new TypeError(
      `Cannot find the store: set ${ENV_VARS.db}, XDG_DATA_HOME or HOME to an absolute path`,
    );
  }
  return {
    socket,
    traceDir,
    db: `${absolute(dataHome, "XDG_DATA_HOME")}/cyberos-memory/capture.db`,
  };
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
