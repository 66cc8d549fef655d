/**
 * The wire frame round-trips exactly and refuses what it must.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  decodeFrameBody,
  encodeFrame,
  type Frame,
  FRAME_VERSION,
  FrameDecoder,
  FrameError,
  MAX_FRAME_BYTES,
  newFrameId,
  parseFrameBody,
} from "../lib/frame.ts";

const FRAME: Frame = {
  v: FRAME_VERSION,
  id: "0123456789abcdef0123456789abcdef",
  kind: "memory.claude_tool_use",
  payload: {
    session_id: "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17",
    tool_name: "Bash",
    tool_args_redacted: { command: "echo <AWS_KEY>", nested: [1, null, { ü: "ß" }] },
    captured_at_ns: 1764460800123456800,
  },
  telemetry: {
    hook_kind: "posttooluse",
    started_at_ns: 1764460800100000000,
    ended_at_ns: 1764460800120000000,
    outcome: "ok",
    redactions: { aws_access_key: 1 },
  },
};

Deno.test({
  name: "encodeFrame() then FrameDecoder gives back the same frame, byte-split anywhere",
  permissions: "none",
  fn() {
    const bytes = encodeFrame(FRAME);
    assert.equal(new DataView(bytes.buffer).getUint32(0), bytes.length - 4);
    for (let cut = 0; cut <= bytes.length; cut += 7) {
      const decoder = new FrameDecoder();
      const results = [
        ...decoder.push(bytes.subarray(0, cut)),
        ...decoder.push(bytes.subarray(cut)),
      ];
      assert.equal(results.length, 1);
      assert.deepEqual(results[0], { frame: FRAME });
      assert.equal(decoder.pending, 0);
    }
  },
});

Deno.test({
  name:
    "encodeFrame(): the body is the frame's JSON in UTF-8, in ASCII and with 2-, 3- and 4-byte characters",
  permissions: "none",
  fn() {
    for (
      const text of ["plain ascii", "mật khẩu", "パスワード", "🔑 key", "a".repeat(70_000) + "ß"]
    ) {
      const frame = { ...FRAME, payload: { ...FRAME.payload, tool_name: text } };
      const bytes = encodeFrame(frame);
      const body = new TextEncoder().encode(JSON.stringify(frame));
      assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), body.length);
      assert.deepEqual(bytes.subarray(4), body);
    }
  },
});

Deno.test({
  name: "newFrameId: 32 lowercase hex, and 100,000 of them are all different",
  permissions: "none",
  fn() {
    const ids = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const id = newFrameId();
      assert.match(id, /^[0-9a-f]{32}$/);
      ids.add(id);
    }
    assert.equal(ids.size, 100_000);
    const frame = { ...FRAME, id: newFrameId() };
    assert.deepEqual(parseFrameBody(encodeFrame(frame).subarray(4)), frame);
  },
});

Deno.test({
  name: "FrameDecoder reads several frames from one connection",
  permissions: "none",
  fn() {
    const one = encodeFrame(FRAME);
    const two = encodeFrame({ ...FRAME, id: "f".repeat(32) });
    const results = new FrameDecoder().push(concat(one, two));
    assert.deepEqual(results.map((r) => "frame" in r && r.frame.id), [FRAME.id, "f".repeat(32)]);
  },
});

Deno.test({
  name:
    "FrameDecoder.split() yields each body unparsed, a bad one too; decodeFrameBody() parses it",
  permissions: "none",
  fn() {
    const good = encodeFrame(FRAME);
    const badBody = new TextEncoder().encode('{"v":1}');
    const bad = new Uint8Array(4 + badBody.length);
    new DataView(bad.buffer).setUint32(0, badBody.length);
    bad.set(badBody, 4);
    const decoder = new FrameDecoder();
    const pieces = [
      ...decoder.split(good.subarray(0, 9)),
      ...decoder.split(concat(good.subarray(9), bad)),
    ];
    assert.equal(pieces.length, 2);
    const [first, second] = pieces.map((piece) => "body" in piece ? piece.body : undefined);
    assert.deepEqual(first, good.subarray(4));
    assert.deepEqual(second, badBody);
    assert.deepEqual(decodeFrameBody(first!), { frame: FRAME });
    const rejected = decodeFrameBody(second!);
    assert.ok("error" in rejected && rejected.error instanceof FrameError);
    assert.equal(rejected.error.reason, "bad_shape");
  },
});

Deno.test({
  name: "FrameDecoder rejects a length over 16 MiB and stops",
  permissions: "none",
  fn() {
    const decoder = new FrameDecoder();
    const [result] = decoder.push(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
    assert.ok(result && "error" in result);
    assert.ok(result.error instanceof FrameError);
    assert.equal(result.error.reason, "oversize");
    assert.equal(
      result.error.message,
      "Cannot decode frame: length 4294967295 exceeds the 16 MiB limit",
    );
    assert.ok(decoder.fatal);
    assert.deepEqual(decoder.push(encodeFrame(FRAME)), []);
  },
});

Deno.test({
  name: "encodeFrame() refuses a body over 16 MiB with a RangeError",
  permissions: "none",
  fn() {
    const big = {
      ...FRAME,
      payload: { ...FRAME.payload, prompt_redacted: "x".repeat(MAX_FRAME_BYTES) },
    };
    assert.throws(() => encodeFrame(big), RangeError);
  },
});

const BAD_BODIES: Array<[string, unknown, RegExp]> = [
  ["an unknown key", { ...FRAME, extra: 1 }, /unknown key "extra"/],
  ["a wrong version", { ...FRAME, v: 2 }, /v must be 1/],
  ["an unknown kind", { ...FRAME, kind: "memory.other" }, /unknown kind/],
  ["a short id", { ...FRAME, id: "abc" }, /id must be 32 hex/],
  ["no session id", { ...FRAME, payload: {} }, /payload.session_id missing/],
  [
    "a fractional time",
    { ...FRAME, payload: { ...FRAME.payload, captured_at_ns: 1.5 } },
    /captured_at_ns must be an integer from 0 to 2\^63 - 1/,
  ],
  [
    "a time past what the store's INTEGER holds",
    { ...FRAME, payload: { ...FRAME.payload, captured_at_ns: 9.3e18 } },
    /captured_at_ns must be an integer from 0 to 2\^63 - 1/,
  ],
  [
    "a time as text",
    { ...FRAME, payload: { ...FRAME.payload, captured_at_ns: "soon" } },
    /captured_at_ns/,
  ],
  [
    "an unknown outcome",
    { ...FRAME, telemetry: { ...FRAME.telemetry, outcome: "meh" } },
    /outcome/,
  ],
  [
    "an unknown telemetry key",
    { ...FRAME, telemetry: { ...FRAME.telemetry, extra: 1 } },
    /telemetry.extra/,
  ],
  [
    "a negative redaction count",
    { ...FRAME, telemetry: { ...FRAME.telemetry, redactions: { a: -1 } } },
    /redactions/,
  ],
];

Deno.test({
  name: "parseFrameBody() is strict: each wrong shape is a FrameError naming the field",
  permissions: "none",
  async fn(t) {
    for (const [name, body, message] of BAD_BODIES) {
      await t.step(name, () => {
        const bytes = new TextEncoder().encode(JSON.stringify(body));
        assert.throws(() => parseFrameBody(bytes), (error: unknown) => {
          assert.ok(error instanceof FrameError);
          assert.equal(error.reason, "bad_shape");
          assert.match(error.message, message);
          return true;
        });
      });
    }
    assert.throws(() => parseFrameBody(new Uint8Array([0xff])), /Cannot decode frame/);
  },
});

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
