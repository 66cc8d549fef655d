/**
 * `deno task verify`: what the store says about itself, and what a
 * checkpoint or proof kept elsewhere says about the store.
 *
 * ```
 * verify                                  chain, triggers, the store's own checkpoints
 * verify --checkpoint FILE [--vkey VKEY]  ... and that the store still holds FILE's tree
 * verify --proof FILE [--vkey VKEY]       an inclusion or consistency proof, without the store
 * ```
 *
 * Exit 0 when everything holds, 1 naming each thing that does not (one line
 * each) or a store or file that cannot be read, 2 for bad usage.
 *
 * @module
 */

import { ChainBrokenError } from "../lib/chain.ts";
import { type Checkpoint, openCheckpoint } from "../lib/checkpoint.ts";
import { encodeBase64 } from "../lib/note.ts";
import { equalBytes } from "../lib/merkle.ts";
import { verifyProofFile } from "../lib/proof_file.ts";
import { META_KEYS, type Store } from "../lib/store.ts";
import { boundChange, openStoredCheckpoints, prefixRoots } from "../lib/tree_audit.ts";
import {
  CommandError,
  openReadOnlyStore,
  parseOptions,
  readInputFile,
  runCommand,
  verifierKeyOf,
} from "./_tlog.ts";

const USAGE =
  "usage: deno task verify [--checkpoint FILE] [--vkey VKEY] | deno task verify --proof FILE [--vkey VKEY]";

const HELP = `${USAGE}

verify                     re-walks the hash chain, checks the append-only triggers
                           and that the store's own signed checkpoints match its rows
--checkpoint FILE          also checks FILE (from deno task checkpoint, kept elsewhere):
                           its signature, and that the store's first rows still have
                           its Merkle root; names missing rows or where rows changed
--proof FILE               checks a proof from deno task prove, without the store
--vkey VKEY                the verifier key to trust (from deno task key, kept
                           elsewhere); default: the key the store keeps

Exit 0 when everything holds, 1 naming what does not, 2 for bad usage.`;

/** Runs `verify` with its command-line arguments; returns the exit code. */
export function runVerify(args: string[]): Promise<number> {
  return runCommand("verify", async () => {
    const { values, positionals, help } = parseOptions(args, {
      valued: ["--checkpoint", "--vkey", "--proof"],
      usage: USAGE,
    });
    if (help) {
      console.log(HELP);
      return 0;
    }
    if (positionals.length > 0) {
      throw new CommandError(2, `unexpected argument "${positionals[0]}"; ${USAGE}`);
    }
    const proofFile = values.get("--proof");
    const checkpointFile = values.get("--checkpoint");
    if (proofFile !== undefined && checkpointFile !== undefined) {
      throw new CommandError(2, `give --proof or --checkpoint, not both; ${USAGE}`);
    }
    if (proofFile !== undefined) return await verifyProof(proofFile, values.get("--vkey"));
    const { store, db } = openReadOnlyStore();
    try {
      const failures = await verifyStore(store, {
        db,
        checkpointFile,
        vkey: values.get("--vkey"),
      });
      for (const failure of failures) console.error(`cyberos-memory verify: ${failure}`);
      return failures.length === 0 ? 0 : 1;
    } finally {
      store.close();
    }
  });
}

async function verifyProof(path: string, vkey: string | undefined): Promise<number> {
  const text = readInputFile(path, "proof");
  let store: Store | undefined;
  if (vkey === undefined) store = openReadOnlyStore().store;
  try {
    const key = verifierKeyOf(vkey, store);
    const verdict = await verifyProofFile(text, key).catch((error) => {
      throw new CommandError(1, `proof ${path}: ${(error as Error).message}`);
    });
    if (verdict.type === "inclusion") {
      console.log(
        `inclusion proof holds: row ${verdict.seq} (hash ${verdict.rowHash}) is in the tree of ${verdict.checkpoint.size} rows of ${verdict.checkpoint.origin}, signed by ${key.name}`,
      );
    } else {
      console.log(
        `consistency proof holds: the tree of ${verdict.checkpoint.size} rows extends the tree of ${verdict.oldCheckpoint.size} rows of ${verdict.checkpoint.origin}: nothing before was changed or removed`,
      );
    }
    return 0;
  } finally {
    store?.close();
  }
}

