/**
 * The capture daemon: owns the socket and the store, the single writer of
 * the hash chain. Serves many connections, drains the hook's spool, completes
 * rows (hashes, Stop counts) and appends them in group commits. One
 * `shutdown(reason)` serves SIGTERM, SIGINT, a lost socket file, a trace dir
 * replaced under it (exit 1: a restart checks the new one) and a fatal store
 * error.
 *
 * Usage: `daemon/main.ts --socket PATH --db PATH --trace-dir PATH [--debug]`
 * (`deno task start` computes these and the permission flags).
 *
 * @module
 */

import { decodeFrameBody, FrameDecoder, type FrameError } from "../lib/frame.ts";
import { checkSocketPathLength, spoolDir } from "../lib/paths.ts";
import { openStore, type Store } from "../lib/store.ts";
import { bindSocket, lockTraceDir, StartupError, TraceDirWatch } from "./_runtime.ts";
import { ByteBudget } from "./_budget.ts";
import { startCheckpoints } from "./_checkpoints.ts";
import { Ingest } from "./_ingest.ts";
import { lockStore, type StoreLock } from "./_store_lock.ts";
import { Quarantine, quarantineDirOf } from "./_quarantine.ts";
import { debug, log, setDebug } from "./_log.ts";
import { drainSpool, pruneTraceIds, SpoolDistrusted } from "./_spool_drain.ts";
import { exportNote, noTelemetry, type Telemetry } from "./_telemetry.ts";

const TICK_MS = 2000;
const PRUNE_EVERY_TICKS = 30;
const CONNECTION_LIMIT_MS = 10_000;
/** How long a complete frame waits unparsed for its sender to hang up. */
const PARSE_IDLE_MS = 5;
const SHUTDOWN_GRACE_MS = 1000;
/** A frame this large is followed by a full garbage collection once nothing else is held. */
const LARGE_FRAME_BYTES = 1024 * 1024;
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
  try {
    checkSocketPathLength(values.socket!);
  } catch (error) {
    fail((error as Error).message);
  }
  return { socket: values.socket!, db: values.db!, traceDir: values["trace-dir"]!, debug: debugOn };
}

let collecting: ReturnType<typeof setTimeout> | undefined;

/**
 * Runs V8's full garbage collection soon (`--expose-gc`, set by
 * `daemonRunArgs`): without it, the buffers and strings of a few 16 MiB
 * frames stayed resident long after they were released, since a daemon
 * that then idles gives V8 no reason to collect.
 */
function collectGarbageSoon(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined || collecting !== undefined) return;
  collecting = setTimeout(() => {
    collecting = undefined;
    gc();
  }, 50);
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
  options: { ingest: Ingest; telemetry: Telemetry; budget: ByteBudget },
): Promise<void> {
  const { ingest, telemetry, budget } = options;
  const decoder = new FrameDecoder({ budget });
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
      budget.release(body.length);
      if (budget.held === 0 && body.length >= LARGE_FRAME_BYTES) collectGarbageSoon();
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
      for (const piece of decoder.split(buffer.subarray(0, n))) {
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
    decoder.discard();
    parseHeld();
  }
}

