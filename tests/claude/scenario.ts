/**
 * One end-to-end scenario: the real Claude Code CLI, driven by the scripted model server, runs one or
 * more turns in a temporary project where `install` put our hooks, against a real daemon on a
 * temporary socket and store. Beside our hooks a recorder in `.claude/settings.local.json` keeps
 * each payload Claude Code sent (one file per hook run), so tests can derive the exact rows expected.
 * Everything started is stopped and every temporary folder removed before {@linkcode runScenario}
 * returns.
 *
 * @module
 */

import { readRows, ROOT, startTestDaemon, type TestDaemon } from "../_daemon.ts";
import { runDeno as runDenoIn, type TaskResult } from "../_launcher.ts";
import type { StoredRow } from "../../lib/rows.ts";
import { type LoggedRequest, startModelServer } from "./model_server.ts";
import {
  createTempProject,
  denoDir,
  runTurn,
  settingsWithHook,
  type TempProject,
  type TurnResult,
  writeMcpConfig,
} from "./run_turn.ts";

/** One `claude -p` run of a scenario. */
export interface TurnSpec {
  /** The prompt, holding its script. */
  prompt: string;
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
   * Tools allowed without asking.
   * @default ["Bash", "Write", "Read", "Edit"]
   */
  allowedTools?: string[];
  /**
   * Extra CLI arguments (`--permission-mode auto`, say).
   * @default []
   */
  extraArgs?: string[];
}

/** Options for {@linkcode runScenario}. */
export interface ScenarioOptions {
  /** The turns, run one after the other in the same project; given the project's absolute path. */
  turns: (project: string) => TurnSpec[];
  /** How many rows the store must hold once every turn has ended. */
  expectedRows: number;
  /**
   * Install our hooks; `false` runs the same turns with only the recorder (the baseline).
   * @default true
   */
  capture?: boolean;
  /**
   * Files to create in the project before the first turn, by relative path.
   * @default {}
   */
  files?: Record<string, string>;
  /**
   * Project files to read back after the last turn (relative paths), into `files`.
   * @default []
   */
  readBack?: string[];
  /**
   * Configure the test MCP server (`--mcp-config`).
   * @default false
   */
  mcp?: boolean;
  /**
   * How long to wait for the rows after the last turn.
   * @default 15_000
   */
  rowsTimeoutMs?: number;
  /**
   * Extra `install` arguments (`--tool-detail subject`, say).
   * @default []
   */
  installArgs?: string[];
  /**
   * Extra environment for every `claude -p` run (its own telemetry, say).
   * @default {}
   */
  claudeEnv?: Record<string, string>;
  /**
   * Extra environment for the daemon, and the OTLP host it may reach.
   * @default {}
   */
  daemon?: { env: Record<string, string>; otlpHost: string };
  /**
   * Runs after `install`, before the first turn (to break one installed hook, say).
   * @default undefined
   */
  prepare?: (project: TempProject) => Promise<void>;
  /**
   * Runs once the daemon has stopped, before anything is removed, with the store and the
   * project's `HOME` (where Claude Code keeps its transcripts) still there.
   * @default undefined
   */
  inspect?: (kept: KeptScenario) => Promise<void>;
}

/** What {@linkcode ScenarioOptions.inspect} may look at before the scenario cleans up. */
export interface KeptScenario {
  /** The store, closed by the stopped daemon. */
  db: string;
  /** The temporary project and its `HOME`. */
  project: TempProject;
}

/** What a scenario produced. */
export interface ScenarioResult {
  /** The temporary project directory (already removed; for comparing paths). */
  project: string;
  /** The temporary root (already removed; for scrubbing paths). */
  root: string;
  /** One result per turn. */
  turns: TurnResult[];
  /** The store's rows, oldest first (empty without capture). */
  rows: StoredRow[];
  /** The payloads Claude Code sent to the recorder hook, in no particular order. */
  payloads: Record<string, unknown>[];
  /** The requests the model server received. */
  requests: LoggedRequest[];
  /** The store's files (database, WAL, shared memory) decoded as latin1, after the daemon stopped. */
  storeText: string;
  /** The `readBack` files' text after the last turn (undefined when missing). */
  files: Record<string, string | undefined>;
  /** Trace id files in the trace dir, by session id. */
  traceFiles: Record<string, string>;
  /** `install/main.ts verify` on the store. */
  verify: { code: number; stdout: string; stderr: string };
  /** The daemon's stderr. */
  daemonStderr: string;
}

/** The command `settings.local.json` runs beside our hooks: one file per payload. */
function recorderCommand(dir: string): string {
  return `f=$(mktemp '${dir}/payload.XXXXXXXX') && cat > "$f"`;
}

function runDeno(args: string[], env: Record<string, string>): Promise<TaskResult> {
  return runDenoIn(args, {
    cwd: ROOT,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      DENO_DIR: denoDir(),
      DENO_NO_UPDATE_CHECK: "1",
      ...env,
    },
  });
}

/**
 * Runs `install/main.ts install <project>` with the daemon's paths and a temporary `HOME`.
 *
 * @throws {Error} when the installer fails
 */
