/**
 * Our hook spans inside Claude Code's own traces: the hook passes a
 * well-formed `TRACEPARENT` on, the daemon parents the `memory.claude.hook`
 * span on it and links it to the session trace; anything else changes nothing
 * and warns about nothing. The last test runs the real Claude Code CLI with
 * its own tracing on and one OTLP receiver for both exporters.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseTraceparent } from "../lib/traceparent.ts";
import { parseFrameBody } from "../lib/frame.ts";
import { lifecycleSpecOfKind } from "../lib/lifecycle.ts";
import { HOOK_SPAN_NAME, sessionSpanId } from "../daemon/_otel.ts";
import { fixture, runHook, startTestDaemon, type TestDaemon, waitForRows } from "./_daemon.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./_otlp_receiver.ts";
import { scriptBlock } from "./claude/model_server.ts";
import { ensureClaudeCli } from "./claude/run_turn.ts";
import { runScenario } from "./claude/scenario.ts";

const CLAUDE_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLAUDE_SPAN = "00f067aa0ba902b7";
const VALID = `00-${CLAUDE_TRACE}-${CLAUDE_SPAN}-01`;

// Linux caps one environment string at 128 KiB (MAX_ARG_STRLEN), so no parent can hand a hook a
// 1 MiB TRACEPARENT; the longest it can is tried instead, and the parser alone gets 1 MiB.
const LONGEST_ENV_VALUE = 128 * 1024 - "TRACEPARENT=".length - 1;

const MALFORMED: Array<[what: string, value: string]> = [
  ["the longest value an environment can hold", VALID + "a".repeat(LONGEST_ENV_VALUE - 55)],
  ["invalid hex", `00-${CLAUDE_TRACE.replace("4b", "zz")}-${CLAUDE_SPAN}-01`],
  ["version 01", `01-${CLAUDE_TRACE}-${CLAUDE_SPAN}-01`],
  ["version ff", `ff-${CLAUDE_TRACE}-${CLAUDE_SPAN}-01`],
  ["upper case", `00-${CLAUDE_TRACE.toUpperCase()}-${CLAUDE_SPAN}-01`],
  ["all-zero trace id", `00-${"0".repeat(32)}-${CLAUDE_SPAN}-01`],
  ["all-zero span id", `00-${CLAUDE_TRACE}-${"0".repeat(16)}-01`],
  ["empty", ""],
  ["a newline", `${VALID}\n`],
];

Deno.test("parseTraceparent() takes a version-00 value and nothing else", {
  permissions: "none",
}, async (t) => {
  assert.deepEqual(parseTraceparent(VALID), {
    traceId: CLAUDE_TRACE,
    spanId: CLAUDE_SPAN,
    flags: 1,
  });
  assert.equal(parseTraceparent(`00-${CLAUDE_TRACE}-${CLAUDE_SPAN}-00`)?.flags, 0);
  assert.equal(parseTraceparent(undefined), undefined);
  assert.equal(parseTraceparent(VALID + "a".repeat(1024 * 1024)), undefined);
  for (const [what, value] of MALFORMED) {
    await t.step(what, () => assert.equal(parseTraceparent(value), undefined));
  }
});

Deno.test("parseFrameBody() refuses a frame whose telemetry.traceparent is malformed", {
  permissions: "none",
}, () => {
  const frame = (traceparent: string) =>
    new TextEncoder().encode(JSON.stringify({
      v: 1,
      id: "0123456789abcdef0123456789abcdef",
      kind: "memory.claude_session_completed",
      payload: { session_id: "s", captured_at_ns: 1 },
      telemetry: {
        hook_kind: "stop",
        started_at_ns: 1,
        ended_at_ns: 2,
        outcome: "ok",
        redactions: {},
        traceparent,
      },
    }));
  assert.equal(parseFrameBody(frame(VALID)).telemetry.traceparent, VALID);
  assert.throws(() => parseFrameBody(frame("01-x")), /telemetry\.traceparent/);
});

function otelEnv(receiver: OtlpReceiver): Record<string, string> {
  return {
    OTEL_DENO: "true",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_METRIC_EXPORT_INTERVAL: "500",
  };
}

async function hookSpans(receiver: OtlpReceiver, count: number): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const spans = receiver.spans().filter((s) => s.name === HOOK_SPAN_NAME);
    if (spans.length >= count) return spans;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${count} hook spans`);
}

Deno.test("hook with TRACEPARENT: its span is a child of Claude Code's span and links the session trace; malformed values change nothing", async () => {
  const receiver = startOtlpReceiver();
  let daemon: TestDaemon | undefined;
  try {
    daemon = await startTestDaemon({ env: otelEnv(receiver), otlpHost: receiver.host });
    const stop = await fixture("stop_without_last_assistant_message");
    const joined = await runHook(daemon, "stop", stop, { env: { TRACEPARENT: VALID } });
    assert.deepEqual([joined.code, joined.stdout, joined.stderr], [0, "", ""]);
    for (const [what, value] of MALFORMED) {
      const run = await runHook(daemon, "stop", stop, { env: { TRACEPARENT: value } });
      assert.deepEqual([run.code, run.stdout, run.stderr], [0, "", ""], what);
    }
    const rows = await waitForRows(daemon.db, 1 + MALFORMED.length);
    const sessionTrace = String(rows[0]!.payload.trace_id);
    assert.notEqual(sessionTrace, CLAUDE_TRACE);
    assert.ok(rows.every((row) => row.payload.trace_id === sessionTrace), "rows keep our trace");

    const spans = await hookSpans(receiver, 1 + MALFORMED.length);
    const inClaude = spans.filter((s) => s.traceId === CLAUDE_TRACE);
    assert.equal(inClaude.length, 1);
    assert.equal(inClaude[0]!.parentSpanId, CLAUDE_SPAN);
    assert.deepEqual(
      inClaude[0]!.links.map((l) => [l.traceId, l.spanId]),
      [[sessionTrace, sessionSpanId(sessionTrace)]],
    );
    const asBefore = spans.filter((s) => s.traceId === sessionTrace);
    assert.equal(asBefore.length, MALFORMED.length);
    for (const span of asBefore) {
      assert.equal(span.parentSpanId, sessionSpanId(sessionTrace));
      assert.deepEqual(span.links, []);
    }
  } finally {
    await daemon?.stop();
    await receiver.stop();
  }
});

Deno.test("claude -p with its own tracing and TRACEPARENT propagation: every hook span of a turn sits under that turn's interaction span", async () => {
  await ensureClaudeCli();
  for (const propagate of [true, false]) {
    const receiver = startOtlpReceiver();
    try {
      const claudeEnv: Record<string, string> = propagate
        ? {
          CLAUDE_CODE_ENABLE_TELEMETRY: "1",
          CLAUDE_CODE_ENHANCED_TELEMETRY_BETA: "1",
          CLAUDE_CODE_PROPAGATE_TRACEPARENT: "1",
          OTEL_TRACES_EXPORTER: "otlp",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_TRACES_EXPORT_INTERVAL: "500",
        }
        : {};
      const sessionId = crypto.randomUUID();
      const result = await runScenario({
        turns: () => [
          {
            sessionId,
            prompt: `First.\n${
              scriptBlock([[{ tool: "Bash", input: { command: "true" } }], [{ text: "One." }]])
            }`,
          },
          { resume: sessionId, prompt: `Second.\n${scriptBlock([[{ text: "Two." }]])}` },
        ],
        expectedRows: 5,
        claudeEnv,
        daemon: { env: otelEnv(receiver), otlpHost: receiver.host },
      });
      const turnKinds = ["userpromptsubmit", "posttooluse", "posttoolusefailure", "stop"];
      const turnRows = result.rows.filter((row) => lifecycleSpecOfKind(row.kind) === undefined);
      assert.equal(turnRows.length, 5, result.daemonStderr);
      const sessionTrace = String(result.rows[0]!.payload.trace_id);
      // The turns' own hooks; lifecycle hooks (SessionStart, SessionEnd…) run outside a turn.
      const ours = (await hookSpans(receiver, result.rows.length)).filter((s) =>
        turnKinds.includes(String(s.attributes.hook_kind))
      );
      assert.equal(ours.length, 5);
      if (!propagate) {
        assert.ok(ours.every((s) => s.traceId === sessionTrace), "without the variables, as today");
        assert.ok(ours.every((s) => s.parentSpanId === sessionSpanId(sessionTrace)));
        continue;
      }
      const interactions = await waitFor(() => {
        const found = receiver.spans().filter((s) => s.name === "claude_code.interaction");
        return found.length >= 2 ? found : undefined;
      });
      const byId = new Map(interactions.map((s) => [s.spanId, s]));
      for (const span of ours) {
        const parent = byId.get(span.parentSpanId);
        assert.ok(parent, `hook span ${span.attributes.hook_kind} has an interaction parent`);
        assert.equal(span.traceId, parent.traceId);
        assert.deepEqual(
          span.links.map((l) => [l.traceId, l.spanId]),
          [[sessionTrace, sessionSpanId(sessionTrace)]],
        );
      }
      // One turn, one interaction: the first turn's prompt, tool and stop share a parent.
      const parents = new Set(ours.map((s) => s.parentSpanId));
      assert.equal(parents.size, 2, "two turns, two interaction spans");
    } finally {
      await receiver.stop();
    }
  }
});

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("timed out waiting for Claude Code's interaction spans");
}
