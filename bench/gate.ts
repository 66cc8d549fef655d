/**
 * `deno task bench`: the benchmarks and their gates.
 *
 * 1. The hook, whole process, as Claude Code starts it, against the empty-Deno
 *    floor, interleaved run by run.
 * 2. Redaction in-process: 4 KB, 64 KB, 1 MiB, adversarial inputs, the mix
 *    of every rule's prefix and the slowest single prefix.
 * 3. Daemon ingest with 1, 8 and 32 concurrent senders; then `verify`.
 *
 * Gates (`_gates.ts`): the hook's p95 over 50 ms **and** over 1.25× the
 * floor's p95 in the same run (measured once more before failing, since a
 * shared machine can spike); ingest under 5,000 rows/s; redacting 1 MiB over
 * 300× the 4 KB time; the slowest 1 MiB input at 100 ms or more and 8×
 * realistic 1 MiB text or more (least CPU time of its runs), the mix of every
 * rule's prefixes at 100 ms or more and 11×; redacting 4 KB
 * at 1 ms or more (read from
 * `deno bench --json`).
 * Prints markdown tables and writes them to `bench/latest.md`.
 *
 * Usage: `bench/gate.ts [--runs N]` (default 100).
 *
 * @module
 */

import { type CommandSpec, EXIT, optionValue, parseOrExit } from "../lib/cli.ts";
import { startTestDaemon } from "../tests/_daemon.ts";
import type { HookEvent } from "../lib/kinds.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import { promptPayload, stopPayload, toolPayload } from "./_payloads.ts";
import { measureHookProcess } from "./hook_process.ts";
import { measureIngest, measureVerify } from "./ingest.ts";
import { measureRedaction, MIX_INPUT, REALISTIC_1MIB, type RedactionTiming } from "./redaction.ts";
import {
  gateExitCode,
  HOOK_GATE_RUNS,
  HOOK_P95_BUDGET_MS,
  HOOK_P95_RATIO,
  hookGateFails,
  ingestGateFails,
  MAX_REDACTION_4KB_MS,
  MAX_REDACTION_MIX_RATIO,
  MAX_REDACTION_MS_PER_MIB,
  MAX_REDACTION_PROSE_RATIO,
  MAX_REDACTION_SCALING,
  measureWithRetry,
  MIN_ROWS_PER_SECOND,
  redaction4KbGateFails,
  redactionMixGateFails,
  redactionPerMibGateFails,
  redactionScalingGateFails,
} from "./_gates.ts";

/** claude-mem's hook on this machine class (issue 6): median and p95, ms. */
const CLAUDE_MEM = { median: 800, p95: 870 };

const BENCH_SPEC: CommandSpec = {
  command: "bench",
  usage: `usage: deno task bench [--runs N]

Measures the hook (whole process, against an empty deno run), redaction and daemon
ingest, checks the gates, prints markdown tables and writes bench/latest.md.

  --runs N  hook runs per scenario (default ${HOOK_GATE_RUNS})

Exit codes: 0 every gate passed, 1 a gate failed, 2 bad usage.`,
  options: [{ name: "--runs", value: "N" }],
};

const runsValue = optionValue(parseOrExit(BENCH_SPEC, Deno.args), "--runs") ??
  String(HOOK_GATE_RUNS);
if (!/^[1-9][0-9]{0,5}$/.test(runsValue)) {
  console.error(`cyberos-memory bench: --runs needs a positive count, got "${runsValue}"`);
  Deno.exit(EXIT.usage);
}
const RUNS = Number(runsValue);

const lines: string[] = [];
const failures: string[] = [];

function out(line = ""): void {
  console.log(line);
  lines.push(line);
}

const f1 = (n: number) => n.toFixed(1);

/** `deno bench --json` on the redaction benchmarks: the 4 KB case's mean and p75, ms. */
async function denoBench4Kb(): Promise<{ avgMs: number; p75Ms: number }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bench", "-q", "--json", fileUrlToPath(new URL("./redact_bench.ts", import.meta.url))],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const report = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    benches: Array<{ name: string; results: Array<{ ok?: { avg: number; p75: number } }> }>;
  };
  const ok = report.benches.find((bench) => bench.name === "text 4 KB")?.results[0]?.ok;
  if (!ok) throw new Error("deno bench gave no result for text 4 KB");
  return { avgMs: ok.avg / 1e6, p75Ms: ok.p75 / 1e6 };
}

