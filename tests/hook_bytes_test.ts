/**
 * The bytes that leave the hook, as a test subject of their own. Payloads with
 * fresh random secrets in every field, at every nesting depth of
 * `tool_input` and in every object key go through the real bundled hook; a
 * socket that records captures the exact frame bytes, and the spool file and
 * stderr are read too, on every path: ok, daemon down, redaction failed,
 * invalid and oversized input. No secret may appear in any of them.
 *
 * (The daemon's field filter would keep a leaked secret out of the store, so
 * store checks cannot see these leaks: only the bytes can.)
 *
 * @module
 */

import assert from "node:assert/strict";
import { CUT_MARKER } from "../lib/frame_fit.ts";
import { FrameDecoder, MAX_FRAME_BYTES } from "../lib/frame.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { spoolDir } from "../lib/paths.ts";
import { parseSpoolFileName } from "../lib/spool.ts";
import { runHook } from "./_daemon.ts";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SESSION_ID = "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17";

function randomFrom(alphabet: string, length: number): string {
  for (;;) {
    const text = Array.from(
      crypto.getRandomValues(new Uint8Array(length)),
      (byte) => alphabet[byte % alphabet.length],
    ).join("");
    // Four x's in a row mask a value, by policy (`sk_live_xxxx…`): no planted secret has them.
    if (!/x{4}/i.test(text)) return text;
  }
}

/** Fresh random secrets of several rules' shapes, one per call, in turn. */
function secretSource(): { next(): string; planted: string[] } {
  const makers = [
    () => `ghp_${randomFrom(ALNUM, 36)}`,
    () => `AKIA${randomFrom("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`,
    () => `sk_live_${randomFrom(ALNUM, 24)}`,
    () => `glpat-${randomFrom(ALNUM, 20)}`,
    () => `hf_${randomFrom(ALNUM, 34)}`,
    () =>
      `xoxb-${randomFrom("0123456789", 11)}-${randomFrom("0123456789", 12)}-${
        randomFrom(ALNUM, 24)
      }`,
  ];
  const planted: string[] = [];
  let turn = 0;
  return {
    planted,
    next() {
      const secret = makers[turn++ % makers.length]!();
      planted.push(secret);
      return secret;
    },
  };
}

/**
 * `tool_input` nested `depth` deep: at each level a key that is a secret
 * holding a text with another, an array holding a third, and the next level.
 */
function nestedInput(secrets: { next(): string }, depth: number): Record<string, unknown> {
  let level: Record<string, unknown> = { leaf: `end ${secrets.next()}` };
  for (let i = 0; i < depth; i++) {
    level = {
      [secrets.next()]: `value at ${i}: ${secrets.next()}`,
      list: [`item ${secrets.next()}`, { [secrets.next()]: [secrets.next()] }],
      command: `curl -H "Authorization: token ${secrets.next()}" https://x`,
      next: level,
    };
  }
  return level;
}

type Event = "userpromptsubmit" | "posttooluse" | "posttoolusefailure" | "stop";

/** A payload of `event` with a secret in every field Claude Code sends, and in unknown ones. */
function plantedPayload(event: Event, secrets: { next(): string }): Record<string, unknown> {
  const common = {
    session_id: SESSION_ID,
    transcript_path: `/home/u/.claude/projects/${secrets.next()}/t.jsonl`,
    cwd: `/home/u/src/${secrets.next()}/api`,
    prompt_id: `p ${secrets.next()}`,
    agent_id: `a ${secrets.next()}`,
    agent_type: `type ${secrets.next()}`,
    permission_mode: `mode ${secrets.next()}`,
    effort: { level: secrets.next(), [secrets.next()]: 1 },
  };
  switch (event) {
    case "userpromptsubmit":
      return {
        ...common,
        hook_event_name: "UserPromptSubmit",
        prompt: `deploy with ${secrets.next()} and\n${secrets.next()}`,
      };
    case "posttooluse":
    case "posttoolusefailure":
      return {
        ...common,
        hook_event_name: event === "posttooluse" ? "PostToolUse" : "PostToolUseFailure",
        tool_name: `mcp__srv__${secrets.next()}`,
        tool_input: nestedInput(secrets, 12),
        tool_use_id: `toolu ${secrets.next()}`,
        duration_ms: 12,
        mcp_server: { name: secrets.next(), source: "dynamic" },
        ...(event === "posttooluse"
          ? { tool_response: { stdout: secrets.next(), [secrets.next()]: true } }
          : {
            error: `failed: ${secrets.next()}\nsecond line ${secrets.next()}`,
            is_interrupt: false,
          }),
      };
    case "stop":
      return {
        ...common,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: `done, key ${secrets.next()}`,
        background_tasks: [secrets.next()],
      };
  }
}

