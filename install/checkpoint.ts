/**
 * `checkpoint`, `key` and `prove`: what to keep off the machine and what to
 * show an auditor. All read the store read-only and never the signing key:
 * the verifier key is in the store's meta.
 *
 * ```
 * checkpoint                 the latest signed checkpoint (keep it anywhere)
 * key                        the verifier key, <name>+<key id>+<base64>
 * prove SEQ                  inclusion proof of row SEQ in the latest checkpoint's tree
 * prove --from OLD_FILE      consistency proof from an older checkpoint to the latest
 * ```
 *
 * @module
 */

import { openCheckpoint } from "../lib/checkpoint.ts";
import {
  consistencyProof,
  equalBytes,
  hexToBytes,
  inclusionProof,
  merkleRoot,
  rowLeafHash,
} from "../lib/merkle.ts";
import { formatProofFile } from "../lib/proof_file.ts";
import { META_KEYS, type Store } from "../lib/store.ts";
import {
  CommandError,
  openReadOnlyStore,
  parseOptions,
  readInputFile,
  runCommand,
  verifierKeyOf,
} from "./_tlog.ts";

const CHECKPOINT_USAGE = "usage: deno task checkpoint";
const KEY_USAGE = "usage: deno task key";
const PROVE_USAGE = "usage: deno task prove SEQ | deno task prove --from OLD_CHECKPOINT_FILE";

const CHECKPOINT_HELP = `${CHECKPOINT_USAGE}

Prints the latest checkpoint the daemon signed: this store's origin, its row
count and the Merkle root of those rows, signed with the store's key (C2SP
tlog-checkpoint). Keep it somewhere the machine's owner cannot rewrite (a
ticket, a mail, a team store); \`deno task verify --checkpoint FILE\` then tells
whether the store still holds those rows.`;

const KEY_HELP = `${KEY_USAGE}

Prints the verifier key of this store's checkpoints in the C2SP vkey form
<origin>+<key id>+<base64 key>. Keep it with the checkpoints.`;

const PROVE_HELP = `${PROVE_USAGE}

prove SEQ               prints a C2SP tlog-proof that row SEQ is in the tree
                        of the latest checkpoint (the checkpoint included)
prove --from OLD_FILE   prints a consistency proof that the latest checkpoint's
                        tree extends the older checkpoint's (both included)

Check either without the store: deno task verify --proof FILE --vkey VKEY`;

/** `checkpoint`: prints the latest signed checkpoint. */
export function runCheckpoint(args: string[]): Promise<number> {
  return runCommand("checkpoint", () => {
    const { positionals, help } = parseOptions(args, { valued: [], usage: CHECKPOINT_USAGE });
    if (help) return done(CHECKPOINT_HELP);
    if (positionals.length > 0) {
      throw new CommandError(2, `unexpected argument "${positionals[0]}"; ${CHECKPOINT_USAGE}`);
    }
    const { store } = openReadOnlyStore();
    try {
      const latest = store.latestCheckpoint();
      if (latest === undefined) throw noCheckpointYet();
      return done(latest.note.slice(0, -1));
    } finally {
      store.close();
    }
  });
}

/** `key`: prints the verifier key. */
export function runKey(args: string[]): Promise<number> {
  return runCommand("key", () => {
    const { positionals, help } = parseOptions(args, { valued: [], usage: KEY_USAGE });
    if (help) return done(KEY_HELP);
    if (positionals.length > 0) {
      throw new CommandError(2, `unexpected argument "${positionals[0]}"; ${KEY_USAGE}`);
    }
    const { store } = openReadOnlyStore();
    try {
      const vkey = store.meta(META_KEYS.verifierKey);
      if (vkey === undefined) {
        throw new CommandError(
          1,
          "the store has no key yet: the daemon makes one at its first start (deno task start)",
        );
      }
      return done(vkey);
    } finally {
      store.close();
    }
  });
}

