/**
 * Helpers to run one real Claude Code turn (`claude -p`) offline: a temporary project with its own
 * `.claude/settings.json`, a temporary `HOME`, and `ANTHROPIC_BASE_URL` pointing at the scripted
 * model server from `model_server.ts`. The CLI comes from `tests/claude/install_cli.sh`.
 *
 * @module
 */

import { HOOK_EVENTS } from "../../lib/kinds.ts";
import { fileUrlToPath } from "../../lib/file_url.ts";

/** The Claude Code version the tests pin (keep in step with `install_cli.sh`). */
export const CLAUDE_CODE_VERSION = "2.1.328";

/** The repository root. */
export const REPO_ROOT: string = fileUrlToPath(new URL("../..", import.meta.url)).replace(
  /\/$/,
  "",
);

/**
 * The path of the `claude` executable: `$CLAUDE_CODE_BIN`, or the one `install_cli.sh` put under
 * `<repo>/.cache/claude-code`.
 *
 * @throws {Error} when it is missing, naming the script that installs it
 */
export function claudeBin(): string {
  const fromEnv = Deno.env.get("CLAUDE_CODE_BIN");
  const path = fromEnv ?? `${REPO_ROOT}/.cache/claude-code/node_modules/.bin/claude`;
  try {
    Deno.statSync(path);
  } catch {
    throw new Error(
      `Cannot find the Claude Code CLI: ${path} is missing; run bash tests/claude/install_cli.sh`,
    );
  }
  return path;
}

let cachedDenoDir: string | undefined;

/**
 * The Deno cache directory of this user (`$DENO_DIR`, else what `deno info` reports). Hooks run
 * with a temporary `HOME`; handing them the real cache keeps them as warm as on a user's machine.
 */
export function denoDir(): string {
  if (cachedDenoDir !== undefined) return cachedDenoDir;
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv !== undefined && fromEnv !== "") return cachedDenoDir = fromEnv;
  const output = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { denoDir?: string };
  if (typeof info.denoDir !== "string") {
    throw new Error("Cannot find the Deno cache: deno info --json names no denoDir");
  }
  return cachedDenoDir = info.denoDir;
}

let installing: Promise<string> | undefined;

/**
 * Makes sure the pinned CLI is installed (running `install_cli.sh`, a no-op when it is there; up to
 * 10 minutes for a first download) and returns its path. `$CLAUDE_CODE_BIN` skips the script.
 *
 * @throws {Error} when the script fails
 */
export function ensureClaudeCli(): Promise<string> {
  if (Deno.env.get("CLAUDE_CODE_BIN") !== undefined) return Promise.resolve(claudeBin());
  installing ??= (async () => {
    const output = await new Deno.Command("bash", {
      args: [`${REPO_ROOT}/tests/claude/install_cli.sh`],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(600_000),
    }).output();
    if (!output.success) {
      throw new Error(
        `Cannot install the Claude Code CLI: install_cli.sh exited ${output.code}: ${
          new TextDecoder().decode(output.stderr)
        }`,
      );
    }
    return claudeBin();
  })();
  return installing;
}

/** A temporary project and home for Claude Code. */
export interface TempProject {
  /** The temporary root that holds both; removed by `remove()`. */
  root: string;
  /** The project directory (Claude Code's cwd). */
  project: string;
  /** The directory used as `HOME`. */
  home: string;
  /** The directory used as `TMPDIR`, so what Claude Code leaves there goes with `root`. */
  tmp: string;
  /** Removes everything under `root`. */
  remove(): Promise<void>;
}

/** Options for {@linkcode createTempProject}. */
export interface TempProjectOptions {
  /**
   * Project settings written to `<project>/.claude/settings.json`; none when undefined.
   * @default undefined
   */
  settings?: Record<string, unknown>;
  /**
   * Files to create in the project, by relative path.
   * @default {}
   */
  files?: Record<string, string>;
}

