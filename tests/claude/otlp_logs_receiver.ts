/**
 * A minimal OTLP/HTTP JSON receiver for Claude Code's own telemetry: it accepts `POST /v1/logs`
 * (and answers `/v1/metrics` and `/v1/traces` without keeping them) on 127.0.0.1 and flattens each
 * log record into its event name and attributes. The latency bench reads the
 * `hook_execution_complete` events from it.
 *
 * @module
 */

import { type AnyValue, flatten, type KeyValue, unwrap } from "../_otlp_json.ts";

/** One log record, its attributes flattened to plain values. */
export interface OtlpLogRecord {
  /** The record's body when it is a string (Claude Code puts `claude_code.<event>` there). */
  body: string | undefined;
  /** The record's attributes, merged with its resource's, values unwrapped from OTLP's AnyValue. */
  attributes: Record<string, unknown>;
}

/** A running receiver. */
export interface OtlpLogsReceiver {
  /** `http://127.0.0.1:<port>`, the value for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string;
  /** Every log record received so far, in arrival order. */
  records: OtlpLogRecord[];
  /** Stops the receiver and waits until it has closed. */
  stop(): Promise<void>;
}

/** Flattens an OTLP `ExportLogsServiceRequest` JSON body into records. Exported for unit tests. */
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

/** Starts the receiver on 127.0.0.1 with an ephemeral port. */
export function startOtlpLogsReceiver(): Promise<OtlpLogsReceiver> {
  const records: OtlpLogRecord[] = [];
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: (addr) => resolve(addr as Deno.NetAddr),
  }, async (request) => {
    const url = new URL(request.url);
    const text = await request.text();
    if (request.method === "POST" && url.pathname === "/v1/logs") {
      try {
        records.push(...parseLogsRequest(JSON.parse(text)));
      } catch (error) {
        console.error(`otlp_logs_receiver: cannot parse /v1/logs body: ${error}`);
        return Response.json({}, { status: 400 });
      }
    }
    return Response.json({ partialSuccess: {} });
  });
  return listening.then((addr) => ({
    endpoint: `http://127.0.0.1:${addr.port}`,
    records,
    stop: () => server.shutdown(),
  }));
}
