/**
 * Hashing and canonical JSON against expected values computed another way:
 * BLAKE3's published test vectors, RFC 8785's own examples, and the chain
 * fixture re-derived by the independent oracles of `_oracle.ts` (so the
 * fixture is not merely compared with what the code once wrote).
 *
 * @module
 */

import assert from "node:assert/strict";
import { blake3Hex, canonicalJson } from "../lib/hash.ts";
import { canonicalRow, GENESIS_HASH, rowHash } from "../lib/chain.ts";
import { oracleBlake3Hex, oracleCanonicalJson } from "./_oracle.ts";

/** The official vectors' input: bytes 0, 1, …, 250, 0, 1, … of the given length. */
function vectorInput(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

/** From BLAKE3-team/BLAKE3 `test_vectors/test_vectors.json` (the first 32 bytes of each hash). */
const BLAKE3_VECTORS: Array<[input: number | string, hash: string]> = [
  [0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"],
  [1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"],
  [63, "e9bc37a594daad83be9470df7f7b3798297c3d834ce80ba85d6e207627b7db7b"],
  [64, "4eed7141ea4a5cd4b788606bd23f46e212af9cacebacdc7d1f4c6dc7f2511b98"],
  [1023, "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11"],
  [1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7"],
  [1025, "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"],
  [2048, "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a"],
  [3072, "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd2"],
  ["abc", "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"],
  ["IETF", "83a2de1ee6f4e6ab686889248f4ec0cf4cc5709446a682ffd1cbb4d6165181e2"],
];

Deno.test(
  "blake3Hex() and the oracle give BLAKE3's published vectors",
  { permissions: "none" },
  () => {
    for (const [input, hash] of BLAKE3_VECTORS) {
      const data = typeof input === "number" ? vectorInput(input) : input;
      assert.equal(blake3Hex(data), hash, `input ${input}`);
      assert.equal(oracleBlake3Hex(data), hash, `oracle, input ${input}`);
    }
  },
);

/** RFC 8785 section 3.2.2's example, as its text (the escapes are the point). */
const RFC8785_INPUT = String.raw`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`;
const RFC8785_OUTPUT = String
  .raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;

/** RFC 8785 section 3.2.3's sorting example: keys, then their values in the canonical order. */
const RFC8785_SORT_INPUT = String.raw`{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`;
const RFC8785_SORTED_VALUES = [
  "Carriage Return",
  "One",
  "Control",
  "Latin Small Letter O With Diaeresis",
  "Euro Sign",
  "Emoji: Grinning Face",
  "Hebrew Letter Dalet With Dagesh",
];

/** RFC 8785 appendix B: IEEE 754 bit patterns and the text JCS writes for them. */
const RFC8785_NUMBERS: Array<[bits: string, text: string]> = [
  ["0000000000000000", "0"],
  ["8000000000000000", "0"],
  ["0000000000000001", "5e-324"],
  ["8000000000000001", "-5e-324"],
  ["7fefffffffffffff", "1.7976931348623157e+308"],
  ["ffefffffffffffff", "-1.7976931348623157e+308"],
  ["4340000000000000", "9007199254740992"],
  ["c340000000000000", "-9007199254740992"],
  ["4430000000000000", "295147905179352830000"],
  ["44b52d02c7e14af6", "1e+23"],
  ["444b1ae4d6e2ef50", "1e+21"],
  ["3eb0c6f7a0b5ed8d", "0.000001"],
  ["41b3de4355555555", "333333333.3333333"],
];

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

Deno.test(
  "canonicalJson() and the oracle give RFC 8785's examples",
  { permissions: "none" },
  () => {
    const example = JSON.parse(RFC8785_INPUT);
    assert.equal(canonicalJson(example), RFC8785_OUTPUT);
    assert.equal(oracleCanonicalJson(example), RFC8785_OUTPUT);
    for (const write of [canonicalJson, oracleCanonicalJson]) {
      // Read from the text: a parsed object would put the key "1" first whatever the order.
      const sorted = write(JSON.parse(RFC8785_SORT_INPUT));
      const positions = RFC8785_SORTED_VALUES.map((value) => sorted.indexOf(`"${value}"`));
      assert.ok(positions.every((at, i) => at > (positions[i - 1] ?? 0)), sorted);
      for (const [bits, text] of RFC8785_NUMBERS) assert.equal(write(fromBits(bits)), text, bits);
    }
  },
);

Deno.test(
  "canonicalJson() agrees with the oracle on awkward values",
  { permissions: "none" },
  () => {
    const awkward = {
      z: [undefined, -0, 1e21, 1e-7, "\u2028\u2029\u007f", "\ud800 alone", "\udc00"],
      "": { b: 1, a: [{}, []], A: null },
      "\u00e9": "é",
      e: "\u0001\u001f\b\f",
    };
    const withoutUndefined = JSON.parse(JSON.stringify(awkward));
    assert.equal(canonicalJson(awkward), oracleCanonicalJson(withoutUndefined));
  },
);

interface ChainFixtureRow {
  seq: number;
  kind: string;
  canonical: string;
  prev_hash: string;
  hash: string;
}

Deno.test("the chain fixture re-derives with the oracles: canonical text, hash links, content hashes", async () => {
  const rows: ChainFixtureRow[] = JSON.parse(
    await Deno.readTextFile(new URL("./fixtures/chain.json", import.meta.url)),
  );
  assert.ok(rows.length >= 4);
  let prev = "0".repeat(64);
  assert.equal(GENESIS_HASH, prev);
  for (const row of rows) {
    const parsed = JSON.parse(row.canonical) as {
      kind: string;
      payload: Record<string, unknown>;
      seq: number;
    };
    assert.deepEqual(Object.keys(parsed), ["kind", "payload", "seq"]);
    assert.equal(parsed.seq, row.seq);
    assert.equal(parsed.kind, row.kind);
    assert.equal(oracleCanonicalJson(parsed), row.canonical, `seq ${row.seq} is canonical`);
    assert.equal(row.prev_hash, prev, `seq ${row.seq} links to the row before`);
    assert.equal(oracleBlake3Hex(prev + row.canonical), row.hash, `seq ${row.seq}`);
    // And the code under test agrees with the oracle on the same row.
    assert.equal(canonicalRow(parsed), row.canonical);
    assert.equal(rowHash(prev, parsed), row.hash);
    const payload = parsed.payload;
    if (typeof payload.prompt_redacted === "string") {
      assert.equal(payload.prompt_hash, oracleBlake3Hex(payload.prompt_redacted));
    }
    prev = row.hash;
  }
});

Deno.test("rowHash() of a literal row is the literal hash the oracle gives", {
  permissions: "none",
}, () => {
  const row = { seq: 1, kind: "memory.claude_prompt", payload: { b: "é", a: 1 } };
  const text = '{"kind":"memory.claude_prompt","payload":{"a":1,"b":"é"},"seq":1}';
  assert.equal(canonicalRow(row), text);
  assert.equal(rowHash(GENESIS_HASH, row), oracleBlake3Hex(GENESIS_HASH + text));
  assert.notEqual(rowHash("1".repeat(64), row), rowHash(GENESIS_HASH, row));
});
