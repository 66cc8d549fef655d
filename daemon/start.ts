/**
 * `deno task start`: resolves the paths from the environment, then runs the
 * daemon in the foreground with exactly the permission flags those paths need
 * (`daemonPermissionFlags`). It decides here whether OpenTelemetry runs, since
 * Deno's built-in exporter is switched on by `OTEL_DENO=true` at process start:
 * only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and then the daemon may also
 * reach that one host. Signals are passed on; the daemon's exit code is ours.
 *
 * @module
 */

import { resolvePaths } from "../lib/paths.ts";
import {
  DAEMON_ENV_VARS,
  daemonPermissionFlags,
  type DaemonPermissionPaths,
} from "../lib/permissions.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";

const DAEMON_SCRIPT = new URL("./main.ts", import.meta.url).pathname;

/**
 * The `deno` arguments that run the daemon on `paths` with exactly the flags
 * those paths need; the launcher and the tests start it the same way.
 */
export function daemonRunArgs(
  paths: DaemonPermissionPaths,
  extra: readonly string[] = [],
): string[] {
  return [
    "run",
    "-q",
    // Lets the daemon collect garbage after large frames (not a grant).
    "--v8-flags=--expose-gc",
    ...daemonPermissionFlags(paths),
    DAEMON_SCRIPT,
    "--socket",
    paths.socket,
    "--db",
    paths.db,
    "--trace-dir",
    paths.traceDir,
    ...extra,
  ];
}

/** The OTLP endpoint's `host:port`, for `--allow-net`. */
export function otlpHostOf(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TypeError(
      `Cannot use OTEL_EXPORTER_OTLP_ENDPOINT: "${endpoint}" is not a URL, give one like http://127.0.0.1:4318`,
    );
  }
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

async function main(): Promise<number> {
  const env = (name: string) => Deno.env.get(name);
  let paths;
  let otlpHost: string | undefined;
  try {
    paths = resolvePaths(env);
    const endpoint = env("OTEL_EXPORTER_OTLP_ENDPOINT");
    if (endpoint) otlpHost = otlpHostOf(endpoint);
  } catch (error) {
    console.error(`cyberos-memory start: ${(error as Error).message}`);
    return 1;
  }
  const childEnv = pickEnv([
    ...RUNTIME_ENV_VARS,
    ...DAEMON_ENV_VARS.filter((name) => name !== "OTEL_DENO"),
  ]);
  if (otlpHost) {
    childEnv.OTEL_DENO = "true";
    childEnv.OTEL_SERVICE_NAME ??= "cyberos-memory-capture";
  }
  return await runDeno(
    daemonRunArgs({ ...paths, ...(otlpHost ? { otlpHost } : {}) }, Deno.args),
    { env: childEnv, stdin: "null" },
  );
}

if (import.meta.main) Deno.exit(await main());
