/**
 * Runs the user-facing tasks (`deno task start`, `install`, `status`, …) the
 * way a user does, from a given checkout, with a clean environment: only
 * `PATH` (this deno first), a `HOME`, the Deno cache and what the test names.
 *
 * @module
 */

import { denoDir } from "./claude/run_turn.ts";

/** What a finished task printed and returned. */
export interface TaskResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where a task runs and what it sees. */
export interface TaskOptions {
  /** The checkout to run in (its `deno.json` names the tasks). */
  root: string;
  /** `HOME` for the task. */
  home: string;
  /**
   * More environment variables (the capture paths, OTel settings).
   * @default {}
   */
  env?: Record<string, string>;
}

/** The whole environment a task gets. */
export function taskEnv(options: TaskOptions): Record<string, string> {
  const denoBin = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
  return {
    PATH: `${denoBin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: options.home,
    DENO_DIR: denoDir(),
    DENO_NO_UPDATE_CHECK: "1",
    NO_COLOR: "1",
    ...options.env,
  };
}

/** Runs `deno task <args>` to its end. */
export function runTask(args: string[], options: TaskOptions): Promise<TaskResult> {
  return runDeno(["task", "-q", ...args], { cwd: options.root, env: taskEnv(options) });
}

/** Runs this deno with `args` in `cwd`, seeing only `env`, to its end (at most 60 s). */
export async function runDeno(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<TaskResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    clearEnv: true,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** A daemon that `deno task start` brought up. */
export interface StartedTask {
  /** Its start line. */
  startLine: string;
  /** Stops the daemon (by the pid of the process serving `socket`) and waits for the task. */
  stop(): Promise<void>;
}

/**
 * Runs `deno task start` and waits for the daemon's start line.
 *
 * @throws {Error} with what the task printed, when no start line came within 30 s
 */
export async function startTask(socket: string, options: TaskOptions): Promise<StartedTask> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "start"],
    cwd: options.root,
    clearEnv: true,
    env: taskEnv(options),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const stderrDone = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  const deadline = Date.now() + 30_000;
  while (!stdout.includes("\n")) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
    });
    const chunk = await Promise.race([reader.read(), timeout]);
    clearTimeout(timer);
    if (chunk === null || chunk.done) {
      killServing(socket);
      await child.status;
      await stderrDone;
      throw new Error(`deno task start printed no start line: ${stdout}${stderr}`);
    }
    stdout += chunk.value;
  }
  const drained = (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    startLine: stdout.slice(0, stdout.indexOf("\n")),
    async stop() {
      killServing(socket);
      await child.status;
      await drained;
      await stderrDone;
    },
  };
}

/**
 * Sends SIGTERM to every process of ours whose command line names `socket`
 * (the daemon runs with `--socket <path>`), found by pid in `/proc`. Where
 * there is no `/proc` (macOS), removes the socket instead: the daemon shuts
 * down within one tick (2 s) of losing it.
 */
function killServing(socket: string): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync("/proc")];
  } catch {
    Deno.remove(socket).catch(() => {}); // Not there when the daemon never started.
    return;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    let words: string[];
    try {
      words = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
    } catch {
      continue; // Gone, or not ours to read.
    }
    if (words.includes(socket)) {
      try {
        Deno.kill(Number(entry.name), "SIGTERM");
      } catch {
        // Exited meanwhile.
      }
    }
  }
}
