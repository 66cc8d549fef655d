/**
 * OpenTelemetry export of the daemon's events, loaded by `daemon/main.ts` only
 * when `OTEL_DENO=true` (the launcher sets it only when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set). Deno's built-in OTLP exporter backs
 * `npm:@opentelemetry/api` and sends from its own threads, so a collector that
 * is down or hangs never blocks capture; this module only records.
 *
 * Each hook run becomes one `memory.claude.hook` span with the hook's own start
 * and end times, in the session's trace (`trace_id` from the row), under one
 * synthetic parent span id per session. Hooks are short-lived, so the daemon
 * keeps their counters: `memory_claude_hook_*`; the daemon's own are
 * `memory_capture_*` (see {@linkcode METRIC_NAMES}).
 *
 * @module
 */

import {
  type Attributes,
  context,
  type Counter,
  type Histogram,
  type HrTime,
  type Link,
  metrics,
  type SpanContext,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from "@opentelemetry/api";
import type { Frame } from "../lib/frame.ts";
import { isHex32 } from "../lib/ids.ts";
import { parseTraceparent } from "../lib/traceparent.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import type { Outcome } from "../lib/outcomes.ts";
import { armExitWatchdog } from "./_exit_watchdog.ts";
import { log, logLine } from "./_log.ts";
import type { Telemetry } from "./_telemetry.ts";

/** The instrumentation scope name of every span and metric. */
export const SCOPE_NAME = "cyberos-memory-capture";

/** The name of the span each hook run becomes. */
export const HOOK_SPAN_NAME = "memory.claude.hook";

/**
 * The name of the span a session becomes when it ends (its `SessionEnd` row):
 * from the session's first row to its end, in the session's trace.
 */
export const SESSION_SPAN_NAME = "memory.claude.session";

/** Every metric this module exports, by role. */
export const METRIC_NAMES = {
  /** Counter `{hook_kind, outcome}`: hook runs the daemon learned of. */
  hookTotal: "memory_claude_hook_total",
  /** Histogram `{hook_kind}`, seconds: a hook's own run time, process start to frame ready. */
  hookDuration: "memory_claude_hook_duration_seconds",
  /** Counter `{pattern}`: secrets replaced, per redaction rule id. */
  hookRedactions: "memory_claude_hook_redactions_total",
  /** Counter: rows appended to the chain. */
  rowsAppended: "memory_capture_rows_appended_total",
  /** Counter `{reason}`: frames rejected (`oversize`, `bad_json`, `bad_shape`, `bad_row`, …). */
  framesRejected: "memory_capture_frames_rejected_total",
  /** Counter `{reason}`: frames moved to the quarantine folder (`bad_shape`, `bad_row`, `store_refused`, …). */
  framesQuarantined: "memory_capture_frames_quarantined_total",
  /** Histogram, seconds: one group commit. */
  commitDuration: "memory_capture_commit_duration_seconds",
  /** Gauge: files in the hook's spool after the last drain. */
  spoolDepth: "memory_capture_spool_depth",
} as const;

/** Bucket bounds (seconds) for hook runs: the hook's budget is 50 ms p95. */
const HOOK_BUCKETS = [0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5];
/** Bucket bounds (seconds) for group commits. */
const COMMIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

const INVALID_SPAN_ID = "0000000000000000";

/** Options for {@linkcode otelTelemetry}. */
export interface OtelTelemetryOptions {
  /**
   * The OTLP/HTTP base URL, probed on shutdown.
   *
   * @default {Deno.env.get("OTEL_EXPORTER_OTLP_ENDPOINT")}
   */
  endpoint?: string;
  /**
   * How long shutdown may wait for the collector to answer before giving up
   * on the final flush.
   *
   * @default {2000}
   */
  shutdownBudgetMs?: number;
  /**
   * How long the exit may take once the collector answered: Deno's final
   * flush can block past it, and a watchdog then ends the process.
   *
   * @default {3000}
   */
  exitBudgetMs?: number;
}

/**
 * The parent span id that groups a session's hook spans: the trace id's low
 * half, so every hook of one session shares it without any state. No span
 * with this id is ever sent; backends show the hook spans as siblings under a
 * missing root (the session).
 */
export function sessionSpanId(traceId: string): string {
  const low = traceId.slice(16);
  return low === INVALID_SPAN_ID ? "0000000000000001" : low;
}

/** Nanoseconds since the epoch as OpenTelemetry's `[seconds, nanoseconds]`. */
export function hrTimeOf(ns: number): HrTime {
  const whole = BigInt(Math.max(0, Math.round(ns)));
  return [Number(whole / 1_000_000_000n), Number(whole % 1_000_000_000n)];
}

/**
 * The outcome a hook run is counted under: the spool's word when it never
 * reached the socket, else what the hook itself reported (`redaction_failed`
 * arrives over the socket as `ok`).
 */
export function effectiveOutcome(frame: Frame, outcome: Outcome): Outcome {
  return outcome !== "ok" ? outcome : frame.telemetry.outcome;
}

/** The attributes of a hook run's span. */
export function hookSpanAttributes(frame: Frame, outcome: Outcome): Attributes {
  const { hook_kind, started_at_ns, ended_at_ns, redactions } = frame.telemetry;
  const matches = Object.values(redactions).reduce((sum, n) => sum + n, 0);
  return {
    hook_kind,
    session_id: String(frame.payload.session_id),
    duration_ms: Math.max(0, ended_at_ns - started_at_ns) / 1e6,
    redaction_match_count: matches,
    outcome: effectiveOutcome(frame, outcome),
  };
}

interface Instruments {
  tracer: Tracer;
  hookTotal: Counter;
  hookDuration: Histogram;
  hookRedactions: Counter;
  rowsAppended: Counter;
  framesRejected: Counter;
  framesQuarantined: Counter;
  commitDuration: Histogram;
}

function createInstruments(onSpoolDepth: () => number | undefined): Instruments {
  const meter = metrics.getMeter(SCOPE_NAME);
  meter.createObservableGauge(METRIC_NAMES.spoolDepth, {
    description: "Files in the hook's spool after the last drain",
    unit: "{file}",
  }).addCallback((result) => {
    const depth = onSpoolDepth();
    if (depth !== undefined) result.observe(depth);
  });
  return {
    tracer: trace.getTracer(SCOPE_NAME),
    hookTotal: meter.createCounter(METRIC_NAMES.hookTotal, {
      description: "Hook runs the daemon learned of, by hook kind and outcome",
      unit: "{run}",
    }),
    hookDuration: meter.createHistogram(METRIC_NAMES.hookDuration, {
      description: "A hook's own run time, from process start to frame ready",
      unit: "s",
      advice: { explicitBucketBoundaries: HOOK_BUCKETS },
    }),
    hookRedactions: meter.createCounter(METRIC_NAMES.hookRedactions, {
      description: "Secrets replaced by the hooks, per redaction rule",
      unit: "{match}",
    }),
    rowsAppended: meter.createCounter(METRIC_NAMES.rowsAppended, {
      description: "Rows appended to the hash chain",
      unit: "{row}",
    }),
    framesRejected: meter.createCounter(METRIC_NAMES.framesRejected, {
      description: "Frames rejected, by reason",
      unit: "{frame}",
    }),
    framesQuarantined: meter.createCounter(METRIC_NAMES.framesQuarantined, {
      description: "Frames the store could not take, moved to the quarantine folder, by reason",
      unit: "{frame}",
    }),
    commitDuration: meter.createHistogram(METRIC_NAMES.commitDuration, {
      description: "One group commit to the store",
      unit: "s",
      advice: { explicitBucketBoundaries: COMMIT_BUCKETS },
    }),
  };
}

/** The synthetic session parent of a session's hook spans, as a remote span context. */
function sessionSpanContext(traceId: string): SpanContext {
  return {
    traceId,
    spanId: sessionSpanId(traceId),
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  };
}

/**
 * Where a hook run's span goes. With Claude Code's `traceparent`, under the
 * turn's interaction span in Claude Code's own trace, linked to our session
 * trace (the row's `trace_id` stays the session's); without it, under the
 * session's synthetic parent, as before.
 */
export function hookSpanPlacement(frame: Frame): { parent?: SpanContext; links: Link[] } {
  const traceId = frame.payload.trace_id;
  const session = typeof traceId === "string" && isHex32(traceId)
    ? sessionSpanContext(traceId)
    : undefined;
  const claude = parseTraceparent(frame.telemetry.traceparent);
  if (claude === undefined) return { ...(session ? { parent: session } : {}), links: [] };
  return {
    parent: {
      traceId: claude.traceId,
      spanId: claude.spanId,
      traceFlags: claude.flags & TraceFlags.SAMPLED,
      isRemote: true,
    },
    links: session ? [{ context: session, attributes: { "link.kind": "session" } }] : [],
  };
}

/**
 * The session span of a `SessionEnd` row: start and end from the row's
 * `duration_ms` (since the session's first row) and `captured_at_ns`, the
 * totals as attributes. `undefined` for any other row.
 */
export function sessionSpanOf(
  frame: Frame,
  row: Record<string, unknown>,
): { start: number; end: number; attributes: Attributes; parent: SpanContext } | undefined {
  if (frame.kind !== ROW_KINDS.sessionEnded) return undefined;
  const traceId = row.trace_id;
  const end = Number(row.captured_at_ns);
  const duration = Number(row.duration_ms);
  if (typeof traceId !== "string" || !isHex32(traceId) || !Number.isFinite(end)) return undefined;
  return {
    start: end - (Number.isFinite(duration) ? duration : 0) * 1e6,
    end,
    parent: sessionSpanContext(traceId),
    attributes: {
      session_id: String(row.session_id),
      reason: String(row.reason ?? ""),
      prompt_count: Number(row.prompt_count ?? 0),
      tool_use_count: Number(row.tool_use_count ?? 0),
      duration_ms: Number.isFinite(duration) ? duration : 0,
    },
  };
}

function recordSession(
  instruments: Instruments,
  frame: Frame,
  row: Record<string, unknown>,
): void {
  const session = sessionSpanOf(frame, row);
  if (session === undefined) return;
  instruments.tracer.startSpan(
    SESSION_SPAN_NAME,
    { startTime: hrTimeOf(session.start), attributes: session.attributes },
    trace.setSpanContext(context.active(), session.parent),
  ).end(hrTimeOf(session.end));
}

function recordHookRun(instruments: Instruments, frame: Frame, outcome: Outcome): void {
  const attributes = hookSpanAttributes(frame, outcome);
  const hookKind = frame.telemetry.hook_kind;
  const final = attributes.outcome as Outcome;
  const { parent, links } = hookSpanPlacement(frame);
  const span = instruments.tracer.startSpan(
    HOOK_SPAN_NAME,
    { startTime: hrTimeOf(frame.telemetry.started_at_ns), attributes, links },
    parent ? trace.setSpanContext(context.active(), parent) : context.active(),
  );
  if (final !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: final });
  span.end(hrTimeOf(Math.max(frame.telemetry.ended_at_ns, frame.telemetry.started_at_ns)));
  instruments.hookTotal.add(1, { hook_kind: hookKind, outcome: final });
  instruments.hookDuration.record((attributes.duration_ms as number) / 1000, {
    hook_kind: hookKind,
  });
  for (const [pattern, count] of Object.entries(frame.telemetry.redactions)) {
    if (count > 0) instruments.hookRedactions.add(count, { pattern });
  }
}

