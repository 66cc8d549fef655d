/**
 * The exact permission flags each entry runs with, computed from its paths.
 * `deno.json` names the same sets for the default paths (a test keeps the two
 * equal); `install` writes {@linkcode hookPermissionFlags} into settings.json and
 * `daemon/start.ts` launches the daemon with {@linkcode daemonPermissionFlags}.
 *
 * @module
 */

import { dirname } from "./paths.ts";

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
 * listen on that socket; reach the OTLP host only when one is configured.
 */
export function daemonPermissionFlags(paths: DaemonPermissionPaths): string[] {
  const { socket, traceDir, db, otlpHost } = paths;
  const dbDir = dirname(db);
  const net = [`unix:${socket}`, ...(otlpHost ? [otlpHost] : [])];
  return [
    "--no-prompt",
    `--allow-read=${dbDir},${traceDir},${socket}`,
    `--allow-write=${dbDir},${traceDir},${socket}`,
    `--allow-net=${net.join(",")}`,
    `--allow-env=${DAEMON_ENV_VARS.join(",")}`,
    "--allow-sys=uid",
  ];
}