/** A Unix socket that keeps every byte each connection sent. */
class RecordingSocket {
  readonly path: string;
  readonly #listener: Deno.Listener;
  readonly #reads: Promise<Uint8Array>[] = [];
  readonly #accepting: Promise<void>;

  constructor(path: string) {
    this.path = path;
    const listener = Deno.listen({ transport: "unix", path });
    this.#listener = listener;
    this.#accepting = (async () => {
      for await (const conn of listener) this.#reads.push(readAll(conn));
    })();
  }

  /** Everything received so far, over all connections, once each has ended. */
  async received(): Promise<Uint8Array> {
    // Each connection ends when the hook exits; give the accept loop a moment to see the last.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const parts = await Promise.all(this.#reads);
    this.#reads.length = 0;
    return concat(parts);
  }

  async close(): Promise<void> {
    this.#listener.close();
    await this.#accepting.catch(() => {});
  }
}

async function readAll(conn: Deno.Conn): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const buffer = new Uint8Array(1 << 16);
  try {
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) break;
      parts.push(buffer.slice(0, n));
    }
  } finally {
    conn.close();
  }
  return concat(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

interface Capture {
  /** The bytes the socket received. */
  frame: Uint8Array;
  /** The spool files: name and bytes. */
  spooled: Array<{ name: string; bytes: Uint8Array; mode: number }>;
  stderr: string;
  stdout: string;
}

async function capture(
  event: Event,
  input: string | Uint8Array,
  options: { daemon: "recording" | "down"; extraArgs?: string[] },
): Promise<Capture> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-bytes-" });
  const socket = `${dir}/capture.sock`;
  const traceDir = `${dir}/traces`;
  const recorder = options.daemon === "recording" ? new RecordingSocket(socket) : undefined;
  try {
    const run = await runHook({ socket, traceDir }, event, input, {
      extraArgs: options.extraArgs ?? [],
    });
    assert.equal(run.code, 0);
    const frame = recorder ? await recorder.received() : new Uint8Array();
    const spooled = [];
    try {
      for (const entry of Deno.readDirSync(spoolDir(traceDir))) {
        const path = `${spoolDir(traceDir)}/${entry.name}`;
        spooled.push({
          name: entry.name,
          bytes: Deno.readFileSync(path),
          mode: Deno.statSync(path).mode! & 0o777,
        });
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return { frame, spooled, stderr: run.stderr, stdout: run.stdout };
  } finally {
    await recorder?.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Fails naming the secret and where it leaked (by its first characters only). */
function assertNoSecret(planted: string[], where: string, bytes: Uint8Array | string): void {
  const text = typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes);
  for (const secret of planted) {
    assert.ok(!text.includes(secret), `a planted secret (${secret.slice(0, 8)}…) is in ${where}`);
  }
}

function assertNothingLeaks(planted: string[], result: Capture): void {
  assert.ok(planted.length > 0);
  assertNoSecret(planted, "the frame on the socket", result.frame);
  for (const file of result.spooled) assertNoSecret(planted, `spool file ${file.name}`, file.bytes);
  assertNoSecret(planted, "stderr", result.stderr);
  assert.equal(result.stdout, "");
}

function decodeOne(bytes: Uint8Array): Record<string, unknown> {
  const decoder = new FrameDecoder();
  const pieces = decoder.push(bytes);
  assert.equal(pieces.length, 1, "exactly one frame");
  assert.equal(decoder.pending, 0, "nothing after the frame");
  const piece = pieces[0]!;
  assert.ok("frame" in piece, "the frame decodes");
  return piece.frame as unknown as Record<string, unknown>;
}

const EVENTS: Event[] = ["userpromptsubmit", "posttooluse", "posttoolusefailure", "stop"];
const KINDS: Record<Event, string> = {
  userpromptsubmit: ROW_KINDS.prompt,
  posttooluse: ROW_KINDS.toolUse,
  posttoolusefailure: ROW_KINDS.toolUse,
  stop: ROW_KINDS.sessionCompleted,
};

Deno.test("hook bytes, ok: the frame on the socket and the spool file carry no planted secret", async (t) => {
  for (const event of EVENTS) {
    await t.step(event, async () => {
      const secrets = secretSource();
      const payload = plantedPayload(event, secrets);
      // An unknown key, shaped as Claude Code's keys are, that is itself a secret: named on stderr.
      const unknownKey = `npm_${randomFrom("abcdefghijklmnopqrstuvwxyz0123456789", 36)}`;
      secrets.planted.push(unknownKey);
      const result = await capture(event, JSON.stringify({ ...payload, [unknownKey]: 1 }), {
        daemon: "recording",
      });
      assertNothingLeaks(secrets.planted, result);
      const frame = decodeOne(result.frame);
      assert.equal(frame.kind, KINDS[event]);
      // Redacted, not dropped: every field still says what was there.
      assert.match(new TextDecoder().decode(result.frame), /<[A-Z_]+_(?:TOKEN|KEY)>/);
      assert.match(result.stderr, /WARN unknown_fields: ignored <NPM_TOKEN>/);
      assert.equal(result.spooled.length, 1);
      const [spooled] = result.spooled;
      assert.deepEqual(spooled!.bytes, result.frame, "the spool file holds the frame's bytes");
      assert.equal(parseSpoolFileName(spooled!.name)?.outcome, "ok");
      assert.equal(spooled!.mode, 0o600);
    });
  }
});

Deno.test("hook bytes, ok: tool_input keys and values are redacted at every one of 12 depths", async () => {
  const secrets = secretSource();
  const result = await capture(
    "posttooluse",
    JSON.stringify(plantedPayload("posttooluse", secrets)),
    { daemon: "recording" },
  );
  assertNothingLeaks(secrets.planted, result);
  const frame = decodeOne(result.frame) as { payload: { tool_args_redacted: unknown } };
  let level = frame.payload.tool_args_redacted as Record<string, unknown>;
  for (let depth = 12; depth > 0; depth--) {
    const keys = Object.keys(level).sort();
    assert.equal(keys.length, 4, `depth ${depth}: ${keys.join(", ")}`);
    assert.ok(keys.some((key) => /^<[A-Z_]+>$/.test(key)), `depth ${depth}: a redacted key`);
    level = level.next as Record<string, unknown>;
  }
  assert.match(String(level.leaf), /^end <[A-Z_]+>$/);
});

Deno.test("hook bytes, daemon down: the spool file names socket_unavailable and carries no planted secret", async (t) => {
  for (const event of EVENTS) {
    await t.step(event, async () => {
      const secrets = secretSource();
      const result = await capture(event, JSON.stringify(plantedPayload(event, secrets)), {
        daemon: "down",
      });
      assertNothingLeaks(secrets.planted, result);
      assert.match(result.stderr, /WARN socket_unavailable/);
      assert.equal(result.spooled.length, 1);
      assert.equal(parseSpoolFileName(result.spooled[0]!.name)?.outcome, "socket_unavailable");
      assert.equal(decodeOne(result.spooled[0]!.bytes).kind, KINDS[event]);
    });
  }
});

Deno.test("hook bytes, redaction failed: neither the frame nor the spool file holds any content", async (t) => {
  for (const daemon of ["recording", "down"] as const) {
    for (const event of EVENTS) {
      await t.step(`${event}, daemon ${daemon}`, async () => {
        const secrets = secretSource();
        const result = await capture(event, JSON.stringify(plantedPayload(event, secrets)), {
          daemon,
          extraArgs: ["--fail-redaction"],
        });
        assertNothingLeaks(secrets.planted, result);
        assert.match(result.stderr, /WARN redaction_failed/);
        assert.equal(result.spooled.length, 1);
        const frames = daemon === "recording"
          ? [result.frame, result.spooled[0]!.bytes]
          : [result.spooled[0]!.bytes];
        for (const bytes of frames) {
          const frame = decodeOne(bytes) as { kind: string; payload: Record<string, unknown> };
          assert.equal(frame.kind, ROW_KINDS.redactionFailed);
          // The fields DESIGN.md allows, and nothing else.
          assert.deepEqual(Object.keys(frame.payload).sort(), [
            "captured_at_ns",
            "error",
            "session_id",
            "trace_id",
          ]);
        }
      });
    }
  }
});

Deno.test("hook bytes, invalid payload: nothing sent or spooled, and stderr does not quote it", async () => {
  const secrets = secretSource();
  const payload = plantedPayload("userpromptsubmit", secrets);
  // A session id that is not a UUID, and a hook_event_name that is wrong: both refused unquoted.
  for (
    const broken of [
      { ...payload, session_id: secrets.next() },
      { ...payload, hook_event_name: secrets.next() },
      { ...payload, cwd: [secrets.next()] },
    ]
  ) {
    const result = await capture("userpromptsubmit", JSON.stringify(broken), {
      daemon: "recording",
    });
    assertNothingLeaks(secrets.planted, result);
    assert.match(result.stderr, /WARN invalid_payload/);
    assert.equal(result.frame.length, 0);
    assert.deepEqual(result.spooled, []);
  }
});

Deno.test("hook bytes, oversized: stdin over 16 MiB sends and spools nothing; a frame over 16 MiB is cut to fit", async (t) => {
  await t.step("stdin of 16 MiB + 1", async () => {
    const secrets = secretSource();
    const head = JSON.stringify(plantedPayload("userpromptsubmit", secrets)).slice(0, -1);
    const filler = ` ${secrets.next()}`;
    const body = head + `,"pad":"` + filler.repeat(Math.ceil(MAX_FRAME_BYTES / filler.length));
    const input = new TextEncoder().encode(body.slice(0, MAX_FRAME_BYTES + 1));
    assert.equal(input.length, MAX_FRAME_BYTES + 1);
    const result = await capture("userpromptsubmit", input, { daemon: "recording" });
    assertNothingLeaks(secrets.planted, result);
    assert.match(result.stderr, /WARN invalid_payload: stdin exceeds the 16 MiB limit/);
    assert.equal(result.frame.length, 0);
    assert.deepEqual(result.spooled, []);
  });
  await t.step("stdin under 16 MiB whose frame is over it", async () => {
    const secrets = secretSource();
    // Only the fields a prompt row keeps, so that the frame is the larger.
    const payload = {
      session_id: SESSION_ID,
      hook_event_name: "UserPromptSubmit",
      cwd: `/home/u/${secrets.next()}`,
    };
    const small = new TextEncoder().encode(JSON.stringify({ ...payload, prompt: "" })).length;
    // The frame adds its own fields (trace id, times, telemetry) to the prompt's text.
    const prompt = `${secrets.next()} ` + "p".repeat(MAX_FRAME_BYTES - small - 48);
    const input = JSON.stringify({ ...payload, prompt });
    assert.ok(input.length <= MAX_FRAME_BYTES);
    const result = await capture("userpromptsubmit", input, { daemon: "recording" });
    assertNothingLeaks(secrets.planted, result);
    // The redacted prompt is cut (and marked) so the row is stored, not lost.
    assert.doesNotMatch(result.stderr, /invalid_payload/);
    assert.equal(result.spooled.length, 1);
    const frame = result.spooled[0]!.bytes;
    assert.ok(frame.length > 4 && frame.length <= 4 + MAX_FRAME_BYTES);
    const sent = JSON.parse(new TextDecoder().decode(frame.subarray(4)));
    assert.ok(String(sent.payload.prompt_redacted).endsWith(CUT_MARKER));
    // The socket got the same bytes, unless the reader here fell behind the hook's 40 ms
    // budget for writing 16 MiB (a loaded machine): then the spool file is the row's copy.
    if (!/WARN emit_timeout/.test(result.stderr)) assert.deepEqual(result.frame, frame);
  });
});
