/**
 * The exact permission flags each entry runs with, computed from its paths.
 * `deno.json` names the same sets for the default paths (a test keeps the two
 * equal); `install` writes {@linkcode hookPermissionFlags} into settings.json and
 * `daemon/start.ts` launches the daemon with {@linkcode daemonPermissionFlags}.
 *
 * @module
 */

import { BIND_SOCKET_NAME, dirname } from "./paths.ts";
import { storeOwnPaths } from "./store_paths.ts";
import { TRACEPARENT_ENV } from "./traceparent.ts";

/**
 * Refuses a path Deno's permission flags cannot name. A flag's list is split
 * at every comma, with no escape: `--allow-write=/tmp/a,b` would grant
 * `/tmp/a` and `./b` instead, and the entry would then fail half way.
 *
 * @throws {TypeError} naming the path, when it holds a comma.
 */
export function assertFlagPath(path: string, what: string): void {
  if (path.includes(",")) {
    throw new TypeError(
      `Cannot use the ${what} "${path}": Deno's permission flags cannot name a path holding a comma; choose a path without one`,
    );
  }
}

/** Paths the hook may touch. */
export interface HookPermissionPaths {
  /** The daemon's socket: read, write and `net=unix:` (Deno needs all three). */
  socket: string;
  /** The trace id cache and spool: read and write. */
  traceDir: string;
}

/**
 * The hook's flags: read and write only its trace dir and socket, connect only
 * to that socket, learn its own uid (to refuse a trace dir or socket another
 * user planted), read one variable, `TRACEPARENT` (Claude Code's turn span, to
 * place the hook's span in Claude Code's trace); no other env, no run, ffi or
 * other network.
 */
export function hookPermissionFlags(paths: HookPermissionPaths): string[] {
  const { socket, traceDir } = paths;
  assertFlagPath(socket, "socket");
  assertFlagPath(traceDir, "trace dir");
  return [
    // The hook runs in the user's project: its deno.json, lock file or import map must not apply,
    // and nothing may be fetched.
    "--no-config",
    "--no-remote",
    "--no-npm",
    "--no-prompt",
    `--allow-read=${traceDir},${socket}`,
    `--allow-write=${traceDir},${socket}`,
    `--allow-net=unix:${socket}`,
    "--allow-sys=uid",
    `--allow-env=${TRACEPARENT_ENV}`,
  ];
}

/** Paths and hosts the daemon may touch. */
export interface DaemonPermissionPaths extends HookPermissionPaths {
  /** The SQLite store: the grants name it and its own paths (`storeOwnPaths`), not its folder. */
  db: string;
  /** `host:port` of the OTLP endpoint when exporting is on. */
  otlpHost?: string;
}

/** The environment variables the daemon reads: the OTel standard ones only. */
export const DAEMON_ENV_VARS = [
  "OTEL_DENO",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_METRIC_EXPORT_INTERVAL",
  "OTEL_SERVICE_NAME",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
] as const;

/**
 * The daemon's flags: read and write the store's own paths (the file, its
 * SQLite siblings, lock, signing key and quarantine; not its folder), the
 * trace dir and the socket; listen on that socket and on its bind path inside
 * the trace dir (where the socket is made before it is renamed into place);
 * reach the OTLP host only
 * when one is configured.
 */
export function daemonPermissionFlags(paths: DaemonPermissionPaths): string[] {
  const { socket, traceDir, db, otlpHost } = paths;
  assertFlagPath(socket, "socket");
  assertFlagPath(traceDir, "trace dir");
  assertFlagPath(db, "store");
  const store = storeOwnPaths(db).join(",");
  const net = [
    `unix:${socket}`,
    `unix:${traceDir}/${BIND_SOCKET_NAME}`,
    ...(otlpHost ? [otlpHost] : []),
  ];
  return [
    "--no-prompt",
    `--allow-read=${store},${traceDir},${socket}`,
    `--allow-write=${store},${traceDir},${socket}`,
    `--allow-net=${net.join(",")}`,
    `--allow-env=${DAEMON_ENV_VARS.join(",")}`,
    "--allow-sys=uid",
  ];
}

/**
 * The flags of the step that makes the store's folder (0700) before the
 * daemon starts, since the daemon may not write the folder itself: read and
 * write that folder only, nothing else.
 */
export function storeFolderPermissionFlags(paths: { db: string }): string[] {
  assertFlagPath(paths.db, "store");
  const folder = dirname(paths.db);
  return ["--no-prompt", `--allow-read=${folder}`, `--allow-write=${folder}`];
}

/** The environment variables `install` and `uninstall` read. */
export const INSTALL_ENV_VARS = [
  "HOME",
  "INIT_CWD",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "CYBEROS_MEMORY_SOCKET",
  "CYBEROS_MEMORY_TRACE_DIR",
  "CYBEROS_MEMORY_DB",
] as const;

/** What `install` or `uninstall` edits. */
export interface InstallPermissionPaths {
  /** The project folder (checked to exist), when one was named. */
  project?: string;
  /** The scope's `.claude` folder: the only place of the project written. */
  claudeDir: string;
  /**
   * The installer's record folder in the user's private state
   * (`<runtime dir>/installer`): which settings files install created.
   */
  recordDir: string;
}

