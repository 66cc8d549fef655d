/**
 * Proof files: text an auditor can check with the verifier key alone, each
 * carrying the signed checkpoint(s) it is against.
 *
 * An inclusion proof is a C2SP `tlog-proof` (https://c2sp.org/tlog-proof),
 * whose `extra` line carries the leaf data, the row's 32-byte chain hash:
 *
 *     c2sp.org/tlog-proof@v1
 *     extra <base64 of the row's chain hash>
 *     index <seq - 1>
 *     <base64 audit path hash, leaf first>...
 *     <blank line>
 *     <signed checkpoint>
 *
 * A consistency proof has no C2SP form, so it follows the same shape:
 *
 *     cyberos-memory/consistency-proof@v1
 *     <base64 proof hash>...
 *     <blank line>
 *     <older signed checkpoint><newer signed checkpoint>
 *
 * The two notes are told apart where the older one's signature lines
 * (`— name sig`) end.
 *
 * @module
 */

import { type Checkpoint, openCheckpoint } from "./checkpoint.ts";
import { bytesToHex, HASH_BYTES, leafHash, verifyConsistency, verifyInclusion } from "./merkle.ts";
import { decodeBase64, encodeBase64, SIGNATURE_LINE_PREFIX, type VerifierKey } from "./note.ts";

/** The first line of an inclusion proof. */
export const INCLUSION_PROOF_HEADER = "c2sp.org/tlog-proof@v1";

/** The first line of a consistency proof. */
export const CONSISTENCY_PROOF_HEADER = "cyberos-memory/consistency-proof@v1";

/** An inclusion proof of one row. */
export interface InclusionProofFile {
  /** Which proof. */
  type: "inclusion";
  /** The row's 0-based index in the tree (`seq - 1`). */
  index: number;
  /** The leaf data: the row's chain hash, 32 bytes. */
  leafData: Uint8Array;
  /** The audit path, leaf first. */
  hashes: Uint8Array[];
  /** The signed checkpoint of the tree. */
  checkpoint: string;
}

/** A consistency proof between two checkpoints of one log. */
export interface ConsistencyProofFile {
  /** Which proof. */
  type: "consistency";
  /** The proof hashes. */
  hashes: Uint8Array[];
  /** The older signed checkpoint. */
  oldCheckpoint: string;
  /** The newer signed checkpoint. */
  checkpoint: string;
}

/** Either proof file. */
export type ProofFile = InclusionProofFile | ConsistencyProofFile;

/** A proof that does not hold. */
export class ProofError extends Error {
  /** Makes the error with what does not hold. */
  constructor(detail: string) {
    super(`Proof does not hold: ${detail}`);
    this.name = "ProofError";
  }
}

/** The text of a proof file. */
export function formatProofFile(proof: ProofFile): string {
  const lines = proof.type === "inclusion"
    ? [INCLUSION_PROOF_HEADER, `extra ${encodeBase64(proof.leafData)}`, `index ${proof.index}`]
    : [CONSISTENCY_PROOF_HEADER];
  for (const hash of proof.hashes) lines.push(encodeBase64(hash));
  const notes = proof.type === "inclusion"
    ? proof.checkpoint
    : proof.oldCheckpoint + proof.checkpoint;
  return `${lines.join("\n")}\n\n${notes}`;
}

/**
 * Parses a proof file strictly (nothing verified yet).
 *
 * @throws {SyntaxError} naming the line that is wrong.
 */
