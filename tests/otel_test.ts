/**
 * OpenTelemetry export end to end: real hooks, a real daemon started with the
 * launcher's flags and the OTel environment, and a real OTLP/HTTP receiver on
 * 127.0.0.1 that decodes what Deno's exporter sends.
 *
 * @module
 */

import assert from "node:assert/strict";
import { HOOK_SPAN_NAME, METRIC_NAMES, sessionSpanId } from "../daemon/_otel.ts";
import {
  exitsWithin,
  fixture,
  runHook,
  startTestDaemon,
  type TestDaemon,
  waitForRows,
} from "./_daemon.ts";
import { type OtlpReceiver, startOtlpReceiver } from "./_otlp_receiver.ts";

const SERVICE = "cyberos-memory-capture-test";
const AWS_KEY = "AKIAZ7QH3KX2M4PLW9RT";
const GITHUB_TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";

/** The scripted session: [fixture, event, outcome the counters must show]. */
const SESSION: Array<[name: string, event: string]> = [
  ["post_tool_use_bash", "posttooluse"],
  ["post_tool_use_failure_bash", "posttoolusefailure"],
  ["post_tool_use_edit", "posttooluse"],
  ["stop_with_last_assistant_message", "stop"],
];

function otelEnv(receiver: OtlpReceiver, protocol = "http/json"): Record<string, string> {
  return {
    OTEL_DENO: "true",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_METRIC_EXPORT_INTERVAL: "500",
    OTEL_SERVICE_NAME: SERVICE,
  };
}

