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
import { isFrameFault } from "../lib/store_errors.ts";
import type { Quarantine } from "./_quarantine.ts";
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
  /** Where frames the store cannot take go; without one they are dropped with a WARN. */
  quarantine?: Quarantine;
  /** Called when a commit fails: the store is unusable, so the daemon shuts down. */
  onFatal?: (reason: string) => void;
}

/** A frame the store refused while its batch was being appended. */
class FrameFault extends Error {
  /** The refused frame. */
  readonly item: QueuedFrame;
  /** The counter's reason label. */
  readonly reason: string;

  /** Wraps the store's error with the frame that caused it. */
  constructor(item: QueuedFrame, options: { reason: string; cause: unknown }) {
    super((options.cause as Error)?.message ?? String(options.cause));
    this.item = item;
    this.reason = options.reason;
  }
}

/** Queues frames and commits them in batches. */
export class Ingest {
  readonly #store: Store;
  readonly #spoolDir: string;
  readonly #telemetry: Telemetry;
  readonly #batchDelayMs: number;
  readonly #maxBatch: number;
  readonly #onFatal: (reason: string) => void;
  readonly #quarantine: Quarantine | undefined;
  #queue: QueuedFrame[] = [];
  #queuedIds = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Makes the writer for an open store. */
  constructor(store: Store, options: IngestOptions) {
    const {
      spoolDir,
      telemetry,
      batchDelayMs = 2,
      maxBatch = 1000,
      quarantine,
      onFatal = () => {},
    } = options;
    this.#quarantine = quarantine;
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
        this.#onFatal(`the store failed: ${(error as Error).message}`);
      }
    }, delayMs);
  }

  #commitBatch(): void {
    const batch = this.#queue.splice(0, this.#maxBatch);
    const started = performance.now();
    let committed: QueuedFrame[] = [];
    let settled: QueuedFrame[] = [];
    // A frame the store refuses rolls its batch back; the batch is then
    // retried without it, so one bad frame costs at most one retry per bad frame.
    for (let pending = batch;;) {
      committed = [];
      settled = [];
      try {
        this.#store.transaction(() => this.#appendBatch(pending, committed, settled));
        break;
      } catch (error) {
        if (error instanceof FrameFault) {
          this.#setAside(error.item, { reason: error.reason, detail: error.message });
          pending = pending.filter((item) => item !== error.item);
          continue;
        }
        // The spool still holds these frames; the next drain (or the restart) retries them.
        for (const item of pending) this.#queuedIds.delete(item.frame.id);
        throw error;
      }
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

  /** Quarantines a frame the store cannot take (or drops it, with no quarantine). */
  #setAside(item: QueuedFrame, options: { reason: string; detail: string }): void {
    this.#queuedIds.delete(item.frame.id);
    const detail = `frame ${item.frame.id}: ${options.detail}`;
    if (this.#quarantine === undefined) {
      log("WARN", `frame dropped: ${detail}`);
      this.#telemetry.rejected(options.reason);
      return;
    }
    this.#quarantine.add({
      name: item.spoolPath.slice(item.spoolPath.lastIndexOf("/") + 1),
      spoolPath: item.spoolPath,
      frame: item.frame,
      reason: options.reason,
      detail,
    });
  }

  #appendBatch(batch: QueuedFrame[], committed: QueuedFrame[], settled: QueuedFrame[]): void {
    for (const item of batch) {
      const state = this.#store.frameState(item.frame);
      if (state === "stored") {
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
        if (!isFrameFault(error)) throw error;
        throw new FrameFault(item, { reason: "bad_row", cause: error });
      }
      // Kept, under an id of its own, since the column is unique.
      const frameId = state === "taken" ? `${item.frame.id}:taken:${Date.now()}` : item.frame.id;
      if (state === "taken") {
        log(
          "WARN",
          `frame_id_taken: another row carries frame id ${item.frame.id}; stored as ${frameId}`,
        );
      }
      try {
        this.#store.append({ frameId, kind: item.frame.kind, payload });
      } catch (error) {
        if (!isFrameFault(error)) throw error;
        throw new FrameFault(item, { reason: "store_refused", cause: error });
      }
      item.row = payload;
      committed.push(item);
    }
  }
}
