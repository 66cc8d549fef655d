/**
 * The exact permission flags each entry runs with, computed from its paths.
 * `deno.json` names the same sets for the default paths (a test keeps the two
 * equal); `install` writes {@linkcode hookPermissionFlags} into settings.json and
 * `daemon/start.ts` launches the daemon with {@linkcode daemonPermissionFlags}.
 *
 * @module
 */

import { BIND_SOCKET_NAME, dirname } from "./paths.ts";

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
 * user planted); no env, run, ffi or other network.
 */
export function hookPermissionFlags(paths: HookPermissionPaths): string[] {
  const { socket, traceDir } = paths;
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
  ];
}

/** Paths and hosts the daemon may touch. */
export interface DaemonPermissionPaths extends HookPermissionPaths {
  /** The SQLite store; its folder holds the WAL and shared-memory files too. */
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
 * The daemon's flags: read and write its store folder, trace dir and socket;
 * listen on that socket and on its bind path inside the trace dir (where the
 * socket is made before it is renamed into place); reach the OTLP host only
 * when one is configured.
 */
export function daemonPermissionFlags(paths: DaemonPermissionPaths): string[] {
  const { socket, traceDir, db, otlpHost } = paths;
  const dbDir = dirname(db);
  const net = [
    `unix:${socket}`,
    `unix:${traceDir}/${BIND_SOCKET_NAME}`,
    ...(otlpHost ? [otlpHost] : []),
  ];
  return [
    "--no-prompt",
    `--allow-read=${dbDir},${traceDir},${socket}`,
    `--allow-write=${dbDir},${traceDir},${socket}`,
    `--allow-net=${net.join(",")}`,
    `--allow-env=${DAEMON_ENV_VARS.join(",")}`,
    "--allow-sys=uid",
  ];
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
  /** The scope's `.claude` folder: the only place written. */
  claudeDir: string;
}

/**
 * The flags of `install` and `uninstall`: read the project folder and the
 * scope's `.claude` folder, write only that `.claude` folder, read only the
 * environment variables that name paths. No network, no run.
 */
export function installPermissionFlags(paths: InstallPermissionPaths): string[] {
  const { project, claudeDir } = paths;
  const read = project === undefined ? [claudeDir] : [project, claudeDir];
  return [
    "--no-prompt",
    `--allow-read=${read.join(",")}`,
    `--allow-write=${claudeDir}`,
    `--allow-env=${INSTALL_ENV_VARS.join(",")}`,
  ];
}

/**
 * The flags of `status`: read anywhere (it checks that the deno binary and
 * hook script named in a settings file exist, and reads the store read-only),
 * connect only to the configured socket, read only the path variables. No
 * other write, network or run.
 */
export function statusPermissionFlags(paths: { socket: string }): string[] {
  const { socket } = paths;
  return [
    "--no-prompt",
    "--allow-read",
    `--allow-write=${socket}`,
    `--allow-net=unix:${socket}`,
    `--allow-env=${INSTALL_ENV_VARS.join(",")}`,
  ];
}