async function until<T>(
  what: string,
  probe: () => T | undefined,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function secretPrompt(): Promise<string> {
  const payload = JSON.parse(await fixture("user_prompt_submit"));
  payload.prompt = `Deploy with key ${AWS_KEY} and push with ${GITHUB_TOKEN}, then run the tests.`;
  return JSON.stringify(payload);
}

async function sendGarbageFrame(socket: string): Promise<void> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  const body = new TextEncoder().encode("{not json");
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setUint32(0, body.length);
  frame.set(body, 4);
  await conn.write(frame);
  conn.close();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

Deno.test("otelTelemetry(): a scripted session gives one memory.claude.hook span per hook in the session's trace, and the counters", async () => {
  const receiver = startOtlpReceiver();
  const dir = await Deno.makeTempDir({ prefix: "cyberos-otel-" });
  let daemon: TestDaemon | undefined;
  try {
    // The first prompt runs while the daemon is down: spooled as socket_unavailable.
    const paths = { socket: `${dir}/capture.sock`, traceDir: `${dir}/traces` };
    const down = await runHook(paths, "userpromptsubmit", await fixture("user_prompt_submit"));
    assert.match(down.stderr, /WARN socket_unavailable/);
    daemon = await startTestDaemon({ dir, env: otelEnv(receiver), otlpHost: receiver.host });
    const prompt = await runHook(daemon, "userpromptsubmit", await secretPrompt());
    assert.equal(prompt.stderr, "");
    for (const [name, event] of SESSION) {
      const run = await runHook(daemon, event, await fixture(name));
      assert.equal(run.stderr, "", `${name}: ${run.stderr}`);
    }
    await sendGarbageFrame(daemon.socket);
    const rows = await waitForRows(daemon.db, 2 + SESSION.length);
    // Spans are exported while the daemon runs, not only at exit.
    await until("six hook spans", () => {
      const spans = receiver.spans().filter((s) => s.name === HOOK_SPAN_NAME);
      return spans.length >= 6 ? spans : undefined;
    });
    await daemon.stop({ keep: true });
    daemon = undefined;

    const spans = receiver.spans().filter((s) => s.name === HOOK_SPAN_NAME);
    assert.equal(spans.length, 6);
    const traceId = String(rows[0]!.payload.trace_id);
    assert.ok(rows.every((row) => row.payload.trace_id === traceId));
    assert.ok(spans.every((s) => s.traceId === traceId), "all spans in the session's trace");
    assert.ok(spans.every((s) => s.parentSpanId === sessionSpanId(traceId)));
    assert.equal(new Set(spans.map((s) => s.spanId)).size, 6);
    assert.ok(spans.every((s) => s.resource["service.name"] === SERVICE));
    const sessionId = String(rows[0]!.payload.session_id);
    for (const span of spans) {
      assert.equal(span.attributes.session_id, sessionId);
      const ms = Number(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6;
      assert.ok(Math.abs((span.attributes.duration_ms as number) - ms) < 0.01, `${ms} ms`);
      assert.ok(ms > 0 && ms < 5000, `${ms} ms`);
    }
    // The real times: each row was captured inside its hook's span.
    for (const row of rows) {
      const at = BigInt(row.payload.captured_at_ns as number);
      const around = spans.filter((s) =>
        s.startTimeUnixNano - 1000n <= at && at <= s.endTimeUnixNano + 1000n
      );
      assert.equal(around.length, 1, `row ${row.seq} inside exactly one span`);
    }
    const byKind = (kind: string) => spans.filter((s) => s.attributes.hook_kind === kind);
    assert.equal(byKind("userpromptsubmit").length, 2);
    assert.equal(byKind("posttooluse").length, 2);
    assert.equal(byKind("posttoolusefailure").length, 1);
    assert.equal(byKind("stop").length, 1);
    const outcomes = spans.map((s) => s.attributes.outcome).sort();
    assert.deepEqual(outcomes, ["ok", "ok", "ok", "ok", "ok", "socket_unavailable"]);
    const unavailable = spans.find((s) => s.attributes.outcome === "socket_unavailable")!;
    assert.equal(unavailable.statusCode, 2);
    const secretSpan = byKind("userpromptsubmit").find((s) => s.attributes.outcome === "ok")!;
    assert.equal(secretSpan.attributes.redaction_match_count, 2);
    const secretRow = rows.find((r) => String(r.payload.prompt_redacted).includes("<AWS_KEY>"))!;
    assert.equal(secretRow.payload.redaction_match_count, 2);

    const hookTotal = (hook_kind: string, outcome: string) =>
      receiver.latest(METRIC_NAMES.hookTotal, { hook_kind, outcome });
    assert.equal(hookTotal("userpromptsubmit", "socket_unavailable"), 1);
    assert.equal(hookTotal("userpromptsubmit", "ok"), 1);
    assert.equal(hookTotal("posttooluse", "ok"), 2);
    assert.equal(hookTotal("posttoolusefailure", "ok"), 1);
    assert.equal(hookTotal("stop", "ok"), 1);
    assert.equal(receiver.latest(METRIC_NAMES.hookTotal), 6);
    assert.equal(receiver.latest(METRIC_NAMES.hookDuration, { hook_kind: "posttooluse" }), 2);
    assert.equal(receiver.latest(METRIC_NAMES.hookDuration), 6);
    const duration = receiver.points().find((p) => p.name === METRIC_NAMES.hookDuration)!;
    assert.equal(duration.unit, "s");
    assert.ok(duration.bounds?.includes(0.05), `buckets ${duration.bounds}`);
    const redactions = (pattern: string) =>
      receiver.latest(METRIC_NAMES.hookRedactions, { pattern });
    assert.equal(redactions("aws_access_key"), 1);
    assert.equal(redactions("github_pat"), 1);
    assert.equal(receiver.latest(METRIC_NAMES.rowsAppended), 6);
    assert.equal(receiver.latest(METRIC_NAMES.framesRejected, { reason: "bad_json" }), 1);
    assert.ok((receiver.latest(METRIC_NAMES.commitDuration) ?? 0) >= 1);
    assert.equal(receiver.latest(METRIC_NAMES.spoolDepth), 0);
  } finally {
    await daemon?.stop({ keep: true });
    await receiver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("otelTelemetry(): http/protobuf sends application/x-protobuf to /v1/traces and /v1/metrics", async () => {
  const receiver = startOtlpReceiver();
  const daemon = await startTestDaemon({
    env: otelEnv(receiver, "http/protobuf"),
    otlpHost: receiver.host,
  });
  try {
    await runHook(daemon, "userpromptsubmit", await fixture("user_prompt_submit"));
    const [row] = await waitForRows(daemon.db, 1);
    await daemon.stop();
    const posts = receiver.requests.filter((r) => r.method === "POST");
    const traces = posts.filter((r) => r.path === "/v1/traces");
    const metrics = posts.filter((r) => r.path === "/v1/metrics");
    assert.ok(traces.length > 0 && metrics.length > 0);
    for (const request of [...traces, ...metrics]) {
      assert.equal(request.contentType, "application/x-protobuf");
    }
    // The span carries the session's trace id as its 16 raw bytes, and its name.
    const traceId = String(row!.payload.trace_id);
    const raw = Uint8Array.from(traceId.match(/../g)!.map((byte) => parseInt(byte, 16)));
    const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16)).join(",");
    const all = traces.map((r) => r.body);
    assert.ok(all.some((body) => hex(body).includes(hex(raw))), "trace id bytes in a span");
    const name = new TextDecoder().decode(all.find((b) => hex(b).includes(hex(raw))));
    assert.ok(name.includes(HOOK_SPAN_NAME));
    const metricText = metrics.map((r) => new TextDecoder().decode(r.body)).join("");
    assert.ok(metricText.includes(METRIC_NAMES.hookTotal));
  } finally {
    await daemon.stop().catch(() => {});
    await receiver.stop();
  }
});

Deno.test("otelTelemetry(): no endpoint, or a collector that never answers, leaves capture and hook latency unchanged; SIGTERM exits in bounded time", async () => {
  const hung = startOtlpReceiver({ hang: true });
  const plain = await startTestDaemon();
  const hanging = await startTestDaemon({ env: otelEnv(hung), otlpHost: hung.host });
  const runs = 15;
  try {
    const input = await fixture("post_tool_use_bash");
    await runHook(plain, "posttooluse", input); // Warm the module cache.
    await runHook(hanging, "posttooluse", input);
    const plainMs: number[] = [];
    const hangingMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Side by side, alternating, so both see the same machine noise.
      plainMs.push((await runHook(plain, "posttooluse", input)).ms);
      hangingMs.push((await runHook(hanging, "posttooluse", input)).ms);
    }
    const [withoutRows, withRows] = await Promise.all([
      waitForRows(plain.db, runs + 1),
      waitForRows(hanging.db, runs + 1),
    ]);
    assert.equal(withoutRows.length, runs + 1);
    assert.equal(withRows.length, runs + 1);
    await until(
      "the exporter to reach the hung collector",
      () => hung.connections() > 0 ? true : undefined,
    );
    const ratio = median(hangingMs) / median(plainMs);
    console.log(
      `hook median: no endpoint ${median(plainMs).toFixed(1)} ms, hung collector ${
        median(hangingMs).toFixed(1)
      } ms (ratio ${ratio.toFixed(2)}, ${runs} runs each)`,
    );
    assert.ok(ratio < 1.5, `hung collector slows the hook: ratio ${ratio.toFixed(2)}`);

    const started = performance.now();
    hanging.process.kill("SIGTERM");
    const status = await hanging.process.status;
    const exitMs = performance.now() - started;
    console.log(`SIGTERM to exit with a hung collector: ${exitMs.toFixed(0)} ms`);
    assert.ok(exitMs < 8000, `exit took ${exitMs} ms`);
    assert.match(hanging.stderr(), /did not answer within 2000 ms/);
    assert.equal(status.success, false); // Ended by SIGKILL: nothing could be delivered.
    assert.equal((await waitForRows(hanging.db, runs + 1)).length, runs + 1, "store intact");
  } finally {
    await plain.stop();
    await hanging.stop();
    await hung.stop();
  }
});

Deno.test("otelTelemetry(): a collector that answers the shutdown probe and holds the exports; SIGTERM still exits in bounded time, the store intact", async () => {
  const holding = startOtlpReceiver({ holdExports: true });
  const daemon = await startTestDaemon({ env: otelEnv(holding), otlpHost: holding.host });
  try {
    await runHook(daemon, "posttooluse", await fixture("post_tool_use_bash"));
    assert.equal((await waitForRows(daemon.db, 1)).length, 1);
    await until(
      "the exporter to reach the collector",
      () => holding.connections() > 0 || undefined,
    );
    const started = performance.now();
    daemon.process.kill("SIGTERM");
    assert.ok(await exitsWithin(daemon.process, 8000), "no exit within 8 s of SIGTERM");
    const status = await daemon.process.status;
    const exitMs = performance.now() - started;
    console.log(`SIGTERM to exit with a collector holding the exports: ${exitMs.toFixed(0)} ms`);
    assert.match(daemon.stderr(), /final flush to \S+ did not finish within 3000 ms/);
    assert.equal(status.success, false); // Ended by the watchdog's SIGKILL.
    assert.equal((await waitForRows(daemon.db, 1)).length, 1, "store intact");
  } finally {
    await daemon.stop();
    await holding.stop();
  }
});