/** Every check on the store; returns the failures, printing what holds. */
async function verifyStore(
  store: Store,
  options: { db: string; checkpointFile: string | undefined; vkey: string | undefined },
): Promise<string[]> {
  const { db, checkpointFile, vkey } = options;
  const failures: string[] = [];
  const started = performance.now();
  try {
    const rows = store.verify();
    const ms = performance.now() - started;
    console.log(`chain intact: ${rows} rows verified in ${ms.toFixed(0)} ms (${db})`);
  } catch (error) {
    if (!(error instanceof ChainBrokenError)) throw error;
    failures.push(`${error.message} (${db})`);
  }

  const triggerProblems = store.checkTriggers();
  if (triggerProblems.length === 0) {
    console.log("triggers intact: rows, checkpoints and meta are append-only");
  }
  for (const { name, problem } of triggerProblems) {
    failures.push(
      `trigger ${name} is ${problem}: someone changed the schema to edit or delete stored data`,
    );
  }

  // The external checkpoint first, so its key also opens the stored ones.
  const key = checkpointFile === undefined && store.meta(META_KEYS.verifierKey) === undefined
    ? undefined
    : verifierKeyOf(vkey, store);
  let external: Checkpoint | undefined;
  if (checkpointFile !== undefined) {
    const text = readInputFile(checkpointFile, "checkpoint");
    try {
      external = await openCheckpoint(text, key!);
    } catch (error) {
      failures.push(`checkpoint ${checkpointFile}: ${(error as Error).message}`);
    }
  }
  if (external !== undefined) {
    const origin = store.meta(META_KEYS.origin);
    if (origin !== external.origin) {
      failures.push(
        `checkpoint ${checkpointFile} is for ${external.origin} but this store is ${
          origin ?? "unnamed"
        }: not the same store (was the file replaced?)`,
      );
    }
  }

  const stored = store.checkpoints();
  const { opened, unverified } = key === undefined
    ? { opened: [], unverified: [] }
    : await openStoredCheckpoints(stored, key);
  const sizes = opened.map(({ checkpoint }) => checkpoint.size);
  if (external !== undefined) sizes.push(external.size);
  const { rows, roots } = prefixRoots(store.rowHashes(), sizes);

  if (unverified.length > 0) {
    failures.push(
      `${unverified.length} stored checkpoint(s) do not verify with ${key!.name}'s key (first: ${
        unverified[0]
      } rows)`,
    );
  }
  const broken = opened.find(({ checkpoint }) => {
    const root = roots.get(checkpoint.size);
    return root === undefined || !equalBytes(root, checkpoint.root);
  });
  if (broken !== undefined) {
    const size = broken.checkpoint.size;
    failures.push(
      size > rows
        ? `the store has ${rows} rows, fewer than its own checkpoint of ${size} rows: rows ${
          rows + 1
        }..${size} are gone`
        : `the store's first ${size} rows no longer have the root of its own checkpoint of ${size} rows: rows were rewritten`,
    );
  } else if (opened.length > 0) {
    console.log(
      `checkpoints intact: the rows have the roots of the store's ${opened.length} signed checkpoint${
        opened.length === 1 ? "" : "s"
      }`,
    );
  }

  if (external !== undefined) {
    const failure = checkAgainst(external, {
      rows,
      roots,
      opened: opened.map((o) => o.checkpoint),
    });
    if (failure === undefined) {
      console.log(
        `checkpoint holds: ${checkpointFile} (${external.size} rows, root ${
          encodeBase64(external.root)
        }) matches rows 1..${external.size}; the store has ${rows} rows`,
      );
    } else failures.push(`checkpoint ${checkpointFile}: ${failure}`);
  }
  return failures;
}

/** Why the store does not hold the checkpoint's tree, or undefined when it does. */
function checkAgainst(
  checkpoint: Checkpoint,
  store: { rows: number; roots: Map<number, Uint8Array>; opened: Checkpoint[] },
): string | undefined {
  const { rows, roots, opened } = store;
  if (rows < checkpoint.size) {
    return `fewer rows than the checkpoint: the store has ${rows}, the checkpoint ${checkpoint.size}; rows ${
      rows + 1
    }..${checkpoint.size} are gone`;
  }
  if (equalBytes(roots.get(checkpoint.size)!, checkpoint.root)) return undefined;
  const fork = opened.find((other) =>
    other.size === checkpoint.size && !equalBytes(other.root, checkpoint.root)
  );
  const { unchangedThrough, changedBy } = boundChange(opened, roots, checkpoint.size);
  const where = unchangedThrough + 1 === changedBy
    ? `the first row that differs is seq ${changedBy}`
    : unchangedThrough === 0 && changedBy === checkpoint.size
    ? "no checkpoint in the store tells which row differs first"
    : `the first row that differs is between seq ${unchangedThrough + 1} and seq ${changedBy}`;
  return `root mismatch: the store's first ${checkpoint.size} rows do not have the checkpoint's root; ${where}${
    unchangedThrough > 0
      ? ` (rows 1..${unchangedThrough} still match a checkpoint the store kept)`
      : ""
  }${
    fork === undefined
      ? ""
      : "; the store holds another checkpoint of that size signed by the same key: two histories"
  }`;
}
