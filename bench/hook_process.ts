/**
 * The hook as Claude Code runs it: the exact command `install` writes, started
 * through `sh -c` with the payload on stdin and the daemon up, interleaved run
 * by run with an empty `deno run` of an empty file (also through `sh -c`), so
 * that a noisy machine moves both together. A hook run that warns on stderr
 * (any outcome but `ok`) stops the measurement.
 *
 * @module
 */

import { buildHookCommand, shellQuote } from "../lib/hook_command.ts";
import type { HookEvent } from "../lib/kinds.ts";
import { summarise, type Summary } from "./_stats.ts";

/** One scenario's result. */
export interface HookProcessResult {
  /** What ran (`UserPromptSubmit 4 KB`, …). */
  name: string;
  /** The hook's wall times, ms. */
  hook: Summary;
  /** The empty `deno run`'s wall times, ms. */
  baseline: Summary;
}

/** Options for {@linkcode measureHookProcess}. */
export interface MeasureHookProcessOptions {
  /** The daemon's socket. */
  socket: string;
  /** The trace dir. */
  traceDir: string;
  /** The working directory (a project). */
  cwd: string;
  /** Runs of each (hook and baseline). */
  runs: number;
  /** The hook script (the bundled file, say). */
  scriptPath?: string;
}

/** One timed run: its wall time and what it wrote on stderr. */
interface TimedRun {
  ms: number;
  stderr: string;
}

async function timeShell(command: string, input: Uint8Array, cwd: string): Promise<TimedRun> {
  const started = performance.now();
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    cwd,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(input);
    await writer.close();
  } catch {
    // The empty script exits without reading its stdin.
  }
  const { stderr } = await child.output();
  return { ms: performance.now() - started, stderr: new TextDecoder().decode(stderr) };
}

/**
 * Times one hook run. The hook says on stderr whenever its outcome is not
 * `ok`, and a run that failed (no daemon, a distrusted socket) is no measure
 * of one that worked, so any such line stops the benchmark.
 */
async function timeHook(command: string, input: Uint8Array, cwd: string): Promise<number> {
  const run = await timeShell(command, input, cwd);
  if (run.stderr !== "") {
    throw new Error(
      `Cannot benchmark the hook: a run did not end ok, so its time measures a failure: ${run.stderr.trim()}`,
    );
  }
  return run.ms;
}

/** Measures one event's hook command against the empty-Deno floor. */
export async function measureHookProcess(
  scenario: { name: string; event: HookEvent; payload: string },
  options: MeasureHookProcessOptions,
): Promise<HookProcessResult> {
  const command = buildHookCommand(scenario.event, {
    denoPath: Deno.execPath(),
    socket: options.socket,
    traceDir: options.traceDir,
    ...(options.scriptPath ? { scriptPath: options.scriptPath } : {}),
  });
  const empty = `${options.cwd}/empty.ts`;
  await Deno.writeTextFile(empty, "");
  // Started as the hook is (`exec`, no extra fork), so the floor stays one no hook can beat.
  const baselineCommand = `exec ${shellQuote(Deno.execPath())} run -q ${shellQuote(empty)}`;
  const input = new TextEncoder().encode(scenario.payload);
  const hook: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 3; i++) {
    await timeHook(command, input, options.cwd);
    await timeShell(baselineCommand, input, options.cwd);
  }
  for (let i = 0; i < options.runs; i++) {
    if (i % 2 === 0) {
      hook.push(await timeHook(command, input, options.cwd));
      baseline.push((await timeShell(baselineCommand, input, options.cwd)).ms);
    } else {
      baseline.push((await timeShell(baselineCommand, input, options.cwd)).ms);
      hook.push(await timeHook(command, input, options.cwd));
    }
  }
  return { name: scenario.name, hook: summarise(hook), baseline: summarise(baseline) };
}
