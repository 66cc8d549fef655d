/**
 * The daemon's signed checkpoints. At start it settles the store's identity
 * (an origin chosen once, the signing key at `<store>.signing.key`, the
 * verifier key kept in the store's meta) and rebuilds the Merkle frontier
 * over every row; then, every {@linkcode CHECKPOINT_INTERVAL_MS} and at
 * shutdown, it takes in the rows committed since, and when there are new ones
 * signs a checkpoint of the whole tree and keeps it in the store.
 *
 * It reads the rows the ingest committed rather than hooking into the
 * commit, so the ingest path gains nothing: a tick costs one query, the
 * leaf hashes of the new rows and one signature.
 *
 * It refuses to sign (and says so once) when the key file is not the store's
 * key, or when the store no longer holds the tree of its own latest
 * checkpoint: signing a rewritten history would launder it.
 *
 * @module
 */

import { signCheckpoint } from "../lib/checkpoint.ts";
import { bytesToHex, MerkleFrontier, rowLeafHash } from "../lib/merkle.ts";
import { NoteSigner } from "../lib/note.ts";
import { newOrigin, readSigningKey, signingKeyPath, writeSigningKey } from "../lib/signing_key.ts";
import { META_KEYS, type Store, type StoredCheckpoint } from "../lib/store.ts";
import { debug, log } from "./_log.ts";

/** How often at most the daemon signs a checkpoint while rows come in. */
export const CHECKPOINT_INTERVAL_MS = 5000;

/** Options for {@linkcode Checkpoints.open}. */
export interface CheckpointsOptions {
  /** The store's path; the key file is `<db>.signing.key`. */
  db: string;
  /** The daemon's uid, which must own the key file. */
  uid: number;
  /**
   * How often to look for new rows and sign.
   *
   * @default {CHECKPOINT_INTERVAL_MS}
   */
  intervalMs?: number;
}

/** Signs checkpoints of one store. */
export class Checkpoints {
  readonly #store: Store;
  readonly #signer: NoteSigner;
  readonly #frontier: MerkleFrontier;
  readonly #intervalMs: number;
  #signedSize: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> = Promise.resolve();

  private constructor(
    store: Store,
    state: { signer: NoteSigner; frontier: MerkleFrontier; signedSize: number; intervalMs: number },
  ) {
    this.#store = store;
    this.#signer = state.signer;
    this.#frontier = state.frontier;
    this.#signedSize = state.signedSize;
    this.#intervalMs = state.intervalMs;
  }

  /**
   * Settles the store's identity and rebuilds the tree; the store must be
   * open for writing.
   *
   * @throws {Error} saying why this store cannot be signed for.
   */
  static async open(store: Store, options: CheckpointsOptions): Promise<Checkpoints> {
    const { db, uid, intervalMs = CHECKPOINT_INTERVAL_MS } = options;
    let origin = store.meta(META_KEYS.origin);
    if (origin === undefined) {
      origin = newOrigin();
      store.setMeta(META_KEYS.origin, origin);
    }
    const keyPath = signingKeyPath(db);
    const knownKey = store.meta(META_KEYS.verifierKey);
    let pkcs8: Uint8Array;
    try {
      pkcs8 = readSigningKey(keyPath, { uid });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (knownKey !== undefined) {
        throw new Error(
          `the signing key ${keyPath} is gone, and this store's checkpoints are signed by ${knownKey}; restore the key file`,
        );
      }
      pkcs8 = await NoteSigner.generatePrivateKey();
      writeSigningKey(keyPath, pkcs8);
      log("INFO", `made the signing key ${keyPath} for ${origin}`);
    }
    const signer = await NoteSigner.fromPrivateKey(origin, pkcs8);
    if (knownKey === undefined) store.setMeta(META_KEYS.verifierKey, signer.verifierKey);
    else if (knownKey !== signer.verifierKey) {
      throw new Error(
        `the signing key ${keyPath} is not this store's key ${knownKey}; restore the right key file`,
      );
    }
    const latest = store.latestCheckpoint();
    const frontier = new MerkleFrontier();
    let rootAtLatest = latest?.size === 0 ? bytesToHex(frontier.root()) : undefined;
    for (const hash of store.rowHashes()) {
      frontier.appendLeafHash(rowLeafHash(hash));
      if (frontier.size === latest?.size) rootAtLatest = bytesToHex(frontier.root());
    }
    if (latest !== undefined && rootAtLatest !== latest.root) {
      throw new Error(
        `the store no longer holds the tree of its own checkpoint of ${latest.size} rows (${
          rootAtLatest === undefined ? `it has ${frontier.size} rows` : "root differs"
        }); run \`deno task verify\` with a checkpoint kept elsewhere`,
      );
    }
    return new Checkpoints(store, {
      signer,
      frontier,
      signedSize: latest?.size ?? 0,
      intervalMs,
    });
  }

  /** The verifier key of the signing key. */
  get verifierKey(): string {
    return this.#signer.verifierKey;
  }

  /** Starts signing every interval. */
  start(): void {
    this.#timer ??= setInterval(() => void this.checkpoint(), this.#intervalMs);
  }

  /**
   * Takes in the rows committed since the last call and, when the tree grew
   * past the last checkpoint, signs and keeps a new one. Calls never overlap.
   */
  checkpoint(): Promise<void> {
    this.#running = this.#running.then(() => this.#checkpoint()).catch((error) => {
      log("WARN", `checkpoint failed: ${(error as Error).message}`);
    });
    return this.#running;
  }

  /** Stops the timer and signs the last checkpoint (call before closing the store). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.checkpoint();
  }

  async #checkpoint(): Promise<void> {
    for (const hash of this.#store.rowHashes({ fromSeq: this.#frontier.size + 1 })) {
      this.#frontier.appendLeafHash(rowLeafHash(hash));
    }
    const size = this.#frontier.size;
    if (size <= this.#signedSize) return;
    const root = this.#frontier.root();
    const note = await signCheckpoint(
      { origin: this.#signer.name, size, root, extensions: [] },
      this.#signer,
    );
    const checkpoint: StoredCheckpoint = {
      size,
      root: bytesToHex(root),
      note,
      signedAtMs: Date.now(),
    };
    this.#store.appendCheckpoint(checkpoint);
    this.#signedSize = size;
    debug("daemon:checkpoint", `signed ${size} rows, root ${checkpoint.root}`);
  }
}

/**
 * Opens {@linkcode Checkpoints} and starts it, or logs why this store is not
 * signed for (capture goes on either way) and returns undefined.
 */
export async function startCheckpoints(
  store: Store,
  options: CheckpointsOptions,
): Promise<Checkpoints | undefined> {
  try {
    const checkpoints = await Checkpoints.open(store, options);
    checkpoints.start();
    return checkpoints;
  } catch (error) {
    log("ERROR", `checkpoints_off: ${(error as Error).message}`);
    return undefined;
  }
}
