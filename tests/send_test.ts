/**
 * `sendFrame` against real Unix sockets: a daemon-like reader, no listener,
 * and a listener that accepts and never reads.
 *
 * @module
 */

import assert from "node:assert/strict";
import { connectEarly, sendFrame } from "../lib/send.ts";

async function withListener(
  fn: (socket: string, accepted: Promise<Deno.UnixConn>) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/s.sock`;
  const listener = Deno.listen({ transport: "unix", path: socket });
  const accepted = listener.accept();
  try {
    await fn(socket, accepted);
  } finally {
    listener.close();
    await accepted.then((conn) => conn.close(), () => {});
    await Deno.remove(dir, { recursive: true });
  }
}

async function readToEnd(conn: Deno.UnixConn): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(65536);
  for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
    chunks.push(buffer.slice(0, n));
  }
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

Deno.test("sendFrame writes every byte and closes: the reader sees the bytes, then EOF", async () => {
  await withListener(async (socket, accepted) => {
    // Larger than the socket's buffer, so the reader must drain it while it is written.
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251);
    const reading = accepted.then(readToEnd);
    const result = await sendFrame(connectEarly(socket), bytes);
    assert.deepEqual(result, { outcome: "ok" });
    assert.deepEqual(await reading, bytes);
  });
});

Deno.test("sendFrame with no listener → socket_unavailable", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = await sendFrame(connectEarly(`${dir}/none.sock`), new Uint8Array(8));
    assert.equal(result.outcome, "socket_unavailable");
    assert.match(result.detail ?? "", /No such file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sendFrame to a listener that never reads: a small frame is ok, a large one times out in the budget", async () => {
  await withListener(async (socket) => {
    assert.deepEqual(await sendFrame(connectEarly(socket), new Uint8Array(4096)), {
      outcome: "ok",
    });
  });
  await withListener(async (socket) => {
    const started = performance.now();
    const result = await sendFrame(connectEarly(socket), new Uint8Array(4 << 20), {
      budgetMs: 50,
    });
    const ms = performance.now() - started;
    assert.equal(result.outcome, "emit_timeout");
    assert.ok(ms >= 45 && ms < 1000, `${ms} ms`);
  });
});
