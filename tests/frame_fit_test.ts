/**
 * `encodeFittedFrame()`: a frame whose redacted payload grew past 16 MiB is
 * cut (longest strings first, marked) instead of lost, a frame that fits is
 * left alone; and through the installed hook, a 16 MiB prompt whose
 * redaction grows past the limit is still stored.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type Frame, FRAME_VERSION, MAX_FRAME_BYTES } from "../lib/frame.ts";
import { CUT_MARKER, encodeFittedFrame } from "../lib/frame_fit.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { readRows, runHook, startTestDaemon, waitForRows } from "./_daemon.ts";

/** The payload of an encoded frame, read back without the row checks of `parseFrameBody`. */
function payloadOf(bytes: Uint8Array): unknown {
  return JSON.parse(new TextDecoder().decode(bytes.subarray(4))).payload;
}

function frameWith(payload: Record<string, unknown>): Frame {
  return {
    v: FRAME_VERSION,
    id: "0".repeat(32),
    kind: ROW_KINDS.toolUse,
    payload,
    telemetry: {
      hook_kind: "posttooluse",
      started_at_ns: 1,
      ended_at_ns: 2,
      outcome: "ok",
      redactions: {},
    },
  };
}

Deno.test("encodeFittedFrame() leaves a frame that fits as it is", () => {
  const frame = frameWith({ a: "short", nested: [{ b: "x".repeat(1000) }] });
  const { bytes, cuts } = encodeFittedFrame(frame);
  assert.equal(cuts, 0);
  assert.deepEqual(payloadOf(bytes), frame.payload);
});

Deno.test("encodeFittedFrame() cuts the longest strings of an oversized payload and marks them", () => {
  const big = "<PASSWORD> ".repeat(Math.ceil((MAX_FRAME_BYTES * 1.3) / 11));
  const frame = frameWith({ small: "kept whole", args: { content: big, other: "y".repeat(10) } });
  const { bytes, cuts } = encodeFittedFrame(frame);
  assert.ok(cuts >= 1);
  assert.ok(bytes.length - 4 <= MAX_FRAME_BYTES);
  const payload = payloadOf(bytes) as {
    small: string;
    args: { content: string; other: string };
  };
  assert.equal(payload.small, "kept whole");
  assert.equal(payload.args.other, "y".repeat(10));
  assert.ok(payload.args.content.endsWith(CUT_MARKER));
  assert.ok(big.startsWith(payload.args.content.slice(0, -CUT_MARKER.length)));
});

Deno.test({
  name: "the installed hook stores a 16 MiB prompt whose redaction grows past the frame limit",
  sanitizeResources: false,
  async fn() {
    const daemon = await startTestDaemon();
    try {
      // Each "-pAb12cd" (8 characters) becomes "-p<PASSWORD>" (12): 5,000 of them grow the
      // prompt by 20,000 characters, past the 4 KiB left free; prose fills the rest, so
      // redaction stays well inside the hook's time budget.
      const unit = "mysql -pAb12cd ";
      const filler = "plain words of a long session ";
      const head = unit.repeat(5000);
      const prompt = head +
        filler.repeat(Math.floor((MAX_FRAME_BYTES - 4096 - head.length) / filler.length));
      const payload = JSON.stringify({
        session_id: "6d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d7",
        transcript_path: "/tmp/transcript.jsonl",
        cwd: "/tmp",
        hook_event_name: "UserPromptSubmit",
        prompt,
      });
      const run = await runHook(daemon, "userpromptsubmit", payload);
      assert.equal(run.code, 0);
      assert.doesNotMatch(run.stderr, /invalid_payload/);
      await waitForRows(daemon.db, 1, { timeoutMs: 60_000 });
      const [row] = readRows(daemon.db);
      const stored = String(row!.payload.prompt_redacted);
      assert.ok(stored.endsWith(CUT_MARKER));
      assert.ok(!stored.includes("Ab12cd"));
    } finally {
      await daemon.stop();
    }
  },
});
