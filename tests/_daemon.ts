/**
 * Test helpers: a real daemon on a temporary socket, trace dir and store,
 * started with exactly the permission flags `deno task start` gives it, and
 * the hook run as a subprocess the way Claude Code runs it.
 *
 * @module
 */

import { daemonRunArgs, storeFolderRunArgs } from "../daemon/start.ts";
import { openStore } from "../lib/store.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import { DEFAULT_HOOK_SCRIPT, HOOK_ENV, hookCommandWords } from "../lib/hook_command.ts";
import type { HookEvent } from "../lib/kinds.ts";
import { type Frame, FRAME_VERSION } from "../lib/frame.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import type { StoredRow } from "../lib/rows.ts";

/** The repository root. */
export const ROOT = fileUrlToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

/** The Claude Code payload fixtures (`tests/fixtures/claude-code`). */
export const FIXTURES = `${ROOT}/tests/fixtures/claude-code`;

/** A running test daemon and its paths. */
export interface TestDaemon {
  /** The temporary folder holding everything below. */
  dir: string;
  /** The daemon's socket. */
  socket: string;
  /** The trace dir (and spool). */
  traceDir: string;
  /** The store. */
  db: string;
  /** `CYBEROS_MEMORY_*` variables pointing at these paths. */
  env: Record<string, string>;
  /** The daemon process, while it runs. */
  process: Deno.ChildProcess;
  /** Sends SIGTERM and waits for a clean exit; removes the folder unless `keep`. */
  stop(options?: { keep?: boolean }): Promise<void>;
  /** Restarts the daemon on the same paths (after a kill, say). */
  restart(): Promise<void>;
  /** What the daemon has written on stderr so far. */
  stderr(): string;
}

/** Options for {@linkcode startTestDaemon}. */
export interface StartTestDaemonOptions {
  /**
   * Use this folder instead of a new temporary one.
   */
  dir?: string;
  /** Extra environment for the daemon (OTel variables, say). */
  env?: Record<string, string>;
  /** Extra `--allow-net` hosts (an OTLP receiver). */
  otlpHost?: string;
  /**
   * A command that runs the daemon (and the store folder step) for the test:
   * its words, then deno's path and arguments follow (`["sh", "-c", 'umask 0 && exec "$@"', "sh"]`).
   */
  wrapper?: string[];
}

/** How long `stop()` waits after SIGTERM before it kills the daemon and fails. */
const STOP_DEADLINE_MS = 15_000;

/** Whether `child` exits within `ms`; if not, it is killed with SIGKILL (and reaped). */
export async function exitsWithin(child: Deno.ChildProcess, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), ms));
  const first = await Promise.race([child.status.then(() => "exited" as const), late]);
  clearTimeout(timer);
  if (first === "exited") return true;
  try {
    child.kill("SIGKILL");
  } catch {
    // Exited just now.
  }
  await child.status;
  return false;
}

/** Starts a daemon in a temporary folder and waits until it listens. */
export async function startTestDaemon(options: StartTestDaemonOptions = {}): Promise<TestDaemon> {
  const dir = options.dir ?? await Deno.makeTempDir({ prefix: "cyberos-test-" });
  const socket = `${dir}/capture.sock`;
  const traceDir = `${dir}/traces`;
  const db = `${dir}/store/capture.db`;
  let stderrText = "";
  let child = await spawnDaemon();

  async function spawnDaemon(): Promise<Deno.ChildProcess> {
    // As `deno task start` does: the daemon may not make the store's folder itself.
    const [program, ...wrapperArgs] = [...(options.wrapper ?? []), Deno.execPath()];
    const folder = await new Deno.Command(program!, {
      args: [...wrapperArgs, ...storeFolderRunArgs({ db })],
      stdin: "null",
    }).output();
    if (folder.code !== 0) throw new Error(new TextDecoder().decode(folder.stderr));
    const process = new Deno.Command(program!, {
      args: [
        ...wrapperArgs,
        ...daemonRunArgs({
          socket,
          traceDir,
          db,
          ...(options.otlpHost ? { otlpHost: options.otlpHost } : {}),
        }),
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    }).spawn();
    void collect(process.stderr, (text) => stderrText += text);
    const stdout = process.stdout.getReader();
    const deadline = Date.now() + 20_000;
    let seen = "";
    while (!seen.includes("listening on")) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
      });
      const chunk = await Promise.race([stdout.read(), timeout]);
      clearTimeout(timer);
      if (chunk === null || chunk.done) {
        throw new Error(`daemon did not start: ${seen}${stderrText}`);
      }
      seen += new TextDecoder().decode(chunk.value);
    }
    void (async () => {
      try {
        while (!(await stdout.read()).done) { /* drain */ }
      } catch { /* closed */ }
    })();
    return process;
  }

  const daemon: TestDaemon = {
    dir,
    socket,
    traceDir,
    db,
    env: {
      CYBEROS_MEMORY_SOCKET: socket,
      CYBEROS_MEMORY_TRACE_DIR: traceDir,
      CYBEROS_MEMORY_DB: db,
    },
    get process() {
      return child;
    },
    async stop(stopOptions = {}) {
      try {
        child.kill("SIGTERM");
      } catch {
        // Exited already.
      }
      const exited = await exitsWithin(child, STOP_DEADLINE_MS);
      if (!stopOptions.keep && !options.dir) await Deno.remove(dir, { recursive: true });
      if (!exited) {
        throw new Error(
          `the daemon did not exit within ${STOP_DEADLINE_MS} ms of SIGTERM (killed): ${stderrText}`,
        );
      }
    },
    async restart() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Exited already.
      }
      await child.status;
      child = await spawnDaemon();
    },
    stderr: () => stderrText,
  };
  return daemon;
}

