/**
 * Hook latency as Claude Code itself experiences it. The real CLI runs scripted turns offline
 * (Bash, Write, Read, a failing Bash, then an answer) with its own telemetry on
 * (`CLAUDE_CODE_ENABLE_TELEMETRY=1`, OTLP http/json logs to a local receiver); every
 * `hook_execution_complete` event's `total_duration_ms` is one hook run as Claude Code timed it.
 * Turns alternate between a project where `install` put our hooks (with a live daemon) and one whose
 * hooks are a bare `cat > /dev/null`, so both see the same machine noise.
 *
 * Run: `deno run -A bench/claude_code_latency.ts [--turns N]` (installs the pinned CLI with
 * `tests/claude/install_cli.sh` when missing). Prints a markdown table on stdout, progress on stderr.
 *
 * @module
 */

import { type CommandSpec, EXIT, parseOrExit } from "../lib/cli.ts";
import { startTestDaemon, type TestDaemon, waitForRows } from "../tests/_daemon.ts";
import { scriptBlock } from "../tests/claude/model_server.ts";
import { startModelServer } from "../tests/claude/model_server.ts";
import { type OtlpLogRecord, startOtlpReceiver } from "../tests/_otlp_receiver.ts";
import {
  CLAUDE_CODE_VERSION,
  createTempProject,
  ensureClaudeCli,
  runTurn,
  settingsWithHook,
  type TempProject,
} from "../tests/claude/run_turn.ts";
import { installCapture } from "../tests/claude/scenario.ts";

/** The hook setups compared. */
type Setup = "ours" | "cat";

/** One hook run as Claude Code reported it. */
interface HookTiming {
  setup: Setup;
  event: string;
  ms: number;
}

const EVENTS = ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop"] as const;

const BENCH_CLAUDE_SPEC: CommandSpec = {
  command: "bench:claude",
  usage: `usage: deno task bench:claude [--turns N]

Runs the pinned Claude Code CLI against a local model server, N turns with our hooks
and N with a plain cat hook, and prints the hook timings Claude Code itself reports.

  --turns N  turns per setup (the task passes 10; the last --turns given wins)

Exit codes: 0 done, 1 failed, 2 bad usage.`,
  options: [{ name: "--turns", value: "N", repeat: true }],
};

function parseTurns(args: string[]): number {
  const given = parseOrExit(BENCH_CLAUDE_SPEC, args).options.get("--turns")?.at(-1) ?? "5";
  if (!/^[1-9][0-9]{0,4}$/.test(given)) {
    console.error(`cyberos-memory bench:claude: --turns needs a positive count, got "${given}"`);
    Deno.exit(EXIT.usage);
  }
  return Number(given);
}

function turnPrompt(project: string, turn: number): string {
  return `Bench turn ${turn}.\n${
    scriptBlock([
      [{ tool: "Bash", input: { command: `echo bench-${turn}`, description: "echo" } }],
      [{ tool: "Write", input: { file_path: `${project}/bench.txt`, content: `turn ${turn}\n` } }],
      [{ tool: "Read", input: { file_path: `${project}/bench.txt` } }],
      [{ tool: "Bash", input: { command: "exit 1", description: "fail" } }],
      [{ text: `Bench turn ${turn} done.` }],
    ])
  }`;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

function stats(values: number[]): { n: number; p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? NaN,
  };
}

function hookTimings(records: OtlpLogRecord[], setup: Setup): HookTiming[] {
  return records
    .filter((r) => r.attributes["event.name"] === "hook_execution_complete")
    .map((r) => ({
      setup,
      event: String(r.attributes.hook_event),
      ms: Number(r.attributes.total_duration_ms),
    }));
}

function fmt(ms: number): string {
  return Number.isFinite(ms) ? String(Math.round(ms)) : "–";
}