async function main(): Promise<void> {
  // Listening for signals before the socket exists: one that came in between
  // would kill the daemon outright and leave its socket behind.
  let stopSignal: Deno.Signal | undefined;
  let onSignal = (signal: Deno.Signal) => void (stopSignal ??= signal);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.addSignalListener(signal, () => onSignal(signal));
  }
  const args = parseArgs(Deno.args);
  setDebug(args.debug);
  const uid = Deno.uid() ?? -1;
  let traceDir: TraceDirWatch;
  let storeLock: StoreLock;
  try {
    traceDir = TraceDirWatch.open(args.traceDir, { uid });
    storeLock = lockStore(args.db, { socket: args.socket, uid });
    // Held until the process exits, which releases it.
    lockTraceDir(args.traceDir);
  } catch (error) {
    fail((error as Error).message);
  }
  // An orphan would hold the socket and the store for good: stop when the launcher goes.
  const launcherPid = Deno.ppid;
  // Bound before the store is opened: a path that is not ours to take changes nothing.
  let listener: Deno.UnixListener;
  try {
    listener = await bindSocket(args.socket, { traceDir: args.traceDir, uid });
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    fail(error.message);
  }
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
  const socketIno = Deno.lstatSync(args.socket).ino;
  console.log(
    `cyberos-memory daemon: listening on ${args.socket}; store ${args.db} (${store.count()} rows); spool ${spool}; ${
      exportNote((name) => Deno.env.get(name))
    }`,
  );

  const open = new Set<Promise<void>>();
  const budget = new ByteBudget();
  let stopping = false;
  let ticks = 0;

  const tick = () => {
    if (stopping) return;
    if (Deno.ppid !== launcherPid) return void shutdown("the process that started it is gone");
    // Checked before every drain: a trace dir removed and made again by someone
    // else could hold forged frames, so nothing in it is committed.
    const changed = traceDir.check();
    if (changed !== undefined) {
      return void shutdown(`${changed}; nothing more is drained from it, restart to check it`, {
        exitCode: 1,
      });
    }
    try {
      const current = Deno.lstatSync(args.socket);
      if (current.ino !== socketIno) {
        return void shutdown("the socket file was replaced", { exitCode: 1 });
      }
    } catch {
      return void shutdown("the socket file was removed", { exitCode: 1 });
    }
    try {
      store.assertSameFile();
    } catch (error) {
      return void shutdown(`the store failed: ${(error as Error).message}`, { failed: true });
    }
    const nowMs = Date.now();
    try {
      // Asked again once the files are read: the folder may have been swapped since the check above.
      drainSpool(spool, { ingest, telemetry, nowMs, quarantine, distrust: () => traceDir.check() });
      if (ticks++ % PRUNE_EVERY_TICKS === 0) pruneTraceIds(args.traceDir, { nowMs });
    } catch (error) {
      if (error instanceof SpoolDistrusted) {
        return void shutdown(
          `${error.message}; nothing read from it is committed, restart to check it`,
          {
            exitCode: 1,
          },
        );
      }
      log("WARN", `spool drain failed: ${(error as Error).message}`);
    }
  };
  const ticker = setInterval(tick, TICK_MS);

  /**
   * Stops the daemon: `failed` (a store error) exits 1 without another commit;
   * `exitCode` 1 (the socket or trace dir lost) exits 1 after the final commit.
   */
  async function shutdown(
    reason: string,
    options: { failed?: boolean; exitCode?: number } = {},
  ): Promise<void> {
    if (stopping) return;
    stopping = true;
    if (options.failed) {
      log("ERROR", `shutting down: ${reason}; restart the daemon: the spool keeps every frame`);
    } else log(options.exitCode ? "ERROR" : "INFO", `shutting down: ${reason}`);
    clearInterval(ticker);
    try {
      listener.close();
    } catch {
      // Already closed.
    }
    const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS));
    await Promise.race([Promise.all(open), grace]);
    let code = options.failed ? 1 : options.exitCode ?? 0;
    try {
      // After a store error nothing more is committed: the spool keeps the frames.
      if (!options.failed) {
        ingest.flush();
        await checkpoints?.close();
      }
      store.close();
      storeLock.release();
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

  onSignal = (signal) => void shutdown(signal);
  if (stopSignal !== undefined) void shutdown(stopSignal);
  tick();

  try {
    for await (const conn of listener) {
      const served = serveConnection(conn as Deno.UnixConn, { ingest, telemetry, budget });
      open.add(served);
      served.finally(() => open.delete(served));
      // The budget bounds what connections hold; this bounds how many wait on it.
      while (open.size >= MAX_OPEN_CONNECTIONS) await Promise.race(open);
    }
  } catch (error) {
    if (!stopping) await shutdown(`the listener failed: ${(error as Error).message}`);
  }
}

await main();
