/**
 * The capture daemon: owns the socket and the store, the single writer of
 * the hash chain. Serves many connections, drains the hook's spool, completes
 * rows (hashes, Stop counts) and appends them in group commits. One
 * `shutdown(reason)` serves SIGTERM, SIGINT, a lost socket file and a fatal
 * store error.
 *
 * Usage: `daemon/main.ts --socket PATH --db PATH --trace-dir PATH [--debug]`
 * (`deno task start` computes these and the permission flags).
 *
 * @module
 */

import { decodeFrameBody, FrameDecoder, type FrameError } from "../lib/frame.ts";
import { spoolDir } from "../lib/paths.ts";
import { openStore, type Store } from "../lib/store.ts";
import { prepareTraceDir } from "../lib/trace_id.ts";
import { startCheckpoints } from "./_checkpoints.ts";
import { Ingest } from "./_ingest.ts";
import { Quarantine, quarantineDirOf } from "./_quarantine.ts";
import { debug, log, setDebug } from "./_log.ts";
import { drainSpool, pruneTraceIds } from "./_spool_drain.ts";
import { exportNote, noTelemetry, type Telemetry } from "./_telemetry.ts";

const TICK_MS = 2000;
const PRUNE_EVERY_TICKS = 30;
const CONNECTION_LIMIT_MS = 10_000;
/** How long a complete frame waits unparsed for its sender to hang up. */
const PARSE_IDLE_MS = 5;
const SHUTDOWN_GRACE_MS = 1000;
/** Open connections at most; past it the daemon stops accepting until one ends (hooks spool). */
const MAX_OPEN_CONNECTIONS = 64;

interface DaemonArgs {
  socket: string;
  db: string;
  traceDir: string;
  debug: boolean;
}

function fail(message: string): never {
  console.error(`cyberos-memory daemon: ${message}`);
  Deno.exit(1);
}

function parseArgs(argv: string[]): DaemonArgs {
  const values: Record<string, string> = {};
  let debugOn = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--debug") debugOn = true;
    else if (["--socket", "--db", "--trace-dir"].includes(arg) && argv[i + 1] !== undefined) {
      values[arg.slice(2)] = argv[++i]!;
    } else fail(`unexpected argument "${arg}"; usage: --socket PATH --db PATH --trace-dir PATH`);
  }
  for (const name of ["socket", "db", "trace-dir"]) {
    if (!values[name]?.startsWith("/")) fail(`--${name} needs an absolute path`);
  }
  return { socket: values.socket!, db: values.db!, traceDir: values["trace-dir"]!, debug: debugOn };
}

async function claimSocket(path: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (!info.isSocket) {
    fail(
      `${path} exists and is not a socket; remove it or set CYBEROS_MEMORY_SOCKET to another path`,
    );
  }
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
  } catch {
    log("INFO", `replacing the stale socket ${path} left by a daemon that is gone`);
    Deno.removeSync(path);
    return;
  }
  fail(`another daemon is already listening on ${path}; stop it first or use another socket`);
}

async function loadTelemetry(): Promise<Telemetry> {
  if (Deno.env.get("OTEL_DENO") !== "true") return noTelemetry();
  const { otelTelemetry } = await import("./_otel.ts");
  return otelTelemetry();
}

/**
 * Reads frames and parses each one only when its sender goes on (its next
 * bytes), hangs up, or pauses for {@linkcode PARSE_IDLE_MS}: a hook leaves
 * its connection for its exit to close, so parsing at once would spend the
 * frame's JSON.parse (0.3 ms for 64 KB) on the same two cores while the hook
 * still runs.
 */