/** Renders the results as a markdown table. */
function table(timings: HookTiming[], turnMs: Record<Setup, number[]>, turns: number): string {
  const lines = [
    `Hook latency as Claude Code ${CLAUDE_CODE_VERSION} reports it (\`hook_execution_complete\` ` +
    `\`total_duration_ms\`), ${turns} turns per setup, ms:`,
    "",
    "| event | hook | n | p50 | p95 | max |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
  ];
  const seen = [...new Set(timings.map((t) => t.event))];
  const lifecycle = seen.filter((event) => !(EVENTS as readonly string[]).includes(event)).sort();
  for (const event of [...EVENTS, ...lifecycle, "all"]) {
    for (const setup of ["ours", "cat"] as const) {
      const values = timings
        .filter((t) => t.setup === setup && (event === "all" || t.event === event))
        .map((t) => t.ms);
      const s = stats(values);
      const name = setup === "ours" ? "ours (hook → daemon)" : "`cat > /dev/null`";
      lines.push(
        `| ${event} | ${name} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.max)} |`,
      );
    }
  }
  const wall = (setup: Setup) => stats(turnMs[setup]);
  lines.push(
    "",
    `Whole \`claude -p\` turn (${
      timings.filter((t) => t.setup === "ours").length / turns
    } hook runs, 5 model calls), wall ms p50: ours ${fmt(wall("ours").p50)}, cat ${
      fmt(wall("cat").p50)
    }.`,
  );
  return lines.join("\n");
}

async function main(): Promise<void> {
  const turns = parseTurns([...Deno.args]);
  await ensureClaudeCli();
  const server = await startModelServer();
  const otlp = startOtlpReceiver();
  let daemon: TestDaemon | undefined;
  const projects: Partial<Record<Setup, TempProject>> = {};
  try {
    daemon = await startTestDaemon();
    projects.ours = await createTempProject();
    await installCapture(projects.ours, daemon);
    projects.cat = await createTempProject({ settings: settingsWithHook("cat > /dev/null") });
    const telemetryEnv = {
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_METRICS_EXPORTER: "none",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_LOGS_EXPORT_INTERVAL: "500",
    };
    const timings: HookTiming[] = [];
    const turnMs: Record<Setup, number[]> = { ours: [], cat: [] };
    for (let turn = 1; turn <= turns; turn++) {
      for (const setup of ["ours", "cat"] as const) {
        const project = projects[setup]!;
        otlp.requests.length = 0;
        const result = await runTurn({
          project,
          baseUrl: server.baseUrl,
          prompt: turnPrompt(project.project, turn),
          env: telemetryEnv,
        });
        if (result.code !== 0 || result.stdout !== `Bench turn ${turn} done.\n`) {
          throw new Error(
            `Cannot bench: turn ${turn} (${setup}) exited ${result.code}: ${result.stdout}${result.stderr}`,
          );
        }
        const found = hookTimings(otlp.logs(), setup);
        // The turn's six (prompt, four tools, Stop), plus the session's lifecycle events.
        if (found.filter((t) => (EVENTS as readonly string[]).includes(t.event)).length !== 6) {
          throw new Error(
            `Cannot bench: turn ${turn} (${setup}) reported ${found.length} hook runs, expected 6 of the turn's own`,
          );
        }
        timings.push(...found);
        turnMs[setup].push(result.wallMs);
        console.error(`turn ${turn} ${setup}: ${Math.round(result.wallMs)} ms`);
      }
    }
    // Our hooks really captured: one row per hook run.
    await waitForRows(daemon.db, 6 * turns, { timeoutMs: 15_000 });
    console.log(table(timings, turnMs, turns));
  } finally {
    await server.stop();
    await otlp.stop();
    await daemon?.stop();
    await projects.ours?.remove();
    await projects.cat?.remove();
  }
}

if (import.meta.main) {
  await main();
  // tests/_daemon.ts leaves its 20 s start-up timer armed; do not wait for it.
  Deno.exit(0);
}
