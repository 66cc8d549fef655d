/**
 * The benchmark gates with their limits pinned by value (a loosened limit
 * fails here, not silently in CI), at their edges, at NaN and at zero
 * samples; and `bench/gate.ts`'s retry and exit code.
 *
 * @module
 */

import assert from "node:assert/strict";
import { summarise, type Summary } from "../bench/_stats.ts";
import {
  gateExitCode,
  HOOK_P95_BUDGET_MS,
  HOOK_P95_RATIO,
  hookGateFails,
  ingestGateFails,
  MAX_REDACTION_4KB_MS,
  MAX_REDACTION_SCALING,
  measureWithRetry,
  MIN_ROWS_PER_SECOND,
  redaction4KbGateFails,
  redactionScalingGateFails,
} from "../bench/_gates.ts";

function p95Of(p95: number): Summary {
  return { n: 100, min: 0, median: 0, p95, p99: p95 };
}

Deno.test("the gates' limits, by value", { permissions: "none" }, () => {
  assert.equal(HOOK_P95_BUDGET_MS, 50);
  assert.equal(HOOK_P95_RATIO, 1.25);
  assert.equal(MIN_ROWS_PER_SECOND, 5000);
  assert.equal(MAX_REDACTION_SCALING, 300);
  assert.equal(MAX_REDACTION_4KB_MS, 1);
});

Deno.test("the hook gate at its literal edges: 50 ms, and 1.25 × a 60 ms floor", {
  permissions: "none",
}, () => {
  assert.equal(hookGateFails({ hook: p95Of(50), baseline: p95Of(1) }), false);
  assert.equal(hookGateFails({ hook: p95Of(50.01), baseline: p95Of(1) }), true);
  assert.equal(hookGateFails({ hook: p95Of(75), baseline: p95Of(60) }), false);
  assert.equal(hookGateFails({ hook: p95Of(75.01), baseline: p95Of(60) }), true);
});

Deno.test("the hook gate fails on zero samples and on NaN, on either side", {
  permissions: "none",
}, () => {
  const none = summarise([]);
  assert.equal(none.n, 0);
  assert.equal(hookGateFails({ hook: none, baseline: p95Of(60) }), true);
  assert.equal(hookGateFails({ hook: p95Of(10), baseline: none }), true);
  assert.equal(hookGateFails({ hook: p95Of(NaN), baseline: p95Of(60) }), true);
  assert.equal(hookGateFails({ hook: p95Of(60), baseline: p95Of(NaN) }), true);
  assert.equal(hookGateFails({ hook: summarise([12]), baseline: summarise([10]) }), false);
});

Deno.test("the ingest and redaction gates at their literal edges, at NaN and at zero", {
  permissions: "none",
}, () => {
  assert.equal(ingestGateFails(5000), false);
  assert.equal(ingestGateFails(4999.9), true);
  assert.equal(ingestGateFails(NaN), true);
  assert.equal(ingestGateFails(0), true);
  assert.equal(redaction4KbGateFails(0.999), false);
  assert.equal(redaction4KbGateFails(1), true);
  assert.equal(redaction4KbGateFails(NaN), true);
  assert.equal(redactionScalingGateFails({ of4Kb: 0.01, of1Mib: 3 }), false);
  assert.equal(redactionScalingGateFails({ of4Kb: 0.01, of1Mib: 3.01 }), true);
  assert.equal(redactionScalingGateFails({ of4Kb: NaN, of1Mib: 1 }), true);
  assert.equal(redactionScalingGateFails({ of4Kb: 1, of1Mib: NaN }), true);
});

Deno.test(
  "measureWithRetry(): measures once when it passes, twice when the first fails, and keeps the second",
  {
    permissions: "none",
  },
  async () => {
    for (
      const [results, expected, calls] of [
        [[10, 99], 10, 1],
        [[99, 10], 10, 2],
        [[99, 98], 98, 2],
      ] as const
    ) {
      let call = 0;
      const retried: number[] = [];
      const result = await measureWithRetry(() => Promise.resolve(results[call++]!), {
        fails: (ms) => ms > 50,
        onRetry: (first) => retried.push(first),
      });
      assert.equal(result, expected);
      assert.equal(call, calls);
      assert.deepEqual(retried, calls === 2 ? [results[0]] : []);
    }
  },
);

Deno.test("gateExitCode(): 0 with no failure, 1 with any", { permissions: "none" }, () => {
  assert.equal(gateExitCode([]), 0);
  assert.equal(gateExitCode(["ingest with 8 senders: 10 rows/s < 5000"]), 1);
});

Deno.test("bench/gate.ts retries through measureWithRetry and exits through gateExitCode", {
  permissions: { read: true },
}, async () => {
  // The whole benchmark takes minutes; its decisions are the functions above. Make sure it uses them.
  const source = await Deno.readTextFile(new URL("../bench/gate.ts", import.meta.url));
  assert.match(
    source,
    /measureWithRetry\(\(\) => measureHookProcess\(scenario, options\), \{\s*fails: hookGateFails,/,
  );
  assert.match(source, /Deno\.exit\(gateExitCode\(failures\)\);\s*$/);
});
