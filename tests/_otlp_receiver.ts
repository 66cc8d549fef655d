/**
 * A real OTLP/HTTP receiver for tests, on 127.0.0.1 and a free port. It keeps
 * every request by path (`/v1/traces`, `/v1/metrics`, `/v1/logs`) with its
 * content type and bytes, and decodes `http/json` bodies into flat spans,
 * metric points and log records (the daemon's export, and Claude Code's own
 * events for the latency bench). Started with `{ hang: true }` it accepts connections, reads
 * what is sent and never answers: the collector that hangs; with `{ holdExports: true }` it
 * answers the daemon's shutdown probe and holds the exports.
 *
 * @module
 */

import { type AnyValue, flatten, type KeyValue, unwrap } from "./_otlp_json.ts";

/** One request as received. */
export interface OtlpRequest {
  /** `POST` for exports (the daemon probes with `GET` on shutdown). */
  method: string;
  /** The URL path, e.g. `/v1/traces`. */
  path: string;
  /** The `content-type` header. */
  contentType: string;
  /** The raw body. */
  body: Uint8Array;
  /** The parsed body when it is JSON. */
  json: unknown;
}

/** A span, its attributes unwrapped. */
export interface ReceivedSpan {
  /** 32 hex. */
  traceId: string;
  /** 16 hex. */
  spanId: string;
  /** 16 hex, or empty. */
  parentSpanId: string;
  /** The span name. */
  name: string;
  /** Nanoseconds since the epoch. */
  startTimeUnixNano: bigint;
  /** Nanoseconds since the epoch. */
  endTimeUnixNano: bigint;
  /** Span attributes. */
  attributes: Record<string, unknown>;
  /** The status code (0 unset, 1 ok, 2 error). */
  statusCode: number;
  /** The resource's attributes (`service.name`, …). */
  resource: Record<string, unknown>;
  /** The span's links: the linked span's ids and the link's attributes. */
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
}

/** One metric data point, attributes unwrapped. */
export interface ReceivedPoint {
  /** The metric name. */
  name: string;
  /** `sum`, `gauge` or `histogram`. */
  type: "sum" | "gauge" | "histogram";
  /** The point's attributes. */
  attributes: Record<string, unknown>;
  /** The value of a sum or gauge; the count of a histogram. */
  value: number;
  /** A histogram's sum. */
  sum?: number;
  /** A histogram's bucket bounds. */
  bounds?: number[];
  /** When the point was taken, ns. */
  timeUnixNano: bigint;
  /** The metric's unit. */
  unit: string;
}

/** One log record, its attributes flattened to plain values. */
export interface OtlpLogRecord {
  /** The record's body when it is a string (Claude Code puts `claude_code.<event>` there). */
  body: string | undefined;
  /** The record's attributes, merged with its resource's, values unwrapped from OTLP's AnyValue. */
  attributes: Record<string, unknown>;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string;
  /** `127.0.0.1:<port>`, for `--allow-net`. */
  host: string;
  /** Every request so far, in arrival order (none when hanging: nothing completes). */
  requests: OtlpRequest[];
  /** Connections accepted so far. */
  connections(): number;
  /** Every span in the JSON trace requests so far. */
  spans(): ReceivedSpan[];
  /** Every metric point in the JSON metric requests so far, in arrival order. */
  points(): ReceivedPoint[];
  /** Every log record in the JSON log requests so far, in arrival order. */
  logs(): OtlpLogRecord[];
  /**
   * The latest value of a cumulative sum, gauge or histogram count whose
   * attributes include `attributes`, summed over matching series; undefined
   * when never seen.
   */
  latest(name: string, attributes?: Record<string, unknown>): number | undefined;
  /** Stops the receiver and drops its connections. */
  stop(): Promise<void>;
}

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: KeyValue[];
  status?: { code?: number };
  links?: { traceId: string; spanId: string; attributes?: KeyValue[] }[];
}

/** Flattens an `ExportTraceServiceRequest` JSON body. */
export function parseTracesRequest(body: unknown): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  const resourceSpans = (body as { resourceSpans?: unknown[] } | undefined)?.resourceSpans ?? [];
  for (
    const rs of resourceSpans as {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: { spans?: JsonSpan[] }[];
    }[]
  ) {
    const resource = flatten(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? "",
          name: span.name,
          startTimeUnixNano: BigInt(span.startTimeUnixNano),
          endTimeUnixNano: BigInt(span.endTimeUnixNano),
          attributes: flatten(span.attributes),
          statusCode: span.status?.code ?? 0,
          resource,
          links: (span.links ?? []).map((link) => ({
            traceId: link.traceId,
            spanId: link.spanId,
            attributes: flatten(link.attributes),
          })),
        });
      }
    }
  }
  return out;
}

interface JsonPoint {
  attributes?: KeyValue[];
  timeUnixNano?: string;
  asDouble?: number;
  asInt?: string | number;
  count?: string | number;
  sum?: number;
  explicitBounds?: number[];
}

interface JsonMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints?: JsonPoint[] };
  gauge?: { dataPoints?: JsonPoint[] };
  histogram?: { dataPoints?: JsonPoint[] };
}

