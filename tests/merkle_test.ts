/**
 * The Merkle tree against the RFC 6962 reference vectors of Certificate
 * Transparency (the 8 leaves, the roots of every size 0..8, the audit paths
 * and consistency proofs of transparency-dev/merkle's `proof/verify_test.go`),
 * typed in as literals, plus every proof of every small tree checked both
 * ways and corrupted the ways that reference test corrupts them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2";
import { sha256 } from "../lib/_sha256.ts";
import {
  bytesToHex,
  consistencyProof,
  EMPTY_ROOT,
  hexToBytes,
  inclusionProof,
  leafHash,
  MerkleFrontier,
  merkleRoot,
  rowLeafHash,
  verifyConsistency,
  verifyInclusion,
} from "../lib/merkle.ts";

const LEAF_DATA = [
  "",
  "00",
  "10",
  "2021",
  "3031",
  "40414243",
  "5051525354555657",
  "606162636465666768696a6b6c6d6e6f",
].map(hexToBytes);

/** ROOTS[n] is the root of the first n leaves. */
const ROOTS = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

/** Audit paths; `index` is 0-based (the reference lists leaf numbers from 1). */
const INCLUSION = [
  { index: 0, size: 1, proof: [] },
  {
    index: 0,
    size: 8,
    proof: [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
  {
    index: 2,
    size: 3,
    proof: ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"],
  },
  {
    index: 1,
    size: 5,
    proof: [
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  },
];

const CONSISTENCY = [
  { oldSize: 1, newSize: 1, proof: [] },
  {
    oldSize: 1,
    newSize: 8,
    proof: [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    oldSize: 6,
    newSize: 8,
    proof: [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
  {
    oldSize: 2,
    newSize: 5,
    proof: [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  },
  {
    oldSize: 6,
    newSize: 7,
    proof: [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
];

const LEAVES = LEAF_DATA.map(leafHash);
const root = (size: number) => hexToBytes(ROOTS[size]!);
const SOME_HASH = hexToBytes("abacaba000000000000000000000000000000000000000000060061e00123456");

/** The corruptions of the reference test: each must fail to verify. */
function corruptedProofs(proof: Uint8Array[]): [string, Uint8Array[]][] {
  const cases: [string, Uint8Array[]][] = [
    ["trailing garbage", [...proof, new Uint8Array(0)]],
    ["trailing hash", [...proof, SOME_HASH]],
    ["preceding garbage", [new Uint8Array(0), ...proof]],
    ["preceding hash", [SOME_HASH, ...proof]],
  ];
  if (proof.length > 0) {
    cases.push(["removed component", proof.slice(0, -1)]);
    cases.push(["preceding proof[0]", [proof[0]!, ...proof]]);
  }
  if (proof.length > 1) {
    cases.push(["inserted component", [proof[0]!, SOME_HASH, ...proof.slice(1)]]);
  }
  proof.forEach((_, i) => {
    const flipped = proof.map((hash) => hash.slice());
    flipped[i]![0]! ^= 8;
    cases.push([`modified proof[${i}]`, flipped]);
  });
  return cases;
}

Deno.test({
  name: "merkleRoot() and MerkleFrontier match the RFC 6962 roots of every size 0..8",
  permissions: "none",
  fn() {
    assert.equal(bytesToHex(EMPTY_ROOT), ROOTS[0]);
    const frontier = new MerkleFrontier();
    assert.equal(bytesToHex(frontier.root()), ROOTS[0]);
    for (let size = 0; size <= 8; size++) {
      assert.equal(bytesToHex(merkleRoot(LEAVES, size)), ROOTS[size], `merkleRoot size ${size}`);
      if (size > 0) {
        frontier.appendLeafHash(LEAVES[size - 1]!);
        assert.equal(frontier.size, size);
        assert.equal(bytesToHex(frontier.root()), ROOTS[size], `frontier size ${size}`);
      }
    }
  },
});

Deno.test({
  name: "MerkleFrontier.copy() grows apart from the original",
  permissions: "none",
  fn() {
    const frontier = new MerkleFrontier();
    for (const leaf of LEAVES.slice(0, 3)) frontier.appendLeafHash(leaf);
    const copy = frontier.copy();
    for (const leaf of LEAVES.slice(3)) copy.appendLeafHash(leaf);
    assert.equal(bytesToHex(frontier.root()), ROOTS[3]);
    assert.equal(bytesToHex(copy.root()), ROOTS[8]);
  },
});

Deno.test({
  name:
    "inclusionProof() gives the reference audit paths, verifyInclusion() accepts them and no corruption",
  permissions: "none",
  async fn(t) {
    for (const vector of INCLUSION) {
      await t.step(`leaf ${vector.index} of ${vector.size}`, () => {
        const proof = inclusionProof(LEAVES, { index: vector.index, size: vector.size });
        assert.deepEqual(proof.map(bytesToHex), vector.proof);
        const check = {
          leafHash: LEAVES[vector.index]!,
          index: vector.index,
          size: vector.size,
          proof,
          root: root(vector.size),
        };
        assert.ok(verifyInclusion(check));
        assert.ok(!verifyInclusion({ ...check, index: vector.index + 1 }), "index + 1");
        assert.ok(!verifyInclusion({ ...check, index: vector.index ^ 2 }), "index ^ 2");
        if (vector.index > 0) assert.ok(!verifyInclusion({ ...check, index: vector.index - 1 }));
        assert.ok(!verifyInclusion({ ...check, size: vector.size * 2 }), "size * 2");
        assert.ok(!verifyInclusion({ ...check, size: Math.floor(vector.size / 2) }), "size / 2");
        assert.ok(!verifyInclusion({ ...check, leafHash: leafHash(hexToBytes("ff")) }), "leaf");
        assert.ok(!verifyInclusion({ ...check, root: EMPTY_ROOT }), "empty root");
        assert.ok(!verifyInclusion({ ...check, root: SOME_HASH }), "random root");
        for (const [name, corrupted] of corruptedProofs(proof)) {
          assert.ok(!verifyInclusion({ ...check, proof: corrupted }), name);
        }
      });
    }
  },
});

Deno.test({
  name:
    "consistencyProof() gives the reference proofs, verifyConsistency() accepts them and no corruption",
  permissions: "none",
  async fn(t) {
    for (const vector of CONSISTENCY) {
      await t.step(`${vector.oldSize} to ${vector.newSize}`, () => {
        const proof = consistencyProof(LEAVES, vector);
        assert.deepEqual(proof.map(bytesToHex), vector.proof);
        const check = {
          ...vector,
          oldRoot: root(vector.oldSize),
          newRoot: root(vector.newSize),
          proof,
        };
        assert.ok(verifyConsistency(check));
        if (proof.length === 0) return;
        assert.ok(!verifyConsistency({ ...check, oldSize: vector.oldSize - 1 }), "oldSize - 1");
        assert.ok(!verifyConsistency({ ...check, oldSize: vector.oldSize + 1 }), "oldSize + 1");
        assert.ok(!verifyConsistency({ ...check, oldSize: vector.oldSize ^ 2 }), "oldSize ^ 2");
        assert.ok(!verifyConsistency({ ...check, newSize: vector.newSize * 2 }), "newSize * 2");
        assert.ok(!verifyConsistency({ ...check, newSize: vector.newSize / 2 }), "newSize / 2");
        assert.ok(!verifyConsistency({ ...check, oldRoot: SOME_HASH }), "wrong old root");
        assert.ok(!verifyConsistency({ ...check, newRoot: SOME_HASH }), "wrong new root");
        assert.ok(
          !verifyConsistency({ ...check, oldRoot: check.newRoot, newRoot: check.oldRoot }),
          "swapped roots",
        );
        assert.ok(!verifyConsistency({ ...check, proof: [] }), "empty proof");
        for (const [name, corrupted] of corruptedProofs(proof)) {
          assert.ok(!verifyConsistency({ ...check, proof: corrupted }), name);
        }
      });
    }
  },
});

Deno.test({
  name: "verifyConsistency() follows the reference edge cases of empty and equal trees",
  permissions: "none",
  fn() {
    const a = SOME_HASH;
    const b = EMPTY_ROOT;
    const cases = [
      { oldSize: 0, newSize: 0, oldRoot: a, newRoot: a, proof: [], valid: true },
      { oldSize: 0, newSize: 0, oldRoot: a, newRoot: b, proof: [], valid: false },
      { oldSize: 0, newSize: 1, oldRoot: a, newRoot: b, proof: [], valid: true },
      { oldSize: 1, newSize: 1, oldRoot: b, newRoot: b, proof: [], valid: true },
      { oldSize: 1, newSize: 1, oldRoot: a, newRoot: b, proof: [], valid: false },
      { oldSize: 1, newSize: 0, oldRoot: a, newRoot: b, proof: [], valid: false },
      { oldSize: 2, newSize: 1, oldRoot: a, newRoot: b, proof: [], valid: false },
      { oldSize: 1, newSize: 2, oldRoot: a, newRoot: b, proof: [], valid: false },
      { oldSize: 0, newSize: 1, oldRoot: b, newRoot: b, proof: [b], valid: false },
      { oldSize: 1, newSize: 1, oldRoot: b, newRoot: b, proof: [b], valid: false },
    ];
    for (const { valid, ...check } of cases) {
      assert.equal(
        verifyConsistency(check),
        valid,
        JSON.stringify({ ...check, proof: check.proof.length }),
      );
    }
  },
});

Deno.test({
  name: "every inclusion and consistency proof of every tree up to 40 leaves verifies",
  permissions: "none",
  fn() {
    const leaves = Array.from({ length: 40 }, (_, i) => leafHash(new Uint8Array([i, i >> 3])));
    const roots = Array.from({ length: 41 }, (_, size) => merkleRoot(leaves, size));
    for (let size = 1; size <= leaves.length; size++) {
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(leaves, { index, size });
        assert.ok(
          verifyInclusion({ leafHash: leaves[index]!, index, size, proof, root: roots[size]! }),
        );
        if (index + 1 < size) {
          const check = {
            leafHash: leaves[index]!,
            index: index + 1,
            size,
            proof,
            root: roots[size]!,
          };
          assert.ok(!verifyInclusion(check), `leaf ${index} passed as ${index + 1} of ${size}`);
        }
      }
      for (let oldSize = 0; oldSize <= size; oldSize++) {
        const proof = consistencyProof(leaves, { oldSize, newSize: size });
        const check = {
          oldSize,
          newSize: size,
          oldRoot: roots[oldSize]!,
          newRoot: roots[size]!,
          proof,
        };
        assert.ok(verifyConsistency(check), `${oldSize} to ${size}`);
        if (oldSize > 0 && oldSize < size) {
          assert.ok(!verifyConsistency({ ...check, oldRoot: roots[oldSize - 1]! }));
        }
      }
    }
  },
});

Deno.test({
  name: "proof functions refuse an index or size outside the tree",
  permissions: "none",
  fn() {
    assert.throws(() => inclusionProof(LEAVES, { index: 8 }), RangeError);
    assert.throws(() => inclusionProof(LEAVES, { index: 0, size: 9 }), RangeError);
    assert.throws(() => inclusionProof(LEAVES, { index: -1 }), RangeError);
    assert.throws(() => consistencyProof(LEAVES, { oldSize: 5, newSize: 4 }), RangeError);
    assert.throws(() => merkleRoot(LEAVES, 9), RangeError);
  },
});

Deno.test({
  name: "rowLeafHash() hashes the 32 bytes a chain hash spells and refuses anything else",
  permissions: "none",
  fn() {
    const chainHash = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";
    assert.deepEqual(rowLeafHash(chainHash), leafHash(hexToBytes(chainHash)));
    for (const bad of ["", chainHash.toUpperCase(), chainHash.slice(1), `${chainHash}00`]) {
      assert.throws(() => rowLeafHash(bad), TypeError);
    }
  },
});

Deno.test({
  name: "MerkleFrontier takes 100,000 leaves and agrees with merkleRoot()",
  permissions: "none",
  fn() {
    const leaves = Array.from(
      { length: 100_000 },
      (_, i) => leafHash(new Uint8Array(new Uint32Array([i]).buffer)),
    );
    const frontier = new MerkleFrontier();
    const start = performance.now();
    for (const leaf of leaves) frontier.appendLeafHash(leaf);
    const root = frontier.root();
    const elapsed = performance.now() - start;
    assert.deepEqual(root, merkleRoot(leaves));
    // A loose bound: the point is that nothing is quadratic.
    assert.ok(elapsed < 5_000, `100,000 appends took ${elapsed.toFixed(0)} ms`);
  },
});

Deno.test({
  name:
    "the tree's SHA-256 gives the FIPS 180-4 vectors and agrees with @noble/hashes for lengths 0..300",
  permissions: "none",
  fn() {
    const text = (value: string) => new TextEncoder().encode(value);
    assert.equal(
      bytesToHex(sha256(text("abc"))),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    assert.equal(
      bytesToHex(sha256(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    for (let length = 0; length <= 300; length++) {
      const data = crypto.getRandomValues(new Uint8Array(length));
      assert.deepEqual(sha256(data), nobleSha256(data), `length ${length}`);
    }
  },
});