export function parseProofFile(text: string): ProofFile {
  const fail = (detail: string) => new SyntaxError(`Cannot parse proof: ${detail}`);
  const blank = text.indexOf("\n\n");
  if (blank < 0) throw fail("no blank line before the checkpoint");
  const [header, ...lines] = text.slice(0, blank).split("\n");
  const notes = text.slice(blank + 2);
  const hashesFrom = (start: number) =>
    lines.slice(start).map((line, i) => {
      const hash = decodeBase64(line);
      if (hash === undefined || hash.length !== HASH_BYTES) {
        throw fail(`line ${start + i + 2} is not the base64 of a 32-byte hash`);
      }
      return hash;
    });
  if (header === INCLUSION_PROOF_HEADER) {
    const extra = /^extra (\S+)$/.exec(lines[0] ?? "");
    const leafData = extra === null ? undefined : decodeBase64(extra[1]!);
    if (leafData === undefined || leafData.length !== HASH_BYTES) {
      throw fail("line 2 is not `extra <base64 of the row's 32-byte chain hash>`");
    }
    const index = /^index (0|[1-9][0-9]*)$/.exec(lines[1] ?? "");
    if (index === null || !Number.isSafeInteger(Number(index[1]))) {
      throw fail("line 3 is not `index <number>`");
    }
    return {
      type: "inclusion",
      index: Number(index[1]),
      leafData,
      hashes: hashesFrom(2),
      checkpoint: notes,
    };
  }
  if (header === CONSISTENCY_PROOF_HEADER) {
    const [oldCheckpoint, checkpoint] = splitNotes(notes);
    if (checkpoint.length === 0) throw fail("it holds one checkpoint, not two");
    return { type: "consistency", hashes: hashesFrom(0), oldCheckpoint, checkpoint };
  }
  throw fail(`line 1 is neither ${INCLUSION_PROOF_HEADER} nor ${CONSISTENCY_PROOF_HEADER}`);
}

/** What a proof showed. */
export type ProofVerdict =
  | { type: "inclusion"; seq: number; rowHash: string; checkpoint: Checkpoint }
  | { type: "consistency"; oldCheckpoint: Checkpoint; checkpoint: Checkpoint };

/**
 * Verifies a proof file with the log's verifier key: each checkpoint's
 * signature, then the proof against their roots.
 *
 * @throws {SyntaxError} when the file is malformed.
 * @throws {NoteVerificationError} when a checkpoint does not verify with `key`.
 * @throws {ProofError} when the proof does not hold.
 */
export async function verifyProofFile(text: string, key: VerifierKey): Promise<ProofVerdict> {
  const proof = parseProofFile(text);
  const checkpoint = await openCheckpoint(proof.checkpoint, key);
  if (proof.type === "inclusion") {
    const seq = proof.index + 1;
    const valid = verifyInclusion({
      leafHash: leafHash(proof.leafData),
      index: proof.index,
      size: checkpoint.size,
      proof: proof.hashes,
      root: checkpoint.root,
    });
    if (!valid) {
      throw new ProofError(
        `row ${seq} with hash ${
          bytesToHex(proof.leafData)
        } is not in the tree of ${checkpoint.size} rows`,
      );
    }
    return { type: "inclusion", seq, rowHash: bytesToHex(proof.leafData), checkpoint };
  }
  const oldCheckpoint = await openCheckpoint(proof.oldCheckpoint, key);
  const valid = verifyConsistency({
    oldSize: oldCheckpoint.size,
    newSize: checkpoint.size,
    oldRoot: oldCheckpoint.root,
    newRoot: checkpoint.root,
    proof: proof.hashes,
  });
  if (!valid) {
    throw new ProofError(
      `the tree of ${checkpoint.size} rows does not extend the tree of ${oldCheckpoint.size} rows`,
    );
  }
  return { type: "consistency", oldCheckpoint, checkpoint };
}

/** Splits two concatenated signed notes where the first one's signature lines end. */
function splitNotes(notes: string): [string, string] {
  const lines = notes.split("\n");
  let i = lines.indexOf("");
  if (i < 0) return [notes, ""];
  i++;
  while (i < lines.length && lines[i]!.startsWith(SIGNATURE_LINE_PREFIX)) i++;
  const first = lines.slice(0, i).join("\n") + "\n";
  return [first, notes.slice(first.length)];
}
