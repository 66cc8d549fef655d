/**
 * The local web view of the trail: serves the sessions list, each session's
 * timeline and the trust banner on 127.0.0.1, read-only, behind a random
 * token it prints with the URL (as Jupyter does). `deno task view` starts it
 * through `view/start.ts` with `viewPermissionFlags`: read the store, listen
 * on one loopback address, nothing else.
 *
 * Usage: `view/main.ts --db PATH --port N`
 *
 * The token is made here, never passed on a command line another user could
 * read in the process list.
 *
 * @module
 */

import { parsePort, UsageError, VIEW_USAGE } from "./_args.ts";
import { newToken } from "./_auth.ts";
import { openViewStore, type ViewStore } from "./_queries.ts";
import { viewHandler } from "./_server.ts";
import { ChainWatch } from "./_trust.ts";

/** Parsed arguments of `view/main.ts`. */
export interface ViewArgs {
  /** The store. */
  db: string;
  /** The port to listen on. */
  port: number;
}

function parseArgs(args: readonly string[]): ViewArgs {
  let db: string | undefined;
  let port: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--db") {
      db = args[++i];
      if (!db?.startsWith("/")) throw new UsageError("--db needs an absolute path");
    } else if (arg === "--port") port = parsePort(args[++i]);
    else throw new UsageError(`unexpected argument "${arg}"; see --help`);
  }
  if (db === undefined || port === undefined) {
    throw new UsageError("view/main.ts needs --db PATH and --port N (deno task view gives both)");
  }
  return { db, port };
}

async function main(args: readonly string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(VIEW_USAGE);
    return 0;
  }
  let parsed: ViewArgs;
  try {
    parsed = parseArgs(args);
  } catch (error) {
    console.error(`cyberos-memory view: ${(error as Error).message}`);
    return 2;
  }
  let store: ViewStore;
  try {
    store = openViewStore(parsed.db);
  } catch (error) {
    const detail = error instanceof Deno.errors.NotFound
      ? "no store yet; start the daemon (deno task start) and use Claude Code in an installed project"
      : `cannot open the store: ${(error as Error).message}`;
    console.error(`cyberos-memory view: ${parsed.db}: ${detail}`);
    return 1;
  }
  const token = newToken();
  const chain = new ChainWatch(store);
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({
      hostname: "127.0.0.1",
      port: parsed.port,
      onListen: () => {},
    }, viewHandler({ store, chain, token, port: parsed.port }));
  } catch (error) {
    store.close();
    console.error(
      `cyberos-memory view: cannot listen on 127.0.0.1:${parsed.port}: ${
        (error as Error).message
      }; choose another --port`,
    );
    return 1;
  }
  void chain.refresh();
  console.log(`http://127.0.0.1:${parsed.port}/?token=${token}`);
  console.log(`read-only view of ${parsed.db}; Ctrl-C stops it`);
  const stop = () => void server.shutdown();
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await server.finished;
  store.close();
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