/** `prove`: prints an inclusion or a consistency proof against the latest checkpoint. */
export function runProve(args: string[]): Promise<number> {
  return runCommand("prove", async () => {
    const { values, positionals, help } = parseOptions(args, {
      valued: ["--from"],
      usage: PROVE_USAGE,
    });
    if (help) return done(PROVE_HELP);
    const from = values.get("--from");
    if ((from === undefined) === (positionals.length !== 1) || positionals.length > 1) {
      throw new CommandError(2, `give either SEQ or --from FILE; ${PROVE_USAGE}`);
    }
    let seq: number | undefined;
    if (from === undefined) {
      seq = Number(positionals[0]);
      if (!/^[1-9][0-9]{0,15}$/.test(positionals[0]!) || !Number.isSafeInteger(seq)) {
        throw new CommandError(2, `SEQ must be a row number from 1, got "${positionals[0]}"`);
      }
    }
    const oldText = from === undefined ? undefined : readInputFile(from, "checkpoint");
    const { store } = openReadOnlyStore();
    try {
      const latest = store.latestCheckpoint();
      if (latest === undefined) throw noCheckpointYet();
      const leaves = leafHashesOf(store, latest.size);
      if (!equalBytes(merkleRoot(leaves), hexToBytes(latest.root))) {
        throw new CommandError(
          1,
          `the store no longer holds the tree of its latest checkpoint (${latest.size} rows); run deno task verify`,
        );
      }
      if (seq !== undefined) {
        if (seq > latest.size) {
          throw new CommandError(
            1,
            `row ${seq} is not in the latest checkpoint (${latest.size} rows) yet; the daemon signs a new one within seconds of a commit`,
          );
        }
        const hashes = inclusionProof(leaves, { index: seq - 1 });
        const leafData = hexToBytes(storedHash(store, seq));
        return done(
          formatProofFile({
            type: "inclusion",
            index: seq - 1,
            leafData,
            hashes,
            checkpoint: latest.note,
          })
            .slice(0, -1),
        );
      }
      let old;
      try {
        old = await openCheckpoint(oldText!, verifierKeyOf(undefined, store));
      } catch (error) {
        throw new CommandError(1, `checkpoint ${from}: ${(error as Error).message}`);
      }
      if (old.size > latest.size) {
        throw new CommandError(
          1,
          `checkpoint ${from} has ${old.size} rows, more than the latest checkpoint's ${latest.size}: rows are gone; run deno task verify --checkpoint ${from}`,
        );
      }
      if (!equalBytes(merkleRoot(leaves, old.size), old.root)) {
        throw new CommandError(
          1,
          `the store's first ${old.size} rows no longer have the root of checkpoint ${from}: they were rewritten; run deno task verify --checkpoint ${from}`,
        );
      }
      const hashes = consistencyProof(leaves, { oldSize: old.size });
      return done(
        formatProofFile({
          type: "consistency",
          hashes,
          oldCheckpoint: oldText!,
          checkpoint: latest.note,
        }).slice(0, -1),
      );
    } finally {
      store.close();
    }
  });
}

function leafHashesOf(store: Store, size: number): Uint8Array[] {
  const leaves: Uint8Array[] = [];
  for (const hash of store.rowHashes()) {
    if (leaves.length === size) break;
    leaves.push(rowLeafHash(hash));
  }
  if (leaves.length < size) {
    throw new CommandError(
      1,
      `the store has ${leaves.length} rows, fewer than its latest checkpoint's ${size}; run deno task verify`,
    );
  }
  return leaves;
}

function storedHash(store: Store, seq: number): string {
  for (const hash of store.rowHashes({ fromSeq: seq })) return hash;
  throw new CommandError(1, `row ${seq} is missing from the store`);
}

function noCheckpointYet(): CommandError {
  return new CommandError(
    1,
    "no checkpoint yet: the daemon signs one within seconds of its first rows (deno task start)",
  );
}

function done(text: string): Promise<number> {
  console.log(text);
  return Promise.resolve(0);
}
