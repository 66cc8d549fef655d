/**
 * The 16 MiB frame limit at its edge: bodies of exactly 16 MiB − 1, 16 MiB
 * and 16 MiB + 1 bytes through the encoder, the decoder, the real daemon and
 * the hook's stdin. The limit is written here as a literal, not read from
 * `MAX_FRAME_BYTES`, so that raising it fails these tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { encodeFrame, type Frame, FrameDecoder } from "../lib/frame.ts";
import { readRows, runHook, sendRaw, startTestDaemon, testFrame, waitForRows } from "./_daemon.ts";

/** 16 MiB, by value. */
const LIMIT = 16_777_216;

/** A valid frame whose JSON body is exactly `bytes` long (`wide` fills with 2-byte characters). */
function frameOfSize(index: number, bytes: number, options: { wide?: boolean } = {}): Frame {
  const frame = testFrame(index, { text: "" });
  const rest = bytes - new TextEncoder().encode(JSON.stringify(frame)).length;
  const text = options.wide
    ? "é".repeat(Math.floor(rest / 2)) + "a".repeat(rest % 2)
    : "a".repeat(rest);
  return testFrame(index, { text });
}

function lengthPrefix(length: number): Uint8Array {
  const prefix = new Uint8Array(4);
  new DataView(prefix.buffer).setUint32(0, length);
  return prefix;
}

Deno.test("encodeFrame(): a body of 16 MiB − 1 and of 16 MiB is encoded, 16 MiB + 1 is refused", async (t) => {
  for (const wide of [false, true]) {
    await t.step(wide ? "2-byte characters" : "ASCII", () => {
      for (const size of [LIMIT - 1, LIMIT]) {
        const bytes = encodeFrame(frameOfSize(1, size, { wide }));
        assert.equal(bytes.length, size + 4);
        assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), size);
      }
      assert.throws(
        () => encodeFrame(frameOfSize(1, LIMIT + 1, { wide })),
        (error: unknown) =>
          error instanceof RangeError && /exceeds the 16 MiB limit/.test(error.message),
      );
    });
  }
});

Deno.test("FrameDecoder: lengths of 16 MiB − 1 and 16 MiB decode; 16 MiB + 1 stops the stream at once", () => {
  for (const size of [LIMIT - 1, LIMIT]) {
    const decoder = new FrameDecoder();
    const encoded = encodeFrame(frameOfSize(2, size));
    // In two pieces, split inside the body.
    assert.deepEqual(decoder.push(encoded.subarray(0, 1000)), []);
    const decoded = decoder.push(encoded.subarray(1000));
    assert.equal(decoded.length, 1);
    assert.ok("frame" in decoded[0]!, `size ${size}`);
    assert.equal(decoder.fatal, false);
    assert.equal(decoder.pending, 0);
  }
  const decoder = new FrameDecoder();
  // The prefix alone is enough: the decoder must not wait for 16 MiB + 1 bytes to refuse them.
  const pieces = decoder.split(lengthPrefix(LIMIT + 1));
  assert.equal(pieces.length, 1);
  const [piece] = pieces;
  assert.ok(piece !== undefined && "error" in piece);
  assert.equal(piece.error.reason, "oversize");
  assert.equal(
    piece.error.message,
    "Cannot decode frame: length 16777217 exceeds the 16 MiB limit",
  );
  assert.equal(decoder.fatal, true);
  assert.deepEqual(decoder.split(new Uint8Array(10)), []);
});

Deno.test("daemon: stores frames of 16 MiB − 1 and 16 MiB; refuses 16 MiB + 1 and takes the next frame", async () => {
  const daemon = await startTestDaemon();
  try {
    await sendRaw(daemon.socket, encodeFrame(frameOfSize(1, LIMIT - 1)));
    await sendRaw(daemon.socket, encodeFrame(frameOfSize(2, LIMIT)));
    await waitForRows(daemon.db, 2, { timeoutMs: 30_000 });
    // A valid frame's start after the oversize prefix: the daemon must not read on.
    const oversize = new Uint8Array(4 + 64 * 1024);
    oversize.set(lengthPrefix(LIMIT + 1));
    await sendRaw(daemon.socket, oversize);
    await sendRaw(daemon.socket, encodeFrame(testFrame(3)));
    const rows = await waitForRows(daemon.db, 3, { timeoutMs: 30_000 });
    assert.deepEqual(
      rows.map((row) => String(row.payload.prompt_redacted).length),
      [LIMIT - 1, LIMIT].map((size) => frameOfSize(0, size).payload.prompt_redacted as string)
        .map((text) => text.length).concat(["prompt number 3".length]),
    );
    assert.match(daemon.stderr(), /frame rejected: .*length 16777217 exceeds the 16 MiB limit/);
    assert.equal(readRows(daemon.db).length, 3);
  } finally {
    await daemon.stop();
  }
});

Deno.test("hook: stdin of exactly 16 MiB is read; 16 MiB + 1 is refused as over the limit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-limit-" });
  try {
    const paths = { socket: `${dir}/none.sock`, traceDir: `${dir}/traces` };
    const head = JSON.stringify({
      session_id: "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17",
      hook_event_name: "UserPromptSubmit",
      cwd: "/w",
      prompt: "",
    }).slice(0, -2);
    for (const size of [LIMIT, LIMIT + 1]) {
      const input = new TextEncoder().encode(head + "a".repeat(size - head.length - 2) + '"}');
      assert.equal(input.length, size);
      const run = await runHook(paths, "userpromptsubmit", input);
      assert.equal(run.code, 0);
      if (size === LIMIT) {
        // Read whole and parsed; the frame's own fields take it past 16 MiB, so
        // the prompt is cut to fit and the hook goes on to send it (no daemon here).
        assert.doesNotMatch(run.stderr, /invalid_payload/);
        assert.match(run.stderr, /WARN socket_unavailable/);
      } else {
        assert.match(run.stderr, /WARN invalid_payload: stdin exceeds the 16 MiB limit/);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
