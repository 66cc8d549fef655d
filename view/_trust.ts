/**
 * The trust banner's facts: does the chain still verify, and where does it
 * break first. The walk makes the same checks as `deno task verify` (link,
 * hash, gap-free `seq`, columns agreeing with the payload), but in slices
 * between which the server answers requests, so a large store never stalls a
 * page. After a full walk only new rows are checked, until the next full walk
 * five minutes later (a row changed behind the triggers' back is found then).
 *
 * @module
 */

import { GENESIS_HASH, rowHash } from "../lib/chain.ts";
import type { ChainColumns, ViewStore } from "./_queries.ts";

/** What the banner says about the chain. */
export interface ChainState {
  /** `verifying` until the first full walk ends, then `intact` or `broken`. */
  status: "verifying" | "intact" | "broken";
  /** Rows checked so far (this walk, or the last complete one). */
  checkedRows: number;
  /** The first bad `seq` when broken. */
  firstBadSeq?: number;
  /** What is wrong there. */
  detail?: string;
  /** When the last full walk from `seq` 1 ended, ms since the epoch. */
  walkedAtMs?: number;
}

/** Options for {@linkcode ChainWatch}. */
export interface ChainWatchOptions {
  /**
   * Rows checked between two turns of the event loop.
   *
   * @default {250}
   */
  sliceRows?: number;
  /**
   * How long a full walk counts before the next is started, ms.
   *
   * @default {300000}
   */
  rewalkAfterMs?: number;
}

/** Checks one stored row against the chain so far; the problem, or `undefined` when it holds. */
export function chainProblem(
  row: ChainColumns,
  expected: { seq: number; prevHash: string },
): string | undefined {
  if (Number(row.seq) !== expected.seq) return "row is missing";
  if (row.prev_hash !== expected.prevHash) {
    return "prev_hash does not match the previous row's hash";
  }
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return "payload is not JSON";
  }
  if (rowHash(expected.prevHash, { seq: expected.seq, kind: row.kind, payload }) !== row.hash) {
    return "hash does not match the row's content";
  }
  const columnsAgree = row.session_id === payload.session_id &&
    row.cwd === (typeof payload.cwd === "string" ? payload.cwd : null) &&
    row.captured === String(payload.captured_at_ns);
  return columnsAgree ? undefined : "columns disagree with the payload";
}

/** Walks the chain in the background and keeps the latest verdict. */
export class ChainWatch {
  readonly #store: ViewStore;
  readonly #sliceRows: number;
  readonly #rewalkAfterMs: number;
  #state: ChainState = { status: "verifying", checkedRows: 0 };
  #walking: Promise<void> | undefined;
  /** The verified tip of the last complete walk (new rows are checked from here). */
  #tip = { seq: 0, hash: GENESIS_HASH };

  /** Watches `store`; call {@linkcode refresh} to start. */
  constructor(store: ViewStore, options: ChainWatchOptions = {}) {
    this.#store = store;
    this.#sliceRows = options.sliceRows ?? 250;
    this.#rewalkAfterMs = options.rewalkAfterMs ?? 300_000;
  }

  /** The latest verdict. */
  get state(): ChainState {
    return { ...this.#state };
  }

  /**
   * Brings the verdict up to date: starts a full walk when none ran in the
   * last five minutes, else checks the rows appended since. Resolves when the walk
   * it started (or the one running) ends.
   */
  refresh(): Promise<void> {
    if (this.#walking) return this.#walking;
    const stale = this.#state.walkedAtMs === undefined ||
      Date.now() - this.#state.walkedAtMs > this.#rewalkAfterMs;
    if (!stale && this.#state.status === "intact") {
      this.#extend();
      return Promise.resolve();
    }
    if (!stale) return Promise.resolve();
    this.#walking = this.#walk().finally(() => this.#walking = undefined);
    return this.#walking;
  }

  #extend(): void {
    const checked = this.#check(this.#tip, Number.MAX_SAFE_INTEGER);
    this.#tip = checked.tip;
    this.#state = checked.problem
      ? { ...this.#state, status: "broken", ...checked.problem }
      : { ...this.#state, checkedRows: checked.tip.seq };
  }

  async #walk(): Promise<void> {
    let tip = { seq: 0, hash: GENESIS_HASH };
    for (;;) {
      const checked = this.#check(tip, this.#sliceRows);
      tip = checked.tip;
      if (checked.problem) {
        this.#state = {
          status: "broken",
          checkedRows: tip.seq,
          walkedAtMs: Date.now(),
          ...checked.problem,
        };
        return;
      }
      if (this.#state.status === "verifying") this.#state.checkedRows = tip.seq;
      if (checked.rows < this.#sliceRows) break;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.#tip = tip;
    this.#state = { status: "intact", checkedRows: tip.seq, walkedAtMs: Date.now() };
  }

  #check(
    from: { seq: number; hash: string },
    limit: number,
  ): {
    tip: { seq: number; hash: string };
    rows: number;
    problem?: { firstBadSeq: number; detail: string };
  } {
    const rows = this.#store.chainRows({ afterSeq: from.seq, limit });
    let tip = from;
    for (const row of rows) {
      const expected = { seq: tip.seq + 1, prevHash: tip.hash };
      const problem = chainProblem(row, expected);
      if (problem) {
        return { tip, rows: rows.length, problem: { firstBadSeq: expected.seq, detail: problem } };
      }
      tip = { seq: expected.seq, hash: row.hash };
    }
    return { tip, rows: rows.length };
  }
}
