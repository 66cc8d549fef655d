/**
 * The single writer: frames from the socket and from the spool queue up here
 * and are appended to the chain in group commits. A spool file is deleted only
 * after its row is committed; a frame id already stored is dropped, so a frame
 * that came both ways is stored once.
 *
 * @module
 */

import type { Frame } from "../lib/frame.ts";
import type { Outcome } from "../lib/outcomes.ts";
import { completePayload, COUNTED_KINDS } from "../lib/rows.ts";
import { spoolFileName } from "../lib/spool.ts";
import type { Store } from "../lib/store.ts";
import { debug, log } from "./_log.ts";
import type { Telemetry } from "./_telemetry.ts";

/** A frame waiting to be committed. */
export interface QueuedFrame {
  /** The decoded frame. */
  frame: Frame;
  /** The hook's outcome: `ok` over the socket, or what the spool file's name says. */
  outcome: Outcome;
  /** The spool file to delete once committed. */
  spoolPath: string;
  /** The payload as stored, once committed. */
  row?: Record<string, unknown>;
}

/** Options for {@linkcode Ingest}. */
export interface IngestOptions {
  /** The spool folder, for deleting committed frames' files. */
  spoolDir: string;
  /** Where events go. */
  telemetry: Telemetry;
  /**
   * How long the first frame of a batch waits for others to join its commit.
   *
   * @default {2}
   */
  batchDelayMs?: number;
  /**
   * The most frames in one commit.
   *
   * @default {1000}
   */
  maxBatch?: number;
  /** Called when a commit fails: the store is unusable, so the daemon shuts down. */
  onFatal?: (reason: string) => void;
}

/** Queues frames and commits them in batches. */
export class Ingest {
  readonly #store: Store;
  readonly #spoolDir: string;
  readonly #telemetry: Telemetry;
  readonly #batchDelayMs: number;
  readonly #maxBatch: number;
  readonly #onFatal: (reason: string) => void;
  #queue: QueuedFrame[] = [];
  #queuedIds = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Makes the writer for an open store. */
  constructor(store: Store, options: IngestOptions) {
    const { spoolDir, telemetry, batchDelayMs = 2, maxBatch = 1000, onFatal = () => {} } = options;
    this.#store = store;
    this.#spoolDir = spoolDir;
    this.#telemetry = telemetry;
    this.#batchDelayMs = batchDelayMs;
    this.#maxBatch = maxBatch;
    this.#onFatal = onFatal;
  }

  /** Frames queued and not yet committed. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Whether a frame id is waiting in the queue. */
  isQueued(id: string): boolean {
    return this.#queuedIds.has(id);
  }

  /** Queues one frame from the socket (`spoolPath` derived) or the spool. */
  enqueue(frame: Frame, options: { outcome?: Outcome; spoolPath?: string } = {}): void {
    if (this.#queuedIds.has(frame.id)) return;
    const spoolPath = options.spoolPath ??
      `${this.#spoolDir}/${spoolFileName(Number(frame.payload.captured_at_ns), frame.id)}`;
    this.#queue.push({ frame, outcome: options.outcome ?? "ok", spoolPath });
    this.#queuedIds.add(frame.id);
    if (this.#queue.length >= this.#maxBatch) this.#schedule(0);
    else this.#schedule(this.#batchDelayMs);
  }

  /**
   * Commits everything queued so far. Synchronous (SQLite is), so nothing
   * else runs between two batches and the chain has one writer.
   */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#queue.length > 0) this.#commitBatch();
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined) {
      if (delayMs > 0) return;
      clearTimeout(this.#timer);
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.flush();
      } catch (error) {
        log("ERROR", `commit failed: ${(error as Error).message}; the spool keeps those frames`);
        this.#onFatal(`the store failed: ${(error as Error).message}`);
      }
    }, delayMs);
  }

  #commitBatch(): void {
    const batch = this.#queue.splice(0, this.#maxBatch);
    const started = performance.now();
    const committed: QueuedFrame[] = [];
    const settled: QueuedFrame[] = [];
    try {
      this.#store.transaction(() => this.#appendBatch(batch, committed, settled));
    } catch (error) {
      // The spool still holds these frames; the next drain retries them.
      for (const item of batch) this.#queuedIds.delete(item.frame.id);
      throw error;
    }
    const ms = performance.now() - started;
    this.#telemetry.committed(committed.length, ms);
    debug("daemon:store", `committed ${committed.length} rows in ${ms.toFixed(1)} ms`);
    for (const item of [...committed, ...settled]) {
      this.#queuedIds.delete(item.frame.id);
      try {
        Deno.removeSync(item.spoolPath);
      } catch {
        // Never spooled (untrusted trace dir), or renamed by a failing hook: the drain settles it.
      }
    }
    for (const item of committed) {
      this.#telemetry.hookRun(item.frame, item.outcome, item.row ?? item.frame.payload);
    }
  }

  #appendBatch(batch: QueuedFrame[], committed: QueuedFrame[], settled: QueuedFrame[]): void {
    for (const item of batch) {
      if (this.#store.hasFrame(item.frame.id)) {
        settled.push(item);
        continue;
      }
      let payload: Record<string, unknown>;
      try {
        const session = COUNTED_KINDS.has(item.frame.kind)
          ? this.#store.sessionCounts(String(item.frame.payload.session_id))
          : { promptCount: 0, toolUseCount: 0, firstCapturedAtNs: undefined };
        payload = completePayload(item.frame, session);
      } catch (error) {
        log("WARN", `frame ${item.frame.id} dropped: ${(error as Error).message}`);
        this.#telemetry.rejected("bad_row");
        settled.push(item);
        continue;
      }
      this.#store.append({ frameId: item.frame.id, kind: item.frame.kind, payload });
      item.row = payload;
      committed.push(item);
    }
  }
}
