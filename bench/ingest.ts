/**
 * Daemon ingest: S concurrent senders against a real daemon, either streaming
 * frames on one connection each or connecting once per frame as hooks do.
 * Reports rows per second committed durably and the p99 from frame sent to row
 * visible in the store; then `verify`'s speed.
 *
 * @module
 */

import { encodeFrame, type Frame, FRAME_VERSION } from "../lib/frame.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { openStore } from "../lib/store.ts";
import { percentile } from "./_stats.ts";
import { sendRaw } from "../tests/_daemon.ts";

/** One ingest run's result. */
export interface IngestResult {
  /** Concurrent senders. */
  senders: number;
  /** Frames sent. */
  frames: number;
  /** Rows committed per second, first send to last commit. */
  rowsPerSecond: number;
  /** p99 of sent → committed, ms. */
  p99Ms: number;
}

function frameOf(index: number, nowNs: number): Frame {
  return {
    v: FRAME_VERSION,
    id: crypto.randomUUID().replaceAll("-", ""),
    kind: ROW_KINDS.toolUse,
    payload: {
      session_id: "5b0c7d1e-2f3a-4b5c-8d6e-7f8091a2b3c4",
      tool_name: "Bash",
      tool_args_redacted: { command: `npm test -- --shard ${index}`, description: "Run tests" },
      outcome: "success",
      duration_ms: 100,
      trace_id: "ef".repeat(16),
      captured_at_ns: nowNs,
      cwd: "/bench/project",
    },
    telemetry: {
      hook_kind: "posttooluse",
      started_at_ns: nowNs,
      ended_at_ns: nowNs,
      outcome: "ok",
      redactions: {},
    },
  };
}

/** Options for {@linkcode measureIngest}. */
export interface MeasureIngestOptions {
  /** Concurrent senders. */
  senders: number;
  /** Frames in all. */
  frames: number;
  /**
   * `connection`: one connection per frame, as hooks send, each sender
   * waiting for the daemon's close before its next frame (a hook does not
   * wait, but its own start paces it; a sender in a loop would fill the
   * daemon's backlog of 1,024 connections in milliseconds); `stream`: each
   * sender keeps one connection and writes its frames on it (the wire allows
   * several frames per connection), which measures the daemon's own rate.
   */
  mode: "connection" | "stream";
}

/** Sends `frames` frames from `senders` concurrent senders and times their commits. */
export async function measureIngest(
  paths: { socket: string; db: string },
  options: MeasureIngestOptions,
): Promise<IngestResult> {
  const reader = openStore(paths.db, { readOnly: true });
  const startCount = reader.count();
  const sentAt: number[] = [];
  const seenAt: number[] = [];
  let next = 0;
  let done = false;
  const started = performance.now();
  const poller = (async () => {
    let last = startCount;
    while (!done || last < startCount + options.frames) {
      const count = reader.count();
      const now = performance.now();
      for (let i = last; i < count; i++) seenAt[i - startCount] = now;
      last = count;
      if (done && count >= startCount + options.frames) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  await Promise.all(Array.from({ length: options.senders }, async () => {
    const stream = options.mode === "stream"
      ? await Deno.connect({ transport: "unix", path: paths.socket })
      : undefined;
    while (next < options.frames) {
      const index = next++;
      const nowNs = Math.round((performance.timeOrigin + performance.now()) * 1e3) * 1e3;
      const bytes = encodeFrame(frameOf(index, nowNs));
      sentAt[index] = performance.now();
      if (stream) {
        let written = 0;
        while (written < bytes.length) written += await stream.write(bytes.subarray(written));
      } else await sendRaw(paths.socket, bytes);
    }
    if (stream) {
      await stream.closeWrite();
      while ((await stream.read(new Uint8Array(16))) !== null) { /* wait for close */ }
      stream.close();
    }
  }));
  done = true;
  await poller;
  reader.close();
  const finished = Math.max(...seenAt);
  // Rows commit in order of arrival, which under concurrency is near but not exactly send order;
  // pairing the k-th sent with the k-th committed bounds each frame's wait from above.
  const sortedSent = [...sentAt].sort((a, b) => a - b);
  const waits = seenAt.map((seen, i) => seen - sortedSent[i]!);
  return {
    senders: options.senders,
    frames: options.frames,
    rowsPerSecond: options.frames / ((finished - started) / 1000),
    p99Ms: percentile(waits, 99),
  };
}

/** Times a full `verify` of the store. */
export function measureVerify(db: string): { rows: number; rowsPerSecond: number } {
  const store = openStore(db, { readOnly: true });
  try {
    const started = performance.now();
    const rows = store.verify();
    return { rows, rowsPerSecond: rows / ((performance.now() - started) / 1000) };
  } finally {
    store.close();
  }
}