/** Flattens an `ExportMetricsServiceRequest` JSON body. */
export function parseMetricsRequest(body: unknown): ReceivedPoint[] {
  const out: ReceivedPoint[] = [];
  const resourceMetrics = (body as { resourceMetrics?: unknown[] } | undefined)?.resourceMetrics ??
    [];
  for (const rm of resourceMetrics as { scopeMetrics?: { metrics?: JsonMetric[] }[] }[]) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const metric of sm.metrics ?? []) {
        for (const type of ["sum", "gauge", "histogram"] as const) {
          for (const point of metric[type]?.dataPoints ?? []) {
            const value = type === "histogram"
              ? Number(point.count ?? 0)
              : Number(point.asDouble ?? point.asInt ?? 0);
            out.push({
              name: metric.name,
              type,
              attributes: flatten(point.attributes),
              value,
              ...(point.sum !== undefined ? { sum: point.sum } : {}),
              ...(point.explicitBounds !== undefined ? { bounds: point.explicitBounds } : {}),
              timeUnixNano: BigInt(point.timeUnixNano ?? "0"),
              unit: metric.unit ?? "",
            });
          }
        }
      }
    }
  }
  return out;
}

/** Flattens an OTLP `ExportLogsServiceRequest` JSON body into records. */
export function parseLogsRequest(body: unknown): OtlpLogRecord[] {
  const records: OtlpLogRecord[] = [];
  const resourceLogs = (body as { resourceLogs?: unknown[] } | undefined)?.resourceLogs ?? [];
  for (
    const rl of resourceLogs as {
      resource?: { attributes?: KeyValue[] };
      scopeLogs?: { logRecords?: { body?: AnyValue; attributes?: KeyValue[] }[] }[];
    }[]
  ) {
    const resource = flatten(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) {
      for (const record of sl.logRecords ?? []) {
        const text = unwrap(record.body);
        records.push({
          body: typeof text === "string" ? text : undefined,
          attributes: { ...resource, ...flatten(record.attributes) },
        });
      }
    }
  }
  return records;
}

function matches(point: ReceivedPoint, attributes: Record<string, unknown>): boolean {
  return Object.entries(attributes).every(([key, value]) => point.attributes[key] === value);
}

/** Options for {@linkcode startOtlpReceiver}. */
export interface OtlpReceiverOptions {
  /**
   * Accept connections and never answer.
   *
   * @default {false}
   */
  hang?: boolean;
  /**
   * Answer the daemon's shutdown probe (a `GET`) and hold every export (a
   * `POST`) unanswered until `stop()`: a collector whose answers come too late.
   *
   * @default {false}
   */
  holdExports?: boolean;
}

/** Starts a receiver on 127.0.0.1 and a free port. */
export function startOtlpReceiver(options: OtlpReceiverOptions = {}): OtlpReceiver {
  const requests: OtlpRequest[] = [];
  let accepted = 0;
  let stop: () => Promise<void>;
  let port: number;
  if (options.hang) {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    port = (listener.addr as Deno.NetAddr).port;
    const conns = new Set<Deno.Conn>();
    const serving = (async () => {
      try {
        for await (const conn of listener) {
          accepted++;
          conns.add(conn);
          void (async () => {
            const sink = new Uint8Array(64 * 1024);
            try {
              while ((await conn.read(sink)) !== null) { /* read and never answer */ }
            } catch {
              // Dropped by stop().
            }
            conns.delete(conn);
          })();
        }
      } catch {
        // Listener closed.
      }
    })();
    stop = async () => {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // Closed by the peer.
        }
      }
      await serving;
    };
  } else {
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      async (request) => {
        accepted++;
        if (options.holdExports && request.method === "POST") await released;
        let body: Uint8Array;
        try {
          body = new Uint8Array(await request.arrayBuffer());
        } catch {
          return new Response(null, { status: 400 }); // The sender went away mid-request.
        }
        const contentType = request.headers.get("content-type") ?? "";
        let json: unknown = undefined;
        if (contentType.includes("json") && body.length > 0) {
          try {
            json = JSON.parse(new TextDecoder().decode(body));
          } catch {
            // Kept raw.
          }
        }
        requests.push({
          method: request.method,
          path: new URL(request.url).pathname,
          contentType,
          body,
          json,
        });
        const answer = contentType.includes("json") ? "{}" : new Uint8Array();
        return new Response(answer, {
          headers: { "content-type": contentType || "application/json" },
        });
      },
    );
    port = server.addr.port;
    stop = () => {
      release();
      return server.shutdown();
    };
  }
  const exports = (path: string) => requests.filter((r) => r.method === "POST" && r.path === path);
  const receiver: OtlpReceiver = {
    endpoint: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    connections: () => accepted,
    spans: () => exports("/v1/traces").flatMap((r) => parseTracesRequest(r.json)),
    points: () => exports("/v1/metrics").flatMap((r) => parseMetricsRequest(r.json)),
    logs: () => exports("/v1/logs").flatMap((r) => parseLogsRequest(r.json)),
    latest(name, attributes = {}) {
      const series = new Map<string, ReceivedPoint>();
      for (const point of receiver.points()) {
        if (point.name !== name || !matches(point, attributes)) continue;
        const key = JSON.stringify(Object.entries(point.attributes).sort());
        const seen = series.get(key);
        if (seen === undefined || seen.timeUnixNano <= point.timeUnixNano) series.set(key, point);
      }
      if (series.size === 0) return undefined;
      return [...series.values()].reduce((sum, point) => sum + point.value, 0);
    },
    stop: () => stop(),
  };
  return receiver;
}
