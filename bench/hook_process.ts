/**
 * The hook as Claude Code runs it: the exact command `install` writes, started
 * through `sh -c` with the payload on stdin and the daemon up, interleaved run
 * by run with an empty `deno run` of an empty file (also through `sh -c`), so
 * that a noisy machine moves both together.
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

async function timeShell(command: string, input: Uint8Array, cwd: string): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    cwd,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(input);
    await writer.close();
  } catch {
    // The empty script exits without reading its stdin.
  }
  await child.status;
  return performance.now() - started;
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
    await timeShell(command, input, options.cwd);
    await timeShell(baselineCommand, input, options.cwd);
  }
  for (let i = 0; i < options.runs; i++) {
    if (i % 2 === 0) {
      hook.push(await timeShell(command, input, options.cwd));
      baseline.push(await timeShell(baselineCommand, input, options.cwd));
    } else {
      baseline.push(await timeShell(baselineCommand, input, options.cwd));
      hook.push(await timeShell(command, input, options.cwd));
    }
  }
  return { name: scenario.name, hook: summarise(hook), baseline: summarise(baseline) };
}