export async function installCapture(
  project: TempProject,
  daemon: TestDaemon,
  extraArgs: readonly string[] = [],
): Promise<void> {
  const result = await runDeno(
    ["run", "-q", "-A", `${ROOT}/install/main.ts`, "install", project.project, ...extraArgs],
    { HOME: project.home, ...daemon.env },
  );
  if (result.code !== 0) {
    throw new Error(`Cannot install the hooks: exit ${result.code}: ${result.stderr}`);
  }
}

/** Runs `install/main.ts verify` on the daemon's store. */
export function verifyStore(
  daemon: TestDaemon,
  home: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runDeno(["run", "-q", "-A", `${ROOT}/install/main.ts`, "verify"], {
    HOME: home,
    ...daemon.env,
  });
}

async function readPayloads(dir: string): Promise<Record<string, unknown>[]> {
  const payloads: Record<string, unknown>[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.startsWith("payload.")) continue;
    payloads.push(JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`)));
  }
  return payloads;
}

async function readStoreText(db: string): Promise<string> {
  const decoder = new TextDecoder("latin1");
  let text = "";
  for (const suffix of ["", "-wal", "-shm", "-journal"]) {
    try {
      text += decoder.decode(await Deno.readFile(db + suffix));
    } catch {
      // Not there.
    }
  }
  return text;
}

async function readTraceFiles(traceDir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  try {
    for await (const entry of Deno.readDir(traceDir)) {
      if (entry.isFile && /^[0-9a-f-]{36}$/.test(entry.name)) {
        files[entry.name] = (await Deno.readTextFile(`${traceDir}/${entry.name}`)).trim();
      }
    }
  } catch {
    // No trace dir.
  }
  return files;
}

/** Waits until the store holds `count` rows, then a moment more to catch any extra row. */
async function settleRows(db: string, count: number, timeoutMs: number): Promise<StoredRow[]> {
  const deadline = Date.now() + timeoutMs;
  let rows: StoredRow[] = [];
  while (Date.now() < deadline) {
    try {
      rows = readRows(db);
    } catch {
      rows = [];
    }
    if (rows.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  try {
    return readRows(db);
  } catch {
    return rows;
  }
}

/** Runs a scenario and returns everything it produced; cleans up in all cases. */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const {
    turns,
    expectedRows,
    capture = true,
    files = {},
    readBack = [],
    mcp = false,
    rowsTimeoutMs = 15_000,
    claudeEnv = {},
  } = options;
  const server = await startModelServer();
  let daemon: TestDaemon | undefined;
  let project: TempProject | undefined;
  try {
    daemon = await startTestDaemon(options.daemon ?? {});
    project = await createTempProject({ files });
    const recordings = `${project.root}/payloads`;
    await Deno.mkdir(recordings);
    if (capture) await installCapture(project, daemon, options.installArgs ?? []);
    await options.prepare?.(project);
    await Deno.writeTextFile(
      `${project.project}/.claude/settings.local.json`,
      JSON.stringify(settingsWithHook(recorderCommand(recordings)), null, 2) + "\n",
    );
    const mcpConfig = mcp ? await writeMcpConfig(project) : undefined;
    const results: TurnResult[] = [];
    for (const turn of turns(project.project)) {
      results.push(
        await runTurn({
          project,
          baseUrl: server.baseUrl,
          prompt: turn.prompt,
          ...(turn.sessionId !== undefined ? { sessionId: turn.sessionId } : {}),
          ...(turn.resume !== undefined ? { resume: turn.resume } : {}),
          ...(turn.allowedTools !== undefined ? { allowedTools: turn.allowedTools } : {}),
          ...(turn.extraArgs !== undefined ? { extraArgs: turn.extraArgs } : {}),
          ...(mcpConfig !== undefined ? { mcpConfig } : {}),
          env: claudeEnv,
        }),
      );
    }
    const rows = capture ? await settleRows(daemon.db, expectedRows, rowsTimeoutMs) : [];
    const payloads = await readPayloads(recordings);
    const traceFiles = await readTraceFiles(daemon.traceDir);
    const readBackFiles: Record<string, string | undefined> = {};
    for (const name of readBack) {
      readBackFiles[name] = await Deno.readTextFile(`${project.project}/${name}`).catch(() =>
        undefined
      );
    }
    await daemon.stop({ keep: true });
    const storeText = await readStoreText(daemon.db);
    const verify = capture
      ? await verifyStore(daemon, project.home)
      : { code: 0, stdout: "", stderr: "" };
    await options.inspect?.({ db: daemon.db, project });
    return {
      project: project.project,
      root: project.root,
      turns: results,
      rows,
      payloads,
      requests: server.requests,
      storeText,
      traceFiles,
      files: readBackFiles,
      verify,
      daemonStderr: daemon.stderr(),
    };
  } finally {
    await server.stop();
    if (daemon !== undefined) {
      await daemon.stop().catch(() => {});
      await Deno.remove(daemon.dir, { recursive: true }).catch(() => {});
    }
    await project?.remove();
  }
}