/**
 * The flags of `install` and `uninstall`: read the project folder and the
 * scope's `.claude` folder, write only that `.claude` folder and the
 * installer's record folder (not the rest of the runtime dir: the trace ids
 * and the spool), read only the environment variables that name paths, learn
 * its own uid (to refuse another user's settings file). No network, no run.
 */
export function installPermissionFlags(paths: InstallPermissionPaths): string[] {
  const { project, claudeDir, recordDir } = paths;
  if (project !== undefined) assertFlagPath(project, "project");
  assertFlagPath(claudeDir, "settings folder");
  assertFlagPath(recordDir, "installer's record folder");
  const read = project === undefined ? [claudeDir, recordDir] : [project, claudeDir, recordDir];
  return [
    "--no-prompt",
    `--allow-read=${read.join(",")}`,
    `--allow-write=${claudeDir},${recordDir}`,
    `--allow-env=${INSTALL_ENV_VARS.join(",")}`,
    "--allow-sys=uid",
  ];
}

/**
 * The flags of `status`: read anywhere (it checks that the deno binary and
 * hook script named in a settings file exist, and reads the store read-only),
 * connect only to the configured socket, read only the path variables,
 * learn its own uid (to refuse another user's settings file). No other
 * write, network or run.
 */
export function statusPermissionFlags(paths: { socket: string }): string[] {
  const { socket } = paths;
  assertFlagPath(socket, "socket");
  return [
    "--no-prompt",
    "--allow-read",
    `--allow-write=${socket}`,
    `--allow-net=unix:${socket}`,
    `--allow-env=${INSTALL_ENV_VARS.join(",")}`,
    "--allow-sys=uid",
  ];
}

/** What `coverage` reads. */
export interface CoveragePermissionPaths {
  /** The store; its `-wal` and `-shm` files are granted beside it. */
  db: string;
  /** Claude Code's projects folder, where the transcripts are. */
  projectsDir: string;
  /** The environment variables that locate both. */
  envVars: readonly string[];
}

/**
 * The flags of `coverage`: read the store (with its `-wal` and `-shm`) and
 * Claude Code's projects folder, and the variables that locate them. No
 * write, network, run or other read: transcripts hold every tool's input and
 * output, and nothing read may leave.
 */
export function coveragePermissionFlags(paths: CoveragePermissionPaths): string[] {
  const { db, projectsDir, envVars } = paths;
  assertFlagPath(db, "store");
  assertFlagPath(projectsDir, "Claude Code projects folder");
  return [
    "--no-prompt",
    `--allow-read=${db},${db}-wal,${db}-shm,${projectsDir}`,
    `--allow-env=${envVars.join(",")}`,
  ];
}

/**
 * The variables the PostgreSQL driver (`npm:postgres`) reads even when every
 * connection option is given (see `team/_connect.ts`).
 */
export const POSTGRES_DRIVER_ENV_VARS = [
  "PGAPPNAME",
  "PGPASSWORD",
  "PGTARGETSESSIONATTRS",
] as const;

/** The variable `team ship` takes its URL from. */
export const TEAM_URL_ENV_VAR = "CYBEROS_MEMORY_TEAM_URL";

/** What a `team` sub-command may reach. */
export interface TeamPermissionPaths {
  /** `host:port` of the team store; none when the command line names no usable URL. */
  net?: string;
  /** The store `ship` reads (with its `-wal` and `-shm` files); none for the others. */
  db?: string;
}

/**
 * The flags of `team`: the network to the team store's one `host:port` and
 * the driver's variables; `ship` also reads the store and its URL variable.
 * No write, no run, no other read or network.
 */
export function teamPermissionFlags(paths: TeamPermissionPaths): string[] {
  const { net, db } = paths;
  if (db !== undefined) assertFlagPath(db, "store");
  const env = db === undefined
    ? [...POSTGRES_DRIVER_ENV_VARS]
    : [TEAM_URL_ENV_VAR, ...POSTGRES_DRIVER_ENV_VARS];
  return [
    "--no-prompt",
    ...(db === undefined ? [] : [`--allow-read=${db},${db}-wal,${db}-shm`]),
    ...(net === undefined ? [] : [`--allow-net=${net}`]),
    `--allow-env=${env.join(",")}`,
  ];
}

/** What the web view may touch. */
export interface ViewPermissionPaths {
  /** The SQLite store, read only (with its `-wal` and `-shm` files). */
  db: string;
  /** The one loopback `host:port` it listens on. */
  listen: string;
}

/**
 * The flags of `view`: read the store and its WAL and shared-memory files,
 * listen on one loopback address; no write, env, run or other network, so
 * nothing it reads can be changed or sent anywhere but to that address.
 *
 * @throws {TypeError} when the store's path holds a comma.
 */
export function viewPermissionFlags(paths: ViewPermissionPaths): string[] {
  const { db, listen } = paths;
  assertFlagPath(db, "store");
  return [
    "--no-prompt",
    `--allow-read=${db},${db}-wal,${db}-shm`,
    `--allow-net=${listen}`,
  ];
}
