/**
 * The world the acceptance tests share: one temporary project with a user's
 * own Stop hook, our hooks added by `deno task install`, one daemon brought up
 * by `deno task start` with its OpenTelemetry export pointed at a real OTLP
 * receiver, and the hook run the way Claude Code runs it (the command from the
 * project's `settings.json` through `sh -c`, the payload on stdin, the project
 * as working directory). Starting a daemon costs about a second, so every test
 * shares this one; each test uses session ids of its own.
 *
 * @module
 */

import assert from "node:assert/strict";
import { FIXTURES, readRows, ROOT } from "./_daemon.ts";
import { type StartedTask, startTask, taskEnv, type TaskResult } from "./_launcher.ts";
import { type OtlpReceiver, startOtlpReceiver } from "./_otlp_receiver.ts";
import type { StoredRow } from "../lib/rows.ts";

/** A user's own Stop hook, there before ours (the spec's acceptance on install keeps it first). */
export const USER_SETTINGS = `{
  "hooks": {
    "Stop": [
      {
        "hooks": [{ "type": "command", "command": "say done" }]
      }
    ]
  }
}
`;

/** The Claude Code events our hooks are installed for, as `settings.json` names them. */
export type ClaudeEvent = "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure" | "Stop";

/** The shared world. */
export interface World {
  /** The temporary folder holding everything. */
  dir: string;
  /** `HOME` for every task. */
  home: string;
  /** The captured project. */
  project: string;
  /** Its `.claude/settings.json`. */
  settingsFile: string;
  /** The daemon's socket, trace dir and store. */
  socket: string;
  /** The trace dir (and spool). */
  traceDir: string;
  /** The store. */
  db: string;
  /** `CYBEROS_MEMORY_*` pointing at the paths above. */
  env: Record<string, string>;
  /** The OTLP receiver the daemon exports to. */
  receiver: OtlpReceiver;
  /** The daemon `deno task start` runs. */
  daemon: StartedTask;
}

let shared: Promise<World> | undefined;

/** The shared world, set up on first use. */
export function world(): Promise<World> {
  return shared ??= setUp();
}

/** Stops the daemon and the receiver and removes the folder (the last test calls it). */
export async function tearDown(): Promise<void> {
  if (shared === undefined) return;
  const { daemon, receiver, dir } = await shared;
  shared = undefined;
  await daemon.stop();
  await receiver.stop();
  await Deno.remove(dir, { recursive: true });
}

async function setUp(): Promise<World> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-acceptance-" });
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  await Deno.mkdir(home);
  await Deno.mkdir(`${project}/.claude`, { recursive: true });
  const settingsFile = `${project}/.claude/settings.json`;
  await Deno.writeTextFile(settingsFile, USER_SETTINGS);
  const socket = `${dir}/capture.sock`;
  const traceDir = `${dir}/traces`;
  const db = `${dir}/store/capture.db`;
  const env = {
    CYBEROS_MEMORY_SOCKET: socket,
    CYBEROS_MEMORY_TRACE_DIR: traceDir,
    CYBEROS_MEMORY_DB: db,
  };
  const receiver = startOtlpReceiver();
  const installed = await task(["install", project], { home, env });
  if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
  const daemon = await startTask(socket, {
    root: ROOT,
    home,
    env: {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "300",
      OTEL_SERVICE_NAME: "cyberos-memory-acceptance",
    },
  });
  // A filtered run never reaches the last test: the daemon stops within a tick of losing its socket.
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(socket);
    } catch {
      // Stopped already.
    }
  });
  const w = { dir, home, project, settingsFile, socket, traceDir, db, env, receiver, daemon };
  // One hook run first, so that every hook metric has a series to export from the start.
  const sessionId = crypto.randomUUID();
  await runInstalledHook(w, "UserPromptSubmit", await payload(w, "user_prompt_submit", sessionId));
  await sessionRows(w, sessionId, 1);
  return w;
}

