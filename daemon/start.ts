/**
 * `deno task start`: resolves the paths from the environment, then runs the
 * daemon in the foreground with exactly the permission flags those paths need
 * (`daemonPermissionFlags`). It decides here whether OpenTelemetry runs, since
 * Deno's built-in exporter is switched on by `OTEL_DENO=true` at process start:
 * only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and then the daemon may also
 * reach that one host. Signals are passed on; the daemon's exit code is ours.
 *
 * Usage: see {@linkcode START_USAGE} (`--socket`, `--db` and `--trace-dir`
 * override the environment, and the flags follow them).
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
import {
  type CommandLine,
  type CommandSpec,
  EXIT,
  optionValue,
  runCommand,
  UsageError,
} from "../lib/cli.ts";

/** What `deno task start --help` prints. */
export const START_USAGE =
  `usage: deno task start [--socket PATH] [--db PATH] [--trace-dir PATH] [--debug]

Runs the capture daemon in the foreground until SIGINT or SIGTERM.

  --socket PATH     the Unix socket to listen on (default: $CYBEROS_MEMORY_SOCKET, else the built-in one)
  --db PATH         the SQLite store (default: $CYBEROS_MEMORY_DB, else the built-in one)
  --trace-dir PATH  the trace id cache and spool (default: $CYBEROS_MEMORY_TRACE_DIR, else the built-in one)
  --debug           namespaced debug lines on stderr

Exit codes: 0 stopped cleanly, 1 failed (another daemon on the store, a bad path), 2 bad usage.
OpenTelemetry export runs when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/cli.md).`;

const START_SPEC: CommandSpec = {
  command: "start",
  usage: START_USAGE,
  options: [
    { name: "--socket", value: "PATH" },
    { name: "--db", value: "PATH" },
    { name: "--trace-dir", value: "PATH" },
    { name: "--debug" },
  ],
};

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

async function start(line: CommandLine): Promise<number> {
  const env = (name: string) => Deno.env.get(name);
  let otlpHost: string | undefined;
  let args: string[];
  let db: string;
  try {
    const paths = resolvePaths(env);
    for (
      const [option, key] of [["--socket", "socket"], ["--db", "db"], [
        "--trace-dir",
        "traceDir",
      ]] as const
    ) {
      const value = optionValue(line, option);
      if (value === undefined) continue;
      if (!value.startsWith("/")) {
        throw new UsageError(`${option} needs an absolute path, got "${value}"`);
      }
      paths[key] = value.length > 1 && value.endsWith("/") ? value.slice(0, -1) : value;
    }
    db = paths.db;
    const endpoint = env("OTEL_EXPORTER_OTLP_ENDPOINT");
    if (endpoint) otlpHost = otlpHostOf(endpoint);
    args = daemonRunArgs(
      { ...paths, ...(otlpHost ? { otlpHost } : {}) },
      line.options.has("--debug") ? ["--debug"] : [],
    );
  } catch (error) {
    if (error instanceof UsageError) throw error;
    console.error(`cyberos-memory start: ${(error as Error).message}`);
    return EXIT.failed;
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
  if (folderMade !== 0) return EXIT.failed;
  return await runDeno(args, { env: childEnv, stdin: "null", followNpx: true });
}

if (import.meta.main) Deno.exit(await runCommand(START_SPEC, Deno.args, start));
