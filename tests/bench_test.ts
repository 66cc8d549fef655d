/**
 * The benchmark's own parts: the percentiles it reports, each gate at its
 * edge, the whole-process hook measurement against a real daemon, which
 * must count only runs that ended `ok`, and ingest and `verify` on a real store.
 *
 * @module
 */

import assert from "node:assert/strict";
import { percentile, summarise, type Summary } from "../bench/_stats.ts";
import {
  HOOK_P95_BUDGET_MS,
  HOOK_P95_RATIO,
  hookGateFails,
  ingestGateFails,
  MAX_REDACTION_MIX_RATIO,
  MAX_REDACTION_MS_PER_MIB,
  MAX_REDACTION_PROSE_RATIO,
  MAX_REDACTION_SCALING,
  MIN_ROWS_PER_SECOND,
  redaction4KbGateFails,
  redactionMixGateFails,
  redactionPerMibGateFails,
  redactionScalingGateFails,
} from "../bench/_gates.ts";
import { measureHookProcess } from "../bench/hook_process.ts";
import { measureIngest, measureVerify } from "../bench/ingest.ts";
import { promptPayload, stopPayload } from "../bench/_payloads.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { readRows, startTestDaemon, waitForRows } from "./_daemon.ts";

function p95Of(p95: number): Summary {
  return { n: 100, min: 0, median: 0, p95, p99: p95 };
}

Deno.test("percentile is nearest-rank; summarise reports n, min, median, p95, p99", () => {
  const oneToHundred = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.deepEqual(summarise(oneToHundred), { n: 100, min: 1, median: 50, p95: 95, p99: 99 });
  assert.equal(percentile([7], 95), 7);
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([1, 2, 3, 4], 100), 4);
  assert.ok(Number.isNaN(percentile([], 50)));
});

Deno.test("the hook gate fails only when p95 is over the budget and over the ratio of the floor's", () => {
  const floor = p95Of(HOOK_P95_BUDGET_MS);
  const overRatio = HOOK_P95_RATIO * HOOK_P95_BUDGET_MS + 0.1;
  assert.equal(hookGateFails({ hook: p95Of(overRatio), baseline: floor }), true);
  // Over the budget but within the ratio: a slow machine, not a slow hook.
  assert.equal(
    hookGateFails({ hook: p95Of(overRatio - 0.2), baseline: floor }),
    false,
  );
  // Within the budget, however slow against a fast floor.
  assert.equal(
    hookGateFails({ hook: p95Of(HOOK_P95_BUDGET_MS), baseline: p95Of(1) }),
    false,
  );
  assert.equal(
    hookGateFails({ hook: p95Of(HOOK_P95_BUDGET_MS + 0.1), baseline: p95Of(1) }),
    true,
  );
});

Deno.test("the ingest and redaction gates fail at their edges, and on NaN", () => {
  assert.equal(ingestGateFails(MIN_ROWS_PER_SECOND), false);
  assert.equal(ingestGateFails(MIN_ROWS_PER_SECOND - 1), true);
  assert.equal(ingestGateFails(NaN), true);
  assert.equal(redaction4KbGateFails(0.999), false);
  assert.equal(redaction4KbGateFails(1), true);
  assert.equal(redaction4KbGateFails(NaN), true);
  assert.equal(redactionScalingGateFails({ of4Kb: 1, of1Mib: MAX_REDACTION_SCALING }), false);
  assert.equal(redactionScalingGateFails({ of4Kb: 1, of1Mib: MAX_REDACTION_SCALING + 1 }), true);
  assert.equal(redactionScalingGateFails({ of4Kb: 0, of1Mib: 0 }), false);
  const perMib = (worst: number, realistic: number) =>
    redactionPerMibGateFails({ worst, realistic });
  assert.equal(perMib(MAX_REDACTION_MS_PER_MIB - 0.1, 10), false);
  assert.equal(perMib(MAX_REDACTION_MS_PER_MIB, 5), true);
  assert.equal(perMib(300, 300 / MAX_REDACTION_PROSE_RATIO + 0.1), false);
  assert.equal(perMib(300, 300 / MAX_REDACTION_PROSE_RATIO), true);
  assert.equal(perMib(NaN, 10), true);
  const mix = (ms: number, realistic: number) => redactionMixGateFails({ mix: ms, realistic });
  assert.equal(mix(MAX_REDACTION_MS_PER_MIB - 0.1, 10), false);
  assert.equal(mix(300, 300 / MAX_REDACTION_MIX_RATIO + 0.1), false);
  assert.equal(mix(300, 300 / MAX_REDACTION_MIX_RATIO), true);
  assert.equal(mix(NaN, 10), true);
});

Deno.test("measureHookProcess times the installed hook against the floor, and every run is committed", async () => {
  const daemon = await startTestDaemon();
  const project = await Deno.makeTempDir({ prefix: "cyberos-bench-test-" });
  try {
    const options = { socket: daemon.socket, traceDir: daemon.traceDir, cwd: project, runs: 2 };
    const scenarios = [
      { name: "prompt", event: "userpromptsubmit" as const, payload: promptPayload(project) },
      { name: "stop", event: "stop" as const, payload: stopPayload(project) },
    ];
    for (const scenario of scenarios) {
      const result = await measureHookProcess(scenario, options);
      assert.equal(result.name, scenario.name);
      for (const summary of [result.hook, result.baseline]) {
        assert.equal(summary.n, 2);
        assert.ok(summary.min > 0 && summary.min <= summary.median);
        assert.ok(summary.median <= summary.p95 && summary.p95 <= summary.p99);
      }
    }
    // Three warm-up runs and two measured ones per scenario, each a row.
    const rows = await waitForRows(daemon.db, 10);
    assert.equal(rows.length, 10);
    assert.deepEqual(
      [...new Set(rows.map((row) => row.kind))].sort(),
      [ROW_KINDS.prompt, ROW_KINDS.sessionCompleted].sort(),
    );
  } finally {
    await daemon.stop();
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("measureHookProcess stops when a hook run does not end ok (no daemon on the socket)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-bench-test-" });
  try {
    await assert.rejects(
      measureHookProcess(
        { name: "stop", event: "stop", payload: stopPayload(dir) },
        { socket: `${dir}/nobody.sock`, traceDir: `${dir}/traces`, cwd: dir, runs: 2 },
      ),
      /Cannot benchmark the hook: a run did not end ok.*WARN socket_unavailable/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("measureIngest counts only committed rows, in both modes; measureVerify walks them all", async () => {
  const daemon = await startTestDaemon();
  try {
    for (const mode of ["stream", "connection"] as const) {
      const result = await measureIngest(daemon, { senders: 4, frames: 60, mode });
      assert.equal(result.senders, 4);
      assert.equal(result.frames, 60);
      assert.ok(result.rowsPerSecond > 0 && Number.isFinite(result.rowsPerSecond));
      assert.ok(result.p99Ms >= 0);
    }
    assert.equal(readRows(daemon.db).length, 120);
    const verified = measureVerify(daemon.db);
    assert.equal(verified.rows, 120);
    assert.ok(verified.rowsPerSecond > 0);
  } finally {
    await daemon.stop();
  }
});
