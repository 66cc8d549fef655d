/**
 * What the daemon reports to telemetry. Export itself (OpenTelemetry) plugs in
 * behind this interface; without an endpoint the recorder does nothing.
 *
 * @module
 */

import type { Frame } from "../lib/frame.ts";
import type { Outcome } from "../lib/outcomes.ts";

/** Receives the daemon's events. */
export interface Telemetry {
  /**
   * A hook run whose row was committed, with the hook's final outcome and the
   * row's payload as stored.
   */
  hookRun(frame: Frame, outcome: Outcome, row: Record<string, unknown>): void;
  /** A group commit of `rows` rows that took `ms`. */
  committed(rows: number, ms: number): void;
  /** A frame rejected, by reason (`oversize`, `bad_json`, `bad_shape`, `bad_row`). */
  rejected(reason: string): void;
  /** A frame the store could not take, moved to the quarantine folder, by reason. */
  quarantined(reason: string): void;
  /** The spool's depth after a drain. */
  spoolDepth(files: number): void;
  /** Flushes what is held, within a bounded time. */
  shutdown(): Promise<void>;
}

/** A recorder that does nothing: no endpoint, no cost. */
export function noTelemetry(): Telemetry {
  return {
    hookRun() {},
    committed() {},
    rejected() {},
    quarantined() {},
    spoolDepth() {},
    shutdown: () => Promise.resolve(),
  };
}

/**
 * What the daemon's start line says about export: off, or on and where to
 * (the endpoint without any user name or password it may carry).
 */
export function exportNote(env: (name: string) => string | undefined): string {
  const endpoint = env("OTEL_EXPORTER_OTLP_ENDPOINT");
  if (env("OTEL_DENO") !== "true" || !endpoint) {
    return "OpenTelemetry export off (set OTEL_EXPORTER_OTLP_ENDPOINT to turn it on)";
  }
  let shown = endpoint;
  try {
    const url = new URL(endpoint);
    url.username = "";
    url.password = "";
    shown = url.href;
  } catch {
    // The launcher refuses such an endpoint; shown as given if one gets here anyway.
  }
  const protocol = env("OTEL_EXPORTER_OTLP_PROTOCOL");
  return `OpenTelemetry export on, to ${shown}${protocol ? ` (${protocol})` : ""}`;
}
