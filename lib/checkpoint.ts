/**
 * C2SP transparency log checkpoints (https://c2sp.org/tlog-checkpoint): the
 * body of a signed note naming a log, a tree size and its Merkle root.
 *
 *     cyberos-memory/5f0c2b9e61d84a37
 *     1234
 *     <base64 of the 32-byte root>
 *     <optional extension lines>
 *
 * Our checkpoints are signed by one key whose name is the origin, so a
 * checkpoint opens only with the key of the log it names.
 *
 * @module
 */

import { HASH_BYTES } from "./merkle.ts";
import {
  decodeBase64,
  encodeBase64,
  type NoteSigner,
  NoteVerificationError,
  type VerifierKey,
  verifyNote,
} from "./note.ts";

/** A checkpoint's content. */
export interface Checkpoint {
  /** The log's name, unique to one log (one store). */
  origin: string;
  /** How many leaves the tree has. */
  size: number;
  /** The Merkle root of those leaves (32 bytes). */
  root: Uint8Array;
  /** Extension lines after the root, each non-empty. */
  extensions: string[];
}

/** The checkpoint body: origin, size, base64 root, extensions, each line ending in a newline. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  return [
    checkpoint.origin,
    String(checkpoint.size),
    encodeBase64(checkpoint.root),
    ...checkpoint.extensions,
  ].map((line) => `${line}\n`).join("");
}

/**
 * Parses a checkpoint body strictly: a non-empty origin, a decimal size
 * without sign or leading zeros, the canonical base64 of 32 bytes, then
 * non-empty extension lines; every line ends in a newline.
 *
 * @throws {SyntaxError} naming the line that is wrong.
 */
export function parseCheckpoint(body: string): Checkpoint {
  const fail = (detail: string) => new SyntaxError(`Cannot parse checkpoint: ${detail}`);
  if (!body.endsWith("\n")) throw fail("the body does not end in a newline");
  const [origin, sizeText, rootText, ...extensions] = body.slice(0, -1).split("\n");
  if (origin === undefined || origin.length === 0 || /\p{Cc}/u.test(origin)) {
    throw fail("line 1 (origin) is empty");
  }
  if (sizeText === undefined || !/^(?:0|[1-9][0-9]*)$/.test(sizeText)) {
    throw fail("line 2 (tree size) is not a decimal number");
  }
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) throw fail(`line 2 (tree size) ${sizeText} is too large`);
  const root = rootText === undefined ? undefined : decodeBase64(rootText);
  if (root === undefined || root.length !== HASH_BYTES) {
    throw fail("line 3 (root hash) is not the base64 of 32 bytes");
  }
  extensions.forEach((line, i) => {
    if (line.length === 0) throw fail(`line ${i + 4} (extension) is empty`);
  });
  return { origin, size, root, extensions };
}

/** Signs a checkpoint: its body as a signed note by `signer`. */
export function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): Promise<string> {
  return signer.sign(formatCheckpoint(checkpoint));
}

/**
 * Verifies a signed checkpoint with `key` and parses it; the origin must be
 * the key's name.
 *
 * @throws {SyntaxError} when the note or its body is malformed.
 * @throws {NoteVerificationError} when the signature does not verify or the
 * checkpoint names another log.
 */
export async function openCheckpoint(message: string, key: VerifierKey): Promise<Checkpoint> {
  const checkpoint = parseCheckpoint(await verifyNote(message, key));
  if (checkpoint.origin !== key.name) {
    throw new NoteVerificationError(
      `the checkpoint's origin ${checkpoint.origin} is not the key's name ${key.name}`,
    );
  }
  return checkpoint;
}
