/**
 * The trust banner's facts: does the chain still verify, where does it break
 * first, and do the rows still have the Merkle root of the latest checkpoint
 * the daemon signed. The walk makes the same checks as `deno task verify` (link,
 * hash, gap-free `seq`, columns agreeing with the payload), but in slices
 * between which the server answers requests, so a large store never stalls a
 * page. After a full walk only new rows are checked, until the next full walk
 * five minutes later (a row changed behind the triggers' back is found then).
 *
 * @module
 */

import { chainProblem, GENESIS_HASH } from "../lib/chain.ts";
import { openCheckpoint } from "../lib/checkpoint.ts";
import { bytesToHex, MerkleFrontier, rowLeafHash } from "../lib/merkle.ts";
import { parseVerifierKey } from "../lib/note.ts";
import type { StoredCheckpoint } from "../lib/store.ts";
import type { ViewStore } from "./_queries.ts";

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

/** What the banner says about the latest signed checkpoint. */
export interface CheckpointState {
  /** The rows it covers (1 to this). */
  size: number;
  /** When the daemon signed it, ms since the epoch. */
  signedAtMs: number;
  /**
   * `matches`: its signature verifies with the store's key and rows 1 to
   * `size` still have its Merkle root; `differs`: they no longer do (rows
   * were changed after it was signed); `bad-signature`: it does not verify;
   * `pending`: signed after the rows it covers were walked (checked next walk).
   */
  verdict: "matches" | "differs" | "bad-signature" | "pending";
}

/** Where a walk stands: the verified chain tip and the Merkle tree of the rows so far. */
interface Walked {
  seq: number;
  hash: string;
  tree: MerkleFrontier;
}

/**
 * Walks the chain in the background and keeps the latest verdict. The walk
 * also rebuilds the Merkle tree of the rows, so the latest signed checkpoint
 * is checked against the rows it covers when the walk passes its size.
 */
export class ChainWatch {
  readonly #store: ViewStore;
  readonly #sliceRows: number;
  readonly #rewalkAfterMs: number;
  #state: ChainState = { status: "verifying", checkedRows: 0 };
  #walking: Promise<void> | undefined;
  /** Where the last complete walk ended (new rows are checked from here). */
  #walked: Walked = { seq: 0, hash: GENESIS_HASH, tree: new MerkleFrontier() };
  /** The verdicts on checkpoints, by size. */
  readonly #verdicts = new Map<number, CheckpointState["verdict"]>();

  /** Watches `store`; call {@linkcode refresh} to start. */
  constructor(store: ViewStore, options: ChainWatchOptions = {}) {
    this.#store = store;
    this.#sliceRows = options.sliceRows ?? 250;
    this.#rewalkAfterMs = options.rewalkAfterMs ?? 300_000;
  }

  /** The latest verdict on the chain. */
  get state(): ChainState {
    return { ...this.#state };
  }

  /** The latest signed checkpoint and what the walks found of it, or `undefined` when there is none. */
  get checkpoint(): CheckpointState | undefined {
    const latest = this.#store.latestCheckpoint();
    if (latest === undefined) return undefined;
    return {
      size: latest.size,
      signedAtMs: latest.signedAtMs,
      verdict: this.#verdicts.get(latest.size) ?? "pending",
    };
  }

  /**
   * Brings the verdict up to date: starts a full walk when none ran in the
   * last five minutes, else checks the rows appended since. Resolves when the
   * walk it started (or the one running) ends.
   */
  refresh(): Promise<void> {
    if (this.#walking) return this.#walking;
    const stale = this.#state.walkedAtMs === undefined ||
      Date.now() - this.#state.walkedAtMs > this.#rewalkAfterMs;
    if (!stale && this.#state.status === "intact") return this.#extend();
    if (!stale) return Promise.resolve();
    this.#walking = this.#walk().finally(() => this.#walking = undefined);
    return this.#walking;
  }

  async #extend(): Promise<void> {
    const latest = this.#store.latestCheckpoint();
    // A burst of new rows is checked a few slices at a time, over the next refreshes.
    const checked = this.#check(this.#walked, {
      limit: this.#sliceRows * 8,
      checkpointSize: latest?.size,
    });
    this.#walked = checked.walked;
    this.#state = checked.problem
      ? { ...this.#state, status: "broken", ...checked.problem }
      : { ...this.#state, checkedRows: checked.walked.seq };
    if (latest && checked.rootAtCheckpoint) await this.#judge(latest, checked.rootAtCheckpoint);
  }

  async #walk(): Promise<void> {
    const latest = this.#store.latestCheckpoint();
    let walked: Walked = { seq: 0, hash: GENESIS_HASH, tree: new MerkleFrontier() };
    let rootAtCheckpoint: string | undefined;
    for (;;) {
      const checked = this.#check(walked, {
        limit: this.#sliceRows,
        checkpointSize: latest?.size,
      });
      walked = checked.walked;
      rootAtCheckpoint ??= checked.rootAtCheckpoint;
      if (checked.problem) {
        this.#state = {
          status: "broken",
          checkedRows: walked.seq,
          walkedAtMs: Date.now(),
          ...checked.problem,
        };
        break;
      }
      if (this.#state.status === "verifying") this.#state.checkedRows = walked.seq;
      if (checked.rows < this.#sliceRows) {
        this.#walked = walked;
        this.#state = { status: "intact", checkedRows: walked.seq, walkedAtMs: Date.now() };
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (latest && rootAtCheckpoint) await this.#judge(latest, rootAtCheckpoint);
  }

  /** Checks a checkpoint's signature with the store's key, then its root against the rows'. */
  async #judge(checkpoint: StoredCheckpoint, rowsRoot: string): Promise<void> {
    let verdict: CheckpointState["verdict"] = rowsRoot === checkpoint.root ? "matches" : "differs";
    try {
      const keyText = this.#store.verifierKey();
      if (keyText === undefined) throw new Error("the store keeps no verifier key");
      const opened = await openCheckpoint(checkpoint.note, parseVerifierKey(keyText));
      if (opened.size !== checkpoint.size || bytesToHex(opened.root) !== checkpoint.root) {
        throw new Error("the signed note is not the stored checkpoint");
      }
    } catch {
      verdict = "bad-signature";
    }
    this.#verdicts.set(checkpoint.size, verdict);
  }

  #check(from: Walked, options: { limit: number; checkpointSize: number | undefined }): {
    walked: Walked;
    rows: number;
    rootAtCheckpoint?: string;
    problem?: { firstBadSeq: number; detail: string };
  } {
    const rows = this.#store.chainRows({ afterSeq: from.seq, limit: options.limit });
    const tree = from.tree.copy();
    let seq = from.seq;
    let hash = from.hash;
    let rootAtCheckpoint = tree.size === options.checkpointSize
      ? bytesToHex(tree.root())
      : undefined;
    for (const row of rows) {
      const expected = { seq: seq + 1, prevHash: hash };
      const problem = chainProblem(row, expected);
      if (problem) {
        return {
          walked: { seq, hash, tree },
          rows: rows.length,
          ...(rootAtCheckpoint ? { rootAtCheckpoint } : {}),
          problem: { firstBadSeq: expected.seq, detail: problem },
        };
      }
      seq = expected.seq;
      hash = row.hash;
      tree.appendLeafHash(rowLeafHash(row.hash));
      if (tree.size === options.checkpointSize) rootAtCheckpoint = bytesToHex(tree.root());
    }
    return {
      walked: { seq, hash, tree },
      rows: rows.length,
      ...(rootAtCheckpoint ? { rootAtCheckpoint } : {}),
    };
  }
}