/** Creates a temporary project and home directory. Call `remove()` in a `finally`. */
export async function createTempProject(options: TempProjectOptions = {}): Promise<TempProject> {
  const { settings, files = {} } = options;
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "cyberos-cc-" }));
  const project = `${root}/project`;
  const home = `${root}/home`;
  const tmp = `${root}/tmp`;
  await Deno.mkdir(`${project}/.claude`, { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  await Deno.mkdir(tmp);
  if (settings !== undefined) {
    await Deno.writeTextFile(
      `${project}/.claude/settings.json`,
      JSON.stringify(settings, null, 2) + "\n",
    );
  }
  for (const [name, text] of Object.entries(files)) {
    const path = `${project}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  return {
    root,
    project,
    home,
    tmp,
    remove: () => Deno.remove(root, { recursive: true }).catch(() => {}),
  };
}

/**
 * A `settings.json` object that runs one shell command for each event our hooks capture
 * (`HOOK_EVENTS`: the prompt, tool and Stop events and the lifecycle ones), the way `install` lays
 * them out.
 */
export function settingsWithHook(command: string): Record<string, unknown> {
  const matched = new Set(["PostToolUse", "PostToolUseFailure"]);
  const hooks: Record<string, unknown> = {};
  for (const event of Object.values(HOOK_EVENTS)) {
    hooks[event] = [{
      ...(matched.has(event) ? { matcher: "*" } : {}),
      hooks: [{ type: "command", command, timeout: 10 }],
    }];
  }
  return { hooks };
}

/** Options for {@linkcode runTurn}. */
export interface RunTurnOptions {
  /** The project and home to run in. */
  project: TempProject;
  /** `ANTHROPIC_BASE_URL`, the scripted model server's address. */
  baseUrl: string;
  /** The prompt (usually holding a script). */
  prompt: string;
  /**
   * Tools allowed without asking.
   * @default ["Bash", "Write", "Read", "Edit"]
   */
  allowedTools?: string[];
  /**
   * `--session-id` for a new session.
   * @default undefined
   */
  sessionId?: string;
  /**
   * `--resume` an earlier session.
   * @default undefined
   */
  resume?: string;
  /**
   * Path of a `--mcp-config` file.
   * @default undefined
   */
  mcpConfig?: string;
  /**
   * Extra CLI arguments, placed before `-p`.
   * @default []
   */
  extraArgs?: string[];
  /**
   * Extra environment variables.
   * @default {}
   */
  env?: Record<string, string>;
  /**
   * Kill Claude Code after this long.
   * @default 120_000
   */
  timeoutMs?: number;
}

/** What one `claude -p` run produced. */
export interface TurnResult {
  /** Exit code (non-zero after a timeout kill). */
  code: number;
  /** Claude Code's stdout (its answer in `-p` text mode). */
  stdout: string;
  /** Claude Code's stderr. */
  stderr: string;
  /** Wall time of the run in milliseconds. */
  wallMs: number;
  /** Whether the run was killed for exceeding `timeoutMs`. */
  timedOut: boolean;
}

/**
 * The environment Claude Code runs with: offline, no updater, nothing inherited but `PATH` and the
 * Deno cache.
 */
export function turnEnv(
  project: TempProject,
  baseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: project.home,
    TMPDIR: project.tmp,
    DENO_DIR: denoDir(),
    DENO_NO_UPDATE_CHECK: "1",
    ANTHROPIC_API_KEY: "sk-ant-offline-test",
    ANTHROPIC_BASE_URL: baseUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...extra,
  };
}

/** Runs one non-interactive Claude Code turn and waits for it, killing it after `timeoutMs`. */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const {
    project,
    baseUrl,
    prompt,
    allowedTools = ["Bash", "Write", "Read", "Edit"],
    sessionId,
    resume,
    mcpConfig,
    extraArgs = [],
    env = {},
    timeoutMs = 120_000,
  } = options;
  const args = [...extraArgs];
  if (sessionId !== undefined) args.push("--session-id", sessionId);
  if (resume !== undefined) args.push("--resume", resume);
  if (mcpConfig !== undefined) args.push("--mcp-config", mcpConfig);
  args.push("-p", prompt, "--allowedTools", ...allowedTools);
  const started = performance.now();
  const child = new Deno.Command(claudeBin(), {
    args,
    cwd: project.project,
    env: turnEnv(project, baseUrl, env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, timeoutMs);
  try {
    const output = await child.output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      wallMs: performance.now() - started,
      timedOut,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The name our test MCP server is configured under; its tool is `mcp__<name>__echo`. */
export const MCP_SERVER_NAME = "probe";

/**
 * Writes a `--mcp-config` file into the temporary root that starts `mcp_server.ts` with this Deno,
 * and returns its path.
 */
export async function writeMcpConfig(project: TempProject): Promise<string> {
  const path = `${project.root}/mcp.json`;
  const server = fileUrlToPath(new URL("./mcp_server.ts", import.meta.url));
  const config = {
    mcpServers: {
      [MCP_SERVER_NAME]: { type: "stdio", command: Deno.execPath(), args: ["run", "-q", server] },
    },
  };
  await Deno.writeTextFile(path, JSON.stringify(config, null, 2) + "\n");
  return path;
}