async function collect(stream: ReadableStream<Uint8Array>, sink: (text: string) => void) {
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream) sink(decoder.decode(chunk, { stream: true }));
  } catch {
    // Process gone.
  }
}

/** What one hook run did. */
export interface HookRun {
  /** Always 0 for our hook. */
  code: number;
  /** Must stay empty. */
  stdout: string;
  /** WARN lines, if any. */
  stderr: string;
  /** Wall time of the whole process, ms. */
  ms: number;
}

/** Options for {@linkcode runHook}. */
export interface RunHookOptions {
  /** The socket to pass (default: the daemon's). */
  socket?: string;
  /** The trace dir to pass (default: the daemon's). */
  traceDir?: string;
  /** Extra hook arguments (`--allow-email-domain x`, `--fail-redaction`). */
  extraArgs?: string[];
  /** Permission flags instead of the ones `install` writes. */
  flags?: string[];
  /**
   * The hook's environment besides the allocator settings `install` writes
   * ({@linkcode HOOK_ENV}): Claude Code's `TRACEPARENT`, say.
   */
  env?: Record<string, string>;
}

/** Runs the hook as Claude Code does: the installed (bundled) script in a subprocess, the payload on stdin. */
export async function runHook(
  paths: { socket: string; traceDir: string },
  event: string,
  input: string | Uint8Array,
  options: RunHookOptions = {},
): Promise<HookRun> {
  const socket = options.socket ?? paths.socket;
  const traceDir = options.traceDir ?? paths.traceDir;
  const [, ...installed] = hookCommandWords(event as HookEvent, {
    denoPath: Deno.execPath(),
    socket,
    traceDir,
  });
  const fromScript = installed.slice(installed.indexOf(DEFAULT_HOOK_SCRIPT));
  const args = [
    ...(options.flags ? ["run", "-q", ...options.flags] : installed.slice(0, -fromScript.length)),
    ...fromScript.slice(0, -1),
    ...(options.extraArgs ?? []),
    event,
  ];
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: { ...HOOK_ENV, ...options.env },
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(typeof input === "string" ? new TextEncoder().encode(input) : input);
    await writer.close();
  } catch {
    // The hook stopped reading (over the size limit): fine.
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
    ms: performance.now() - started,
  };
}

/** Reads every row of a store, oldest first. */
export function readRows(db: string): StoredRow[] {
  const store = openStore(db, { readOnly: true });
  try {
    return store.lastRows({ limit: 1_000_000 });
  } finally {
    store.close();
  }
}

/** Waits until the store holds at least `count` rows, or throws after `timeoutMs`. */
export async function waitForRows(
  db: string,
  count: number,
  options: { timeoutMs?: number } = {},
): Promise<StoredRow[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let rows: StoredRow[] = [];
  while (Date.now() < deadline) {
    try {
      rows = readRows(db);
      if (rows.length >= count) return rows;
    } catch {
      // Not created yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`expected ${count} rows in ${db}, found ${rows.length}`);
}

/** A fixture's text with its session id replaced (for a second session). */
export async function fixture(name: string, sessionId?: string): Promise<string> {
  const text = await Deno.readTextFile(`${FIXTURES}/${name}.json`);
  return sessionId ? text.replaceAll("3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17", sessionId) : text;
}

/** A valid prompt frame numbered `index` (id, text and time derive from it). */
export function testFrame(index: number, options: { text?: string } = {}): Frame {
  return {
    v: FRAME_VERSION,
    id: index.toString(16).padStart(32, "0"),
    kind: ROW_KINDS.prompt,
    payload: {
      session_id: "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17",
      prompt_redacted: options.text ?? `prompt number ${index}`,
      cwd: "/work/project",
      trace_id: "ab".repeat(16),
      captured_at_ns: 1_700_000_000_000_000_000 + index * 1_000_000,
      redaction_match_count: 0,
    },
    telemetry: {
      hook_kind: "userpromptsubmit",
      started_at_ns: 1,
      ended_at_ns: 2,
      outcome: "ok",
      redactions: {},
    },
  };
}

/**
 * Writes raw bytes to the daemon, then half-closes and waits for the daemon
 * to close, so that the test knows the daemon has read them (a hook does not
 * wait). Never throws: the daemon may close first on a fatal frame.
 */
export async function sendRaw(socket: string, bytes: Uint8Array): Promise<void> {
  let conn: Deno.UnixConn | undefined;
  try {
    conn = await Deno.connect({ transport: "unix", path: socket });
    let written = 0;
    while (written < bytes.length) written += await conn.write(bytes.subarray(written));
    await conn.closeWrite();
    while ((await conn.read(new Uint8Array(64))) !== null) { /* wait for close */ }
  } catch {
    // Closed by the daemon.
  } finally {
    try {
      conn?.close();
    } catch { /* closed */ }
  }
}