const daemon = await startTestDaemon();
const project = await Deno.makeTempDir({ prefix: "cyberos-bench-project-" });
try {
  out(`## Hook, whole process (${RUNS} runs each, interleaved with an empty \`deno run\`)`);
  out();
  out(
    "| scenario | min | median | p95 | p99 | floor median | floor p95 | median − floor | p95 ratio |",
  );
  out("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  const scenarios: Array<{ name: string; event: HookEvent; payload: string }> = [
    {
      name: "UserPromptSubmit, 4 KB prompt with secrets",
      event: "userpromptsubmit",
      payload: promptPayload(project),
    },
    {
      name: "UserPromptSubmit, 4 KB prompt without secrets",
      event: "userpromptsubmit",
      payload: promptPayload(project, { secrets: false }),
    },
    { name: "PostToolUse, 64 KB tool_input", event: "posttooluse", payload: toolPayload(project) },
    { name: "Stop", event: "stop", payload: stopPayload(project) },
  ];
  const options = { socket: daemon.socket, traceDir: daemon.traceDir, cwd: project, runs: RUNS };
  for (const scenario of scenarios) {
    const result = await measureWithRetry(() => measureHookProcess(scenario, options), {
      fails: hookGateFails,
      onRetry: () => console.error(`${scenario.name}: over the gate, measuring once more`),
    });
    const { hook, baseline } = result;
    out(
      `| ${scenario.name} | ${f1(hook.min)} | ${f1(hook.median)} | ${f1(hook.p95)} | ${
        f1(hook.p99)
      } | ` +
        `${f1(baseline.median)} | ${f1(baseline.p95)} | ${f1(hook.median - baseline.median)} | ` +
        `${(hook.p95 / baseline.p95).toFixed(2)} |`,
    );
    if (hookGateFails(result)) {
      failures.push(
        `${scenario.name}: p95 ${f1(hook.p95)} ms > ${HOOK_P95_BUDGET_MS} ms and > ` +
          `${HOOK_P95_RATIO}× floor p95 ${f1(baseline.p95)} ms`,
      );
    }
  }
  out(
    `| claude-mem (published, this machine class) | | ${CLAUDE_MEM.median} | ${CLAUDE_MEM.p95} | | | | | |`,
  );
  out();

  out("## Redaction in-process");
  out();
  out("| input | bytes | median ms | ns/byte | ms/MiB | CPU ms/MiB, least |");
  out("| --- | --- | --- | --- | --- | --- |");
  const redaction = measureRedaction();
  for (const timing of redaction) {
    out(
      `| ${timing.name} | ${timing.bytes} | ${timing.medianMs.toFixed(3)} | ${
        timing.nsPerByte.toFixed(1)
      } | ${timing.msPerMib.toFixed(1)} | ${timing.cpuMsPerMib.toFixed(1)} |`,
    );
  }
  // The gate reads the least CPU time: what the redactor costs, without the
  // time a shared machine kept it waiting (see bench/README.md).
  const mix = redaction.find((t) => t.name === MIX_INPUT)!;
  const slowest = redaction.filter((t) => t.bytes >= 1024 * 1024 && t !== mix)
    .reduce((a, b) => (b.cpuMsPerMib > a.cpuMsPerMib ? b : a));
  out();
  const realistic = redaction.find((t) => t.name === REALISTIC_1MIB)!;
  // Each adversarial input against realistic text timed in turn with it (see RedactionTiming).
  const realisticBeside = (t: RedactionTiming) => t.besideCpuMsPerMib ?? realistic.cpuMsPerMib;
  const times = (t: RedactionTiming) => (t.cpuMsPerMib / realisticBeside(t)).toFixed(1);
  out(
    `slowest 1 MiB input: ${slowest.name}, ${slowest.cpuMsPerMib.toFixed(1)} CPU ms/MiB, ` +
      `${times(slowest)}× text 1 MiB timed in turn with it ` +
      `(gate: under ${MAX_REDACTION_MS_PER_MIB} ms/MiB or ${MAX_REDACTION_PROSE_RATIO}× text 1 MiB)`,
  );
  out(
    `${MIX_INPUT}: ${mix.cpuMsPerMib.toFixed(1)} CPU ms/MiB, ${
      times(mix)
    }× text 1 MiB timed in turn ` +
      `(gate: under ${MAX_REDACTION_MS_PER_MIB} ms/MiB or ${MAX_REDACTION_MIX_RATIO}× text 1 MiB)`,
  );
  if (
    redactionPerMibGateFails({ worst: slowest.cpuMsPerMib, realistic: realisticBeside(slowest) })
  ) {
    failures.push(`redacting ${slowest.name}: ${slowest.cpuMsPerMib.toFixed(1)} CPU ms/MiB`);
  }
  if (
    redactionMixGateFails({
      mix: mix.cpuMsPerMib,
      realistic: realisticBeside(mix),
    })
  ) {
    failures.push(`redacting the ${MIX_INPUT}: ${mix.cpuMsPerMib.toFixed(1)} CPU ms/MiB`);
  }
  const benched = await denoBench4Kb();
  out();
  out(
    `\`deno bench bench/redact_bench.ts\`, text 4 KB: mean ${benched.avgMs.toFixed(3)} ms, ` +
      `p75 ${
        benched.p75Ms.toFixed(3)
      } ms (gate: p75, and so the median, under ${MAX_REDACTION_4KB_MS} ms)`,
  );
  if (redaction4KbGateFails(benched.p75Ms)) {
    failures.push(
      `redacting 4 KB: p75 ${benched.p75Ms.toFixed(3)} ms ≥ ${MAX_REDACTION_4KB_MS} ms`,
    );
  }
  const small = redaction.find((t) => t.name === "text 4 KB")!;
  const large = redaction.find((t) => t.name === REALISTIC_1MIB)!;
  const scaling = large.medianMs / small.medianMs;
  out();
  out(
    `1 MiB / 4 KB time: ${scaling.toFixed(0)}× (gate: ≤ ${MAX_REDACTION_SCALING}×; 256× is linear)`,
  );
  if (redactionScalingGateFails({ of4Kb: small.medianMs, of1Mib: large.medianMs })) {
    failures.push(`redaction scales ${scaling.toFixed(0)}× from 4 KB to 1 MiB`);
  }
  out();

  out("## Daemon ingest and verify");
  out();
  out("| senders | mode | frames | rows/s committed | p99 sent → committed (ms) |");
  out("| --- | --- | --- | --- | --- |");
  for (const mode of ["stream", "connection"] as const) {
    for (const senders of [1, 8, 32]) {
      const result = await measureIngest(daemon, { senders, frames: 5000, mode });
      out(
        `| ${senders} | ${
          mode === "stream" ? "one connection each" : "a connection per frame"
        } | ` +
          `${result.frames} | ${result.rowsPerSecond.toFixed(0)} | ${f1(result.p99Ms)} |`,
      );
      // The gate is the daemon's own rate; per-frame connections add the sender's round trip.
      if (mode === "stream" && ingestGateFails(result.rowsPerSecond)) {
        failures.push(
          `ingest with ${senders} senders: ${
            result.rowsPerSecond.toFixed(0)
          } rows/s < ${MIN_ROWS_PER_SECOND}`,
        );
      }
    }
  }
  const verify = measureVerify(daemon.db);
  out();
  out(`verify: ${verify.rows} rows at ${verify.rowsPerSecond.toFixed(0)} rows/s`);
} finally {
  await daemon.stop();
  await Deno.remove(project, { recursive: true });
}

out();
out(
  failures.length === 0 ? "gate: pass" : `gate: FAIL\n${failures.map((f) => `- ${f}`).join("\n")}`,
);
await Deno.writeTextFile(new URL("./latest.md", import.meta.url), lines.join("\n") + "\n");
Deno.exit(gateExitCode(failures));
