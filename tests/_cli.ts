/**
 * Test helper: runs `install`, `uninstall`, `status`, `tail` or `verify`
 * exactly as its `deno.json` task does (entry script and permission set), in
 * a clean environment, and payloads shaped like Claude Code's (the recorded
 * ones in `tests/claude/observed/`) for the hook run as a subprocess.
 *
 * @module
 */

import { ROOT } from "./_daemon.ts";

const DENO_DIR = Deno.env.get("DENO_DIR") ||
  `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`;

/** What one command run printed. */
export interface CliRun {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/** The entry script and permission set of a sub-command's task. */
export function taskEntry(command: string): { set: string; script: string } {
  return command === "install" || command === "uninstall" || command === "status"
    ? { set: "installer", script: "install/start.ts" }
    : { set: "reader", script: "install/main.ts" };
}

/** The `deno` arguments and environment of a sub-command run as its task runs it. */
export function cliCommand(
  args: string[],
  env: Record<string, string>,
): { args: string[]; env: Record<string, string> } {
  const { set, script } = taskEntry(args[0] ?? "");
  return {
    args: ["run", "-q", "--no-prompt", `-P=${set}`, script, ...args],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1", ...env },
  };
}

/** Runs a sub-command as its task does and collects its output. */
export async function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const command = cliCommand(args, env);
  const output = await new Deno.Command(Deno.execPath(), {
    args: command.args,
    cwd: ROOT,
    clearEnv: true,
    env: command.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

/** Fields to put into a recorded payload. */
export interface PayloadFields {
  /** The session id. */
  session: string;
  /** The working folder. */
  cwd: string;
  /** For PostToolUse: the tool's name. */
  toolName?: string;
  /** For UserPromptSubmit: the prompt. */
  prompt?: string;
}

/** A recorded Claude Code payload (`tests/claude/observed/<name>.json`) with its fields replaced. */
export async function observedPayload(name: string, fields: PayloadFields): Promise<string> {
  const payload = JSON.parse(
    await Deno.readTextFile(`${ROOT}/tests/claude/observed/${name}.json`),
  ) as Record<string, unknown>;
  payload.session_id = fields.session;
  payload.cwd = fields.cwd;
  if (fields.toolName !== undefined) payload.tool_name = fields.toolName;
  if (fields.prompt !== undefined) payload.prompt = fields.prompt;
  return JSON.stringify(payload);
}

/**
 * Runs `work` in a fresh temp folder holding an empty `home/` and
 * `project/`, with the environment a command under test needs there (its
 * own `HOME`, socket, trace folder and store), and removes the folder after.
 */
export async function withInstallTemp(
  prefix: string,
  work: (dir: string, env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix });
  await Deno.mkdir(`${dir}/home`);
  await Deno.mkdir(`${dir}/project`);
  const env = {
    HOME: `${dir}/home`,
    CYBEROS_MEMORY_SOCKET: `${dir}/run/capture.sock`,
    CYBEROS_MEMORY_TRACE_DIR: `${dir}/run/traces`,
    CYBEROS_MEMORY_DB: `${dir}/run/capture.db`,
  };
  try {
    await work(dir, env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
