/**
 * Hostile input: generated cases over the frame decoder and the payload
 * parser (random bytes, truncations, huge lengths, deep nesting, invalid
 * UTF-8, NUL bytes, huge numbers), and a real daemon fed the same garbage
 * whose resident memory stays bounded.
 *
 * @module
 */

import assert from "node:assert/strict";
import { encodeFrame, FRAME_VERSION, FrameDecoder, FrameError } from "../lib/frame.ts";
import { parseHookPayload } from "../lib/payload.ts";
import { HOOK_EVENTS } from "../lib/kinds.ts";
import { sendRaw, startTestDaemon, testFrame, waitForRows } from "./_daemon.ts";

const CASES = 10_000;

/** A small seeded PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hostileBytes(next: () => number, index: number): Uint8Array {
  const valid = encodeFrame(testFrame(index));
  const pick = Math.floor(next() * 8);
  switch (pick) {
    case 0:
      return crypto.getRandomValues(new Uint8Array(Math.floor(next() * 512)));
    case 1:
      return valid.subarray(0, Math.floor(next() * valid.length));
    case 2: {
      const huge = valid.slice();
      new DataView(huge.buffer).setUint32(0, 0x01000001 + Math.floor(next() * 0xfe000000));
      return huge;
    }
    case 3: {
      const flipped = valid.slice();
      for (let i = 0; i < 4; i++) {
        flipped[4 + Math.floor(next() * (flipped.length - 4))] = Math.floor(next() * 256);
      }
      return flipped;
    }
    case 4: {
      const depth = 1 + Math.floor(next() * 5000);
      return withBody("[".repeat(depth) + "]".repeat(depth));
    }
    case 5:
      return withBody(`{"v":1,"id":"\u0000","kind":"${"\u0000".repeat(3)}"}`);
    case 6:
      return withBody(`{"v":1e999999,"id":${"9".repeat(400)}}`);
    default: {
      const bytes = valid.slice();
      bytes[4 + Math.floor(next() * (bytes.length - 4))] = 0xff; // invalid UTF-8
      return bytes;
    }
  }
}

function withBody(text: string | Uint8Array): Uint8Array {
  const body = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(body, 4);
  return out;
}

Deno.test({
  name: `FrameDecoder never throws and never yields a wrong frame over ${CASES} hostile inputs`,
  permissions: "none",
  fn() {
    const next = random(20261130);
    for (let i = 0; i < CASES; i++) {
      const bytes = hostileBytes(next, i);
      const decoder = new FrameDecoder();
      const cut = Math.floor(next() * (bytes.length + 1));
      const results = [
        ...decoder.push(bytes.subarray(0, cut)),
        ...decoder.push(bytes.subarray(cut)),
      ];
      for (const result of results) {
        if ("error" in result) assert.ok(result.error instanceof FrameError, `case ${i}`);
        else assert.equal(result.frame.v, FRAME_VERSION, `case ${i}`);
      }
      // The decoder still works for a valid frame unless it was poisoned by a huge length.
      if (!decoder.fatal && decoder.pending === 0) {
        const after = decoder.push(encodeFrame(testFrame(i)));
        assert.ok(after.length === 1 && "frame" in after[0]!, `case ${i} recovers`);
      }
    }
  },
});

Deno.test({
  name: `parseHookPayload() throws only TypeError over ${CASES} generated payloads`,
  permissions: "none",
  fn() {
    const next = random(42);
    const events = Object.values(HOOK_EVENTS);
    const values: unknown[] = [
      null,
      0,
      -1,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      "",
      "\u0000",
      "../../x",
      "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17",
      [],
      {},
      true,
      "x".repeat(1000),
    ];
    const keys = [
      "session_id",
      "cwd",
      "hook_event_name",
      "prompt",
      "tool_name",
      "tool_input",
      "error",
      "duration_ms",
      "stop_hook_active",
      "last_assistant_message",
      "__proto__",
      "constructor",
      "agent_id",
    ];
    let accepted = 0;
    for (let i = 0; i < CASES; i++) {
      const event = events[Math.floor(next() * events.length)]!;
      const payload: Record<string, unknown> = {
        session_id: "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17",
        cwd: "/p",
        hook_event_name: event,
        prompt: "p",
        tool_name: "Bash",
        tool_input: {},
        error: "e",
        stop_hook_active: false,
      };
      const mutations = 1 + Math.floor(next() * 3);
      for (let m = 0; m < mutations; m++) {
        const key = keys[Math.floor(next() * keys.length)]!;
        if (next() < 0.2) delete payload[key];
        else payload[key] = values[Math.floor(next() * values.length)];
      }
      const text = JSON.stringify(payload);
      try {
        const parsed = parseHookPayload(JSON.parse(text), event);
        assert.match(parsed.payload.session_id, /^[0-9a-f-]{36}$/);
        accepted++;
      } catch (error) {
        assert.ok(error instanceof TypeError, `case ${i}: ${error}`);
        assert.match((error as Error).message, /^Invalid payload: /);
      }
    }
    assert.ok(accepted > 100 && accepted < CASES, `accepted ${accepted}`);
  },
});

function residentKiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
}

Deno.test("daemon: 8,000 hostile frames and 200 MiB of refused bodies leave it alive, resident memory bounded", async () => {
  const daemon = await startTestDaemon();
  try {
    const pid = daemon.process.pid;
    const next = random(7);
    // A first round as large as the measured one, so that the heap has grown to its working size.
    const sendRound = async (from: number, to: number): Promise<number> => {
      let sent = 0;
      for (let i = from; i < to; i++) {
        const bytes = hostileBytes(next, i);
        sent += bytes.length;
        await sendRaw(daemon.socket, bytes);
        // And every 10th time a 256 KiB body that is not JSON: a daemon keeping what it refused
        // would grow by all of it.
        if (i % 10 === 0) {
          const garbage = withBody(new Uint8Array(256 * 1024).fill(0x7b));
          sent += garbage.length;
          await sendRaw(daemon.socket, garbage);
        }
      }
      return sent;
    };
    await sendRound(0, 4000);
    const before = residentKiB(pid);
    const sentBytes = await sendRound(4000, 8000);
    await sendRaw(daemon.socket, encodeFrame(testFrame(999_999)));
    const rows = await waitForRows(daemon.db, 1);
    assert.ok(rows.some((row) => row.payload.prompt_redacted === "prompt number 999999"));
    const after = residentKiB(pid);
    // The allowance is half of what the round sent (about 51 MiB of 102): keeping the input fails.
    const allowanceKiB = sentBytes / 1024 / 2;
    assert.ok(sentBytes > 96 * 1024 * 1024, `sent ${sentBytes} bytes`);
    assert.ok(
      after - before < allowanceKiB,
      `RSS ${before} KiB → ${after} KiB, allowance ${allowanceKiB.toFixed(0)} KiB`,
    );
  } finally {
    await daemon.stop();
  }
});