/** Whether the collector answers anything on `endpoint` within `budgetMs`. */
async function collectorAnswers(endpoint: string, budgetMs: number): Promise<boolean> {
  let url: URL;
  try {
    url = new URL("v1/traces", endpoint.endsWith("/") ? endpoint : `${endpoint}/`);
  } catch {
    return true; // Nothing to probe; Deno's exporter gave up on it already.
  }
  const secure = url.protocol === "https:";
  const port = Number(url.port || (secure ? 443 : 80));
  let conn: Deno.Conn | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), budgetMs);
  });
  const probe = (async (): Promise<"answered" | "refused"> => {
    try {
      conn = secure
        ? await Deno.connectTls({ hostname: url.hostname, port })
        : await Deno.connect({ hostname: url.hostname, port });
    } catch {
      return "refused"; // Exports fail fast too: nothing would hang.
    }
    const request =
      `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(request));
    const n = await conn.read(new Uint8Array(16));
    return n === null ? "refused" : "answered";
  })().catch(() => "refused" as const);
  try {
    return (await Promise.race([probe, timeout])) !== "timeout";
  } finally {
    clearTimeout(timer);
    try {
      conn?.close();
    } catch {
      // Closed already.
    }
  }
}

/**
 * The recorder backed by Deno's OTLP exporter. Every method swallows its own
 * errors: telemetry never fails a commit.
 *
 * `shutdown()` is bounded: Deno flushes everything it holds when the process
 * exits, quickly when the collector answers or refuses, but `Deno.exit()`
 * blocks without limit on a collector that accepts and never answers (Deno
 * 2.9; its export timeout does not apply there). So shutdown probes the
 * collector within `shutdownBudgetMs`; when it does not answer, what is held
 * cannot be delivered, and the process ends itself with SIGKILL (the store is
 * already closed by then) instead of hanging. When it does answer, the flush
 * may still block (a collector that answers the probe and holds the exports,
 * or Deno's own hang), so a watchdog ends the process after `exitBudgetMs`.
 */
export function otelTelemetry(options: OtelTelemetryOptions = {}): Telemetry {
  const {
    endpoint = Deno.env.get("OTEL_EXPORTER_OTLP_ENDPOINT"),
    shutdownBudgetMs = 2000,
    exitBudgetMs = 3000,
  } = options;
  let depth: number | undefined;
  const instruments = createInstruments(() => depth);
  const guard = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (error) {
      log("WARN", `telemetry: ${what} not recorded: ${(error as Error).message}`);
    }
  };
  return {
    hookRun(frame, outcome, row) {
      guard("hook run", () => recordHookRun(instruments, frame, outcome));
      guard("session", () => recordSession(instruments, frame, row));
    },
    committed(rows, ms) {
      guard("commit", () => {
        if (rows > 0) instruments.rowsAppended.add(rows);
        instruments.commitDuration.record(ms / 1000);
      });
    },
    rejected(reason) {
      guard("rejection", () => instruments.framesRejected.add(1, { reason }));
    },
    quarantined(reason) {
      guard("quarantine", () => instruments.framesQuarantined.add(1, { reason }));
    },
    spoolDepth(files) {
      depth = files;
    },
    async shutdown() {
      if (endpoint === undefined || endpoint === "") return;
      if (await collectorAnswers(endpoint, shutdownBudgetMs)) {
        // It answered; the flush in `Deno.exit()` may block all the same (Deno 2.9).
        armExitWatchdog({
          budgetMs: exitBudgetMs,
          line: logLine(
            "WARN",
            `telemetry: the final flush to ${endpoint} did not finish within ${exitBudgetMs} ms; exiting without it`,
          ),
        });
        return;
      }
      log(
        "WARN",
        `telemetry: the collector at ${endpoint} did not answer within ${shutdownBudgetMs} ms; exiting without the final flush`,
      );
      Deno.kill(Deno.pid, "SIGKILL");
    },
  };
}