/** Runs `deno task <args>` from the checkout in a clean environment, `stdin` on its stdin. */
export async function task(
  args: string[],
  options: { home: string; env?: Record<string, string>; stdin?: string },
): Promise<TaskResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: ROOT,
    clearEnv: true,
    env: taskEnv({ root: ROOT, home: options.home, env: options.env ?? {} }),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** The command our install wrote for `event` (not the user's own hook beside it). */
export async function installedCommand(w: World, event: ClaudeEvent): Promise<string> {
  const settings = JSON.parse(await Deno.readTextFile(w.settingsFile));
  const commands: string[] = settings.hooks[event].flatMap((
    group: { hooks: { command: string }[] },
  ) => group.hooks.map((hook) => hook.command));
  const ours = commands.filter((command) => command.includes("--socket"));
  if (ours.length !== 1) throw new Error(`expected one command of ours for ${event}: ${commands}`);
  return ours[0]!;
}

/** What one hook process did. */
export interface ClaudeHookRun {
  /** Its exit code. */
  code: number;
  /** Its stdout (Claude Code injects a UserPromptSubmit hook's stdout into the model's context). */
  stdout: string;
  /** Its stderr (WARN lines). */
  stderr: string;
  /** Wall time, ms. */
  ms: number;
}

/**
 * Runs our installed hook for `event` as Claude Code does: `sh -c <command>`
 * in the project, the payload on stdin. `edit` changes the command first (a
 * socket nobody listens on, a test seam).
 */
export async function runInstalledHook(
  w: World,
  event: ClaudeEvent,
  payload: string,
  options: { edit?: (command: string) => string } = {},
): Promise<ClaudeHookRun> {
  const command = await installedCommand(w, event);
  const started = performance.now();
  const child = new Deno.Command("sh", {
    args: ["-c", options.edit ? options.edit(command) : command],
    cwd: w.project,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", CLAUDE_PROJECT_DIR: w.project },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(payload));
    await writer.close();
  } catch (error) {
    // A command that exits without reading its stdin (the empty floor script MUST 3 times the
    // hook against) closes the pipe first; Claude Code, too, goes on when a hook does that.
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
    ms: performance.now() - started,
  };
}

/** The fixture payloads under `tests/fixtures/claude-code`. */
export type FixtureName =
  | "user_prompt_submit"
  | "post_tool_use_bash"
  | "post_tool_use_failure_bash"
  | "stop_with_last_assistant_message";

/** A fixture payload for `sessionId` in the project, with `fields` set over it. */
export async function payload(
  w: World,
  name: FixtureName,
  sessionId: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const base = JSON.parse(await Deno.readTextFile(`${FIXTURES}/${name}.json`));
  return JSON.stringify({
    ...base,
    session_id: sessionId,
    cwd: w.project,
    transcript_path: `${w.home}/.claude/projects/p/${sessionId}.jsonl`,
    ...fields,
  });
}

/** Waits until the store holds `count` rows of `sessionId`, and returns them oldest first. */
export async function sessionRows(
  w: World,
  sessionId: string,
  count: number,
  options: { timeoutMs?: number } = {},
): Promise<StoredRow[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let rows: StoredRow[] = [];
  while (Date.now() < deadline) {
    rows = readRows(w.db).filter((row) => row.payload.session_id === sessionId);
    if (rows.length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`expected ${count} rows of session ${sessionId}, found ${rows.length}`);
}

/** Polls `probe` until it returns a value, or throws naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Options every acceptance test shares: the world outlives a test (one daemon for the file). */
export const SHARED = { sanitizeOps: false, sanitizeResources: false } as const;

/** Synthetic secrets, made up for these tests. */
export const AWS_KEY = "AKIAQ7RTX2M4ZK9WPL3N";
/** A second AWS key id, to count two. */
export const SECOND_AWS_KEY = "AKIAZ7QH3KX2M4PLW9RT";
/** A GitHub personal access token. */
export const GITHUB_PAT = "ghp_Zq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4";

/** Runs a prompt through our installed UserPromptSubmit hook and returns its stored row. */
export async function capturePrompt(w: World, prompt: string): Promise<StoredRow> {
  const sessionId = crypto.randomUUID();
  const run = await runInstalledHook(
    w,
    "UserPromptSubmit",
    await payload(w, "user_prompt_submit", sessionId, { prompt }),
  );
  assert.equal(run.code, 0);
  assert.equal(run.stdout, "");
  assert.equal(run.stderr, "", run.stderr);
  const [row] = await sessionRows(w, sessionId, 1);
  return row!;
}

/**
 * Waits until the daemon has exported a metric point taken after now, so that
 * `latest()` then includes every hook whose row is already stored.
 */
export async function freshMetrics(w: World): Promise<void> {
  const now = BigInt(Date.now()) * 1_000_000n;
  await until(
    "a metric export after now",
    () =>
      w.receiver.points().some((p) => p.name === "memory_claude_hook_total" && p.timeUnixNano > now)
        ? true
        : undefined,
  );
}

/** The latest cumulative value of a metric series (0 when never exported). */
export function metric(w: World, name: string, attributes: Record<string, unknown>): number {
  return w.receiver.latest(name, attributes) ?? 0;
}

/** The installed command with its socket replaced by one nobody listens on (the daemon is down). */
export function withSocket(w: World, socket: string): (command: string) => string {
  return (command) => command.replaceAll(w.socket, socket);
}

/** One of the spec's redaction patterns, as a test. */
export interface SpecPattern {
  /** The test's name (`AC n: …`). */
  name: string;
  /** A text in the pattern's shape. */
  text: string;
  /** What the text must become. */
  out: string;
  /** Texts that must come back unchanged (where we depart from the spec's rule). */
  kept?: string[];
}

const redactedTexts = new Map<string, Promise<string>>();

/**
 * `deno task redact --jsonl` over `texts`, one run for all those not redacted
 * yet, each text on its own JSON line (as plain lines, a neighbour's words
 * would be context for the next).
 */
export async function redactByTask(w: World, texts: string[]): Promise<Map<string, string>> {
  const fresh = [...new Set(texts.filter((text) => !redactedTexts.has(text)))];
  if (fresh.length > 0) {
    const run = (async () => {
      const stdin = fresh.map((text, id) => JSON.stringify({ id: String(id), text })).join("\n");
      const result = await task(["redact", "--jsonl"], { home: w.home, stdin });
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(lines.map((line) => line.id), fresh.map((_, id) => String(id)));
      return lines.map((line) => String(line.text));
    })();
    fresh.forEach((text, i) => redactedTexts.set(text, run.then((outs) => outs[i]!)));
  }
  return new Map(
    await Promise.all(texts.map(async (text) => [text, await redactedTexts.get(text)!] as const)),
  );
}

/**
 * Checks one of the spec's patterns through `deno task redact` and through
 * our installed hook: the text becomes exactly `out` with one match, and each
 * `kept` text comes back unchanged with none. `batch` is every text the
 * calling file redacts, so that one run of the task serves them all.
 */
export async function checkSpecPattern(
  w: World,
  pattern: SpecPattern,
  batch: string[],
): Promise<void> {
  const byTask = await redactByTask(w, batch);
  assert.equal(byTask.get(pattern.text), pattern.out, "deno task redact");
  const row = await capturePrompt(w, pattern.text);
  assert.equal(row.payload.prompt_redacted, pattern.out, "the installed hook");
  assert.equal(row.payload.redaction_match_count, 1);
  for (const text of pattern.kept ?? []) {
    assert.equal(byTask.get(text), text, "deno task redact");
    const kept = await capturePrompt(w, text);
    assert.equal(kept.payload.prompt_redacted, text, "the installed hook");
    assert.equal(kept.payload.redaction_match_count, 0);
  }
}