async function serveConnection(
  conn: Deno.UnixConn,
  options: { ingest: Ingest; telemetry: Telemetry },
): Promise<void> {
  const { ingest, telemetry } = options;
  const decoder = new FrameDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let unparsed: Uint8Array[] = [];
  let idle: ReturnType<typeof setTimeout> | undefined;
  const reject = (error: FrameError): void => {
    log("WARN", `frame rejected: ${error.message}`);
    telemetry.rejected(error.reason);
  };
  const parseHeld = (): void => {
    clearTimeout(idle);
    idle = undefined;
    for (const body of unparsed) {
      const result = decodeFrameBody(body);
      if ("frame" in result) ingest.enqueue(result.frame);
      else reject(result.error);
    }
    unparsed = [];
  };
  const limit = setTimeout(() => conn.close(), CONNECTION_LIMIT_MS);
  try {
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      parseHeld();
      for (const piece of decoder.split(buffer.slice(0, n))) {
        if ("error" in piece) reject(piece.error);
        else unparsed.push(piece.body);
      }
      if (unparsed.length > 0) idle = setTimeout(parseHeld, PARSE_IDLE_MS);
      if (decoder.fatal) break;
    }
    if (decoder.pending > 0) {
      log("WARN", `frame rejected: connection closed ${decoder.pending} bytes into a frame`);
      telemetry.rejected("truncated");
    }
  } catch (error) {
    debug("daemon:conn", `connection ended: ${(error as Error).message}`);
  } finally {
    clearTimeout(limit);
    try {
      conn.close();
    } catch {
      // Closed by the time limit.
    }
    parseHeld();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(Deno.args);
  setDebug(args.debug);
  let store: Store;
  try {
    store = openStore(args.db);
  } catch (error) {
    fail(
      `cannot open the store ${args.db}: ${
        (error as Error).message
      }; check the path and its folder's permissions`,
    );
  }
  await claimSocket(args.socket);
  const distrust = prepareTraceDir(args.traceDir, { uid: Deno.uid() ?? -1 });
  if (distrust !== undefined) {
    log("WARN", `trace_dir_untrusted: ${args.traceDir} ${distrust}; its spool is not drained`);
  }
  const telemetry = await loadTelemetry();
  const checkpoints = await startCheckpoints(store, { db: args.db, uid: Deno.uid() ?? -1 });
  const spool = spoolDir(args.traceDir);
  const quarantine = new Quarantine(quarantineDirOf(args.db), { telemetry });
  const ingest = new Ingest(store, {
    spoolDir: spool,
    telemetry,
    quarantine,
    onFatal: (reason) => void shutdown(reason, { failed: true }),
  });
  const listener = Deno.listen({ transport: "unix", path: args.socket });
  Deno.chmodSync(args.socket, 0o600);
  const socketIno = Deno.lstatSync(args.socket).ino;
  console.log(
    `cyberos-memory daemon: listening on ${args.socket}; store ${args.db} (${store.count()} rows); spool ${spool}; ${
      exportNote((name) => Deno.env.get(name))
    }`,
  );

  const open = new Set<Promise<void>>();
  let stopping = false;
  let ticks = 0;

  const tick = () => {
    if (stopping) return;
    try {
      const current = Deno.lstatSync(args.socket);
      if (current.ino !== socketIno) return void shutdown("the socket file was replaced");
    } catch {
      return void shutdown("the socket file was removed");
    }
    try {
      store.assertSameFile();
    } catch (error) {
      return void shutdown(`the store failed: ${(error as Error).message}`, { failed: true });
    }
    if (distrust === undefined) {
      const nowMs = Date.now();
      try {
        drainSpool(spool, { ingest, telemetry, nowMs, quarantine });
        if (ticks++ % PRUNE_EVERY_TICKS === 0) pruneTraceIds(args.traceDir, { nowMs });
      } catch (error) {
        log("WARN", `spool drain failed: ${(error as Error).message}`);
      }
    }
  };
  const ticker = setInterval(tick, TICK_MS);

  /** Stops the daemon; `failed` (a store error) exits 1 without another commit. */
  async function shutdown(reason: string, options: { failed?: boolean } = {}): Promise<void> {
    if (stopping) return;
    stopping = true;
    if (!options.failed) log("INFO", `shutting down: ${reason}`);
    else log("ERROR", `shutting down: ${reason}; restart the daemon: the spool keeps every frame`);
    clearInterval(ticker);
    try {
      listener.close();
    } catch {
      // Already closed.
    }
    const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS));
    await Promise.race([Promise.all(open), grace]);
    let code = options.failed ? 1 : 0;
    try {
      // After a store error nothing more is committed: the spool keeps the frames.
      if (!options.failed) {
        ingest.flush();
        await checkpoints?.close();
      }
      store.close();
    } catch (error) {
      log(
        "ERROR",
        `final commit failed: ${(error as Error).message}; the spool keeps those frames`,
      );
      code = 1;
    }
    try {
      if (Deno.lstatSync(args.socket).ino === socketIno) Deno.removeSync(args.socket);
    } catch {
      // Removed already.
    }
    await telemetry.shutdown();
    Deno.exit(code);
  }

  Deno.addSignalListener("SIGTERM", () => void shutdown("SIGTERM"));
  Deno.addSignalListener("SIGINT", () => void shutdown("SIGINT"));
  tick();

  try {
    for await (const conn of listener) {
      const served = serveConnection(conn as Deno.UnixConn, { ingest, telemetry });
      open.add(served);
      served.finally(() => open.delete(served));
      // Each connection may hold up to 16 MiB; bound memory by bounding connections.
      while (open.size >= MAX_OPEN_CONNECTIONS) await Promise.race(open);
    }
  } catch (error) {
    if (!stopping) await shutdown(`the listener failed: ${(error as Error).message}`);
  }
}

await main();
