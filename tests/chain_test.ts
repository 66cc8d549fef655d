/**
 * The chain's bytes are a contract: known hashes recomputed from the fixtures,
 * BLAKE3 and RFC 8785 checked against published vectors.
 *
 * @module
 */

import assert from "node:assert/strict";
import { canonicalRow, ChainBrokenError, GENESIS_HASH, rowHash } from "../lib/chain.ts";
import { blake3Hex, canonicalJson } from "../lib/hash.ts";
import { buildDraft } from "../lib/draft.ts";
import { HOOK_EVENTS, type HookEvent } from "../lib/kinds.ts";
import { parseHookPayload } from "../lib/payload.ts";
import { completePayload } from "../lib/rows.ts";
import { stringifyJson } from "../lib/json.ts";

const FIXTURES = new URL("./fixtures/claude-code/", import.meta.url);

interface ChainFixtureRow {
  fixture: string;
  event: HookEvent;
  seq: number;
  kind: string;
  canonical: string;
  prev_hash: string;
  hash: string;
}

Deno.test({
  name: "blake3Hex() matches the published empty-input and 'abc' vectors",
  permissions: "none",
  fn() {
    assert.equal(
      blake3Hex(""),
      "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
    );
    assert.equal(
      blake3Hex("abc"),
      "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85",
    );
  },
});

Deno.test({
  name: "canonicalJson() follows RFC 8785: sorted keys by UTF-16, ES number forms, no whitespace",
  permissions: "none",
  fn() {
    assert.equal(
      canonicalJson({
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\ud83d\ude00": "Emoji",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis",
      }),
      // The RFC 8785 section 3.2.3 example: UTF-16 order puts U+20AC before U+1F600 before U+FB33.
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    assert.equal(
      canonicalJson({
        numbers: [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001, -0],
      }),
      '{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27,0]}',
    );
    assert.equal(
      canonicalJson({ b: [true, null, "x\n"], a: {} }),
      '{"a":{},"b":[true,null,"x\\n"]}',
    );
    assert.throws(() => canonicalJson({ bad: NaN }), TypeError);
  },
});

Deno.test({
  name: "stringifyJson() equals JSON.stringify and survives 100,000 levels of nesting",
  permissions: "none",
  fn() {
    const sample = {
      a: [1, "two", { three: null, four: [true, false] }],
      b: '\u2028"',
      c: undefined,
    };
    assert.equal(stringifyJson(sample), JSON.stringify(sample));
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    assert.equal(stringifyJson(JSON.parse(deep)), deep);
  },
});

Deno.test("rowHash() recomputes the stored chain fixture byte for byte", async () => {
  const rows: ChainFixtureRow[] = JSON.parse(
    await Deno.readTextFile(new URL("./fixtures/chain.json", import.meta.url)),
  );
  let prev = GENESIS_HASH;
  for (const expected of rows) {
    const text = await Deno.readTextFile(new URL(`${expected.fixture}.json`, FIXTURES));
    const parsed = parseHookPayload(JSON.parse(text), HOOK_EVENTS[expected.event]);
    const draft = buildDraft(parsed.payload, {
      traceId: "0123456789abcdef0123456789abcdef",
      capturedAtNs: 1764460800000000000 + expected.seq * 1000000,
    });
    const payload = completePayload({
      v: 1,
      id: "0".repeat(32),
      kind: draft.kind,
      payload: draft.payload,
      telemetry: {
        hook_kind: expected.event,
        started_at_ns: 0,
        ended_at_ns: 0,
        outcome: "ok",
        redactions: {},
      },
    }, { promptCount: 1, toolUseCount: 4, firstCapturedAtNs: 1764460800001000000 });
    const row = { seq: expected.seq, kind: draft.kind, payload };
    assert.equal(canonicalRow(row), expected.canonical, expected.fixture);
    assert.equal(expected.prev_hash, prev);
    assert.equal(rowHash(prev, row), expected.hash, expected.fixture);
    prev = expected.hash;
  }
});

Deno.test({
  name: "ChainBrokenError carries the seq and says where",
  permissions: "none",
  fn() {
    const error = new ChainBrokenError(42, "hash does not match the row's content");
    assert.equal(error.seq, 42);
    assert.equal(error.message, "Chain broken at seq 42: hash does not match the row's content");
  },
});
