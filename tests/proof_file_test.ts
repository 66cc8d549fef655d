/**
 * Proof files: what `formatProofFile` writes parses back, and malformed
 * files are refused naming the line; a proof against another log's key, or
 * with the checkpoints of a consistency proof swapped, does not hold.
 *
 * @module
 */

import assert from "node:assert/strict";
import { signCheckpoint } from "../lib/checkpoint.ts";
import { consistencyProof, inclusionProof, leafHash, merkleRoot } from "../lib/merkle.ts";
import { NoteSigner, NoteVerificationError, parseVerifierKey } from "../lib/note.ts";
import { formatProofFile, parseProofFile, ProofError, verifyProofFile } from "../lib/proof_file.ts";

const ORIGIN = "cyberos-memory/00112233aabbccdd";
const LEAF_DATA = Array.from({ length: 11 }, (_, i) => new Uint8Array(32).fill(i));
const LEAVES = LEAF_DATA.map(leafHash);

async function fixtures() {
  const signer = await NoteSigner.fromPrivateKey(ORIGIN, await NoteSigner.generatePrivateKey());
  const checkpointOf = (size: number) =>
    signCheckpoint(
      { origin: ORIGIN, size, root: merkleRoot(LEAVES, size), extensions: [] },
      signer,
    );
  const inclusion = formatProofFile({
    type: "inclusion",
    index: 6,
    leafData: LEAF_DATA[6]!,
    hashes: inclusionProof(LEAVES, { index: 6 }),
    checkpoint: await checkpointOf(11),
  });
  const consistency = formatProofFile({
    type: "consistency",
    hashes: consistencyProof(LEAVES, { oldSize: 5 }),
    oldCheckpoint: await checkpointOf(5),
    checkpoint: await checkpointOf(11),
  });
  return { key: parseVerifierKey(signer.verifierKey), inclusion, consistency, checkpointOf };
}

Deno.test({
  name: "verifyProofFile() accepts what formatProofFile() writes, for both proofs",
  permissions: "none",
  async fn() {
    const { key, inclusion, consistency } = await fixtures();
    const included = await verifyProofFile(inclusion, key);
    assert.equal(included.type === "inclusion" && included.seq, 7);
    const extended = await verifyProofFile(consistency, key);
    assert.ok(extended.type === "consistency");
    assert.equal(extended.oldCheckpoint.size, 5);
    assert.equal(extended.checkpoint.size, 11);
  },
});

Deno.test({
  name: "verifyProofFile() refuses another key, another row and swapped checkpoints",
  permissions: "none",
  async fn() {
    const { key, inclusion, consistency, checkpointOf } = await fixtures();
    const stranger = await NoteSigner.fromPrivateKey(ORIGIN, await NoteSigner.generatePrivateKey());
    await assert.rejects(
      verifyProofFile(inclusion, parseVerifierKey(stranger.verifierKey)),
      NoteVerificationError,
    );
    const otherRow = inclusion.replace(/^extra .*$/m, `extra ${btoa("\x09".repeat(32))}`);
    await assert.rejects(verifyProofFile(otherRow, key), ProofError);
    const swapped = formatProofFile({
      ...(parseProofFile(consistency) as { type: "consistency"; hashes: Uint8Array[] }),
      oldCheckpoint: await checkpointOf(11),
      checkpoint: await checkpointOf(5),
    });
    await assert.rejects(verifyProofFile(swapped, key), ProofError);
  },
});

Deno.test({
  name: "parseProofFile() refuses malformed files naming the line",
  permissions: "none",
  async fn() {
    const { inclusion, consistency } = await fixtures();
    const cases: [string, string, RegExp][] = [
      ["unknown header", inclusion.replace("c2sp.org/tlog-proof@v1", "tlog-proof"), /line 1/],
      ["no extra", inclusion.replace(/^extra .*\n/m, ""), /line 2/],
      ["bad index", inclusion.replace("index 6", "index 06"), /line 3/],
      ["short hash", inclusion.replace(/^index 6\n.*$/m, "index 6\nAAAA"), /line 4/],
      ["no blank line", inclusion.replaceAll("\n\n", "\n"), /no blank line/],
      [
        "one checkpoint",
        formatProofFile({ ...parseProofFile(consistency), checkpoint: "" }),
        /one checkpoint/,
      ],
    ];
    for (const [name, text, message] of cases) {
      assert.throws(() => parseProofFile(text), message, name);
    }
  },
});
