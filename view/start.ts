/**
 * `deno task view`: resolves the store's path from the environment, picks a
 * free loopback port (or takes `--port`), then runs `view/main.ts` with
 * exactly `viewPermissionFlags`: read that store, listen on that one address.
 * A named set in `deno.json` could not spell either, since both are known
 * only now. Signals are passed on; the view's exit code is ours.
 *
 * @module
 */

import { resolveDbPath } from "../lib/paths.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import { viewPermissionFlags } from "../lib/permissions.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";
import { parsePort, UsageError, VIEW_USAGE } from "./_args.ts";

const VIEW_SCRIPT = fileUrlToPath(new URL("./main.ts", import.meta.url));

/** The `deno` arguments that run the view on `db` at `port` with exactly its flags. */
export function viewRunArgs(options: { db: string; port: number }): string[] {
  const { db, port } = options;
  return [
    "run",
    "-q",
    ...viewPermissionFlags({ db, listen: `127.0.0.1:${port}` }),
    VIEW_SCRIPT,
    "--db",
    db,
    "--port",
    String(port),
  ];
}

/** A loopback port nobody listens on right now. */
export function freeLoopbackPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function parseArgs(args: readonly string[]): { port: number | undefined } {
  let port: number | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--port") port = parsePort(args[++i]);
    else throw new UsageError(`unexpected argument "${args[i]}"; use --port N or --help`);
  }
  return { port };
}

async function main(args: readonly string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(VIEW_USAGE);
    return 0;
  }
  let port: number | undefined;
  try {
    port = parseArgs(args).port;
  } catch (error) {
    console.error(`cyberos-memory view: ${(error as Error).message}`);
    return 2;
  }
  let runArgs: string[];
  try {
    const db = resolveDbPath((name) => Deno.env.get(name));
    runArgs = viewRunArgs({ db, port: port ?? freeLoopbackPort() });
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    console.error(`cyberos-memory view: ${error.message}`);
    return 2;
  }
  return await runDeno(runArgs, { env: pickEnv(RUNTIME_ENV_VARS), stdin: "null" });
}

if (import.meta.main) Deno.exit(await main(Deno.args));
