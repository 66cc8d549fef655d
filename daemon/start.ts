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
import { fileUrlToPath } from "../lib/file_url.ts";
import {
  DAEMON_ENV_VARS,
  daemonPermissionFlags,
  type DaemonPermissionPaths,
  storeFolderPermissionFlags,
} from "../lib/permissions.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";

const DAEMON_SCRIPT = fileUrlToPath(new URL("./main.ts", import.meta.url));
const STORE_FOLDER_SCRIPT = fileUrlToPath(new URL("./store_folder.ts", import.meta.url));

/**
 * The `deno` arguments that make the store's folder (0700) when missing, run
 * before the daemon: the daemon's grants name only the store's own paths.
 */
export function storeFolderRunArgs(paths: { db: string }): string[] {
  return ["run", "-q", ...storeFolderPermissionFlags(paths), STORE_FOLDER_SCRIPT, paths.db];
}

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

/**
 * The OTLP endpoint's `host:port`, for `--allow-net`.
 *
 * @throws {TypeError} when the endpoint is not an http or https URL with a
 * host: `localhost:4318` parses as a URL of scheme `localhost:` and would
 * export nothing, silently.
 */
export function otlpHostOf(endpoint: string): string {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (url === undefined || !["http:", "https:"].includes(url.protocol) || url.hostname === "") {
    throw new TypeError(
      `Cannot use OTEL_EXPORTER_OTLP_ENDPOINT: "${endpoint}" is not an http or https URL; give one like http://127.0.0.1:4318`,
    );
  }
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

async function main(): Promise<number> {
  const env = (name: string) => Deno.env.get(name);
  let otlpHost: string | undefined;
  let args: string[];
  let db: string;
  try {
    const paths = resolvePaths(env);
    db = paths.db;
    const endpoint = env("OTEL_EXPORTER_OTLP_ENDPOINT");
    if (endpoint) otlpHost = otlpHostOf(endpoint);
    args = daemonRunArgs({ ...paths, ...(otlpHost ? { otlpHost } : {}) }, Deno.args);
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
  const folderMade = await runDeno(storeFolderRunArgs({ db }), { env: childEnv, stdin: "null" });
  if (folderMade !== 0) return 1;
  return await runDeno(args, { env: childEnv, stdin: "null" });
}

if (import.meta.main) Deno.exit(await main());
