/**
 * Nothing lost, nobody in: a dead, killed or restarted daemon loses no row,
 * and a hostile shared `/tmp` (planted symlink, foreign socket) gets nothing.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ROW_KINDS } from "../lib/kinds.ts";
import { fixture, runHook, startTestDaemon, waitForRows } from "./_daemon.ts";
import { ROOT } from "./_daemon.ts";

function promptPayload(base: Record<string, unknown>, text: string): string {
  return JSON.stringify({ ...base, prompt: text });
}

async function verifyExitCode(env: Record<string, string>): Promise<number> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-A", `${ROOT}/install/main.ts`, "verify"],
    env,
    stdout: "null",
    stderr: "null",
  }).output();
  return output.code;
}

async function waitUntil(condition: () => boolean, timeoutMs = 6000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function inBatches<T>(count: number, width: number, task: (i: number) => Promise<T>) {
  const results: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  }));
  return results;
}

Deno.test("spool: 20 hooks while the daemon is down, then it starts: 20 rows, in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-spool-" });
  try {
    const paths = { socket: `${dir}/capture.sock`, traceDir: `${dir}/traces` };
    const base = JSON.parse(await fixture("user_prompt_submit"));
    for (let i = 0; i < 20; i++) {
      const run = await runHook(paths, "userpromptsubmit", promptPayload(base, `prompt ${i}`));
      assert.equal(run.code, 0);
      assert.match(run.stderr, /socket_unavailable/);
    }
    const daemon = await startTestDaemon({ dir });
    try {
      const rows = await waitForRows(daemon.db, 20);
      assert.equal(rows.length, 20);
      assert.deepEqual(
        rows.map((row) => row.payload.prompt_redacted),
        Array.from({ length: 20 }, (_, i) => `prompt ${i}`),
      );
      assert.deepEqual([...Deno.readDirSync(`${daemon.traceDir}/spool`)], []);
    } finally {
      await daemon.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spool: a spool file written after its frame was committed is removed by the drain, no second row", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-late-spool-" });
  try {
    const paths = { socket: `${dir}/capture.sock`, traceDir: `${dir}/traces` };
    const base = JSON.parse(await fixture("user_prompt_submit"));
    await runHook(paths, "userpromptsubmit", promptPayload(base, "committed once"));
    const spool = `${paths.traceDir}/spool`;
    const [entry] = [...Deno.readDirSync(spool)];
    assert.ok(entry, "the hook spooled its frame while the daemon was down");
    const copy = `${dir}/${entry.name}`;
    Deno.copyFileSync(`${spool}/${entry.name}`, copy);
    const daemon = await startTestDaemon({ dir });
    try {
      await waitForRows(daemon.db, 1);
      await waitUntil(() => [...Deno.readDirSync(spool)].length === 0);
      // What a hook leaves when its row is committed before its own spool write lands.
      Deno.copyFileSync(
        copy,
        `${spool}/${entry.name.replace(/\.socket_unavailable\.frame$/, ".frame")}`,
      );
      await waitUntil(() => [...Deno.readDirSync(spool)].length === 0);
      const rows = await waitForRows(daemon.db, 1);
      assert.deepEqual(rows.map((row) => row.payload.prompt_redacted), ["committed once"]);
    } finally {
      await daemon.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spool: 200 parallel hooks, daemon SIGKILLed midway and restarted: exactly 200 rows, chain intact", async () => {
  const daemon = await startTestDaemon();
  try {
    const base = JSON.parse(await fixture("user_prompt_submit"));
    let killed: Promise<void> | undefined;
    await inBatches(200, 12, async (i) => {
      if (i === 90) {
        daemon.process.kill("SIGKILL");
        killed = daemon.process.status.then(async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          await daemon.restart();
        });
      }
      const run = await runHook(daemon, "userpromptsubmit", promptPayload(base, `parallel ${i}`));
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "");
    });
    await killed;
    const rows = await waitForRows(daemon.db, 200, { timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 2500)); // one more drain: no duplicates appear
    const settled = await waitForRows(daemon.db, 200);
    assert.equal(settled.length, 200);
    const texts = new Set(rows.map((row) => row.payload.prompt_redacted));
    assert.equal(texts.size, 200);
    assert.equal(await verifyExitCode(daemon.env), 0);
  } finally {
    await daemon.stop();
  }
});

Deno.test("trace dir: a planted symlink is not used and nothing is written through it", async () => {
  const daemon = await startTestDaemon();
  const target = await Deno.makeTempDir({ prefix: "cyberos-planted-" });
  try {
    const planted = `${daemon.dir}/planted-traces`;
    await Deno.symlink(target, planted);
    const run = await runHook(daemon, "userpromptsubmit", await fixture("user_prompt_submit"), {
      traceDir: planted,
    });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /WARN trace_dir_untrusted: .* is a symlink/);
    assert.deepEqual([...Deno.readDirSync(target)], []);
    const [row] = await waitForRows(daemon.db, 1);
    assert.equal(row!.payload.trace_id, "3f1c2a9e7b4d4e8a9c610d2b5e8f4a17");
  } finally {
    await daemon.stop();
    await Deno.remove(target, { recursive: true });
  }
});

Deno.test("trace dir: one open to group or others is not used", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const traceDir = `${dir}/traces`;
    await Deno.mkdir(traceDir);
    await Deno.chmod(traceDir, 0o777);
    const run = await runHook(
      { socket: `${dir}/none.sock`, traceDir },
      "stop",
      await fixture("stop_without_last_assistant_message"),
    );
    assert.match(run.stderr, /trace_dir_untrusted: .*open to group or others/);
    assert.deepEqual([...Deno.readDirSync(traceDir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("socket: one owned by another user is never connected to; the frame stays in the spool", async () => {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/foreign.sock`;
  const listener = Deno.listen({ transport: "unix", path: socket });
  let accepted = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      accepted++;
      conn.close();
    }
  })();
  try {
    const paths = { socket, traceDir: `${dir}/traces` };
    const myUid = Deno.uid()!;
    const asRoot = myUid === 0;
    if (asRoot) await Deno.chown(socket, 65534, 65534);
    const run = await runHook(paths, "stop", await fixture("stop_without_last_assistant_message"), {
      extraArgs: asRoot ? [] : ["--as-uid", String(myUid + 1)],
    });
    assert.equal(run.code, 0);
    assert.match(run.stderr, /WARN socket_untrusted: .* is owned by uid/);
    assert.equal(accepted, 0);
    const spooled = [...Deno.readDirSync(`${dir}/traces/spool`)].map((e) => e.name);
    assert.equal(spooled.length, 1);
    assert.match(spooled[0]!, /\.socket_unavailable\.frame$/);
  } finally {
    listener.close();
    await accepting.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("daemon: prunes trace id files idle for more than an hour at start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-prune-" });
  try {
    const traceDir = `${dir}/traces`;
    await Deno.mkdir(traceDir, { mode: 0o700 });
    const stale = `${traceDir}/11111111-2222-4333-8444-555555555555`;
    const fresh = `${traceDir}/11111111-2222-4333-8444-666666666666`;
    await Deno.writeTextFile(stale, "a".repeat(32));
    await Deno.writeTextFile(fresh, "b".repeat(32));
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await Deno.utime(stale, twoHoursAgo, twoHoursAgo);
    const daemon = await startTestDaemon({ dir });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.throws(() => Deno.statSync(stale), Deno.errors.NotFound);
      assert.ok(Deno.statSync(fresh).isFile);
    } finally {
      await daemon.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hook: a 16 MiB prompt and a tool_input nested 10,000 deep exit 0; the daemon lives on", async () => {
  const daemon = await startTestDaemon();
  try {
    const base = JSON.parse(await fixture("user_prompt_submit"));
    const huge = await runHook(
      daemon,
      "userpromptsubmit",
      promptPayload(base, "x".repeat(16 * 1024 * 1024)),
    );
    assert.equal(huge.code, 0);
    assert.equal(huge.stdout, "");
    assert.match(huge.stderr, /invalid_payload/);
    const tool = JSON.parse(await fixture("post_tool_use_bash"));
    const secret = "sk-ant-api03-" + "Q".repeat(90) + "AA";
    const nested = '{"deeper":'.repeat(10_000) + JSON.stringify(secret) + "}".repeat(10_000);
    const deep = await runHook(
      daemon,
      "posttooluse",
      JSON.stringify({ ...tool, tool_input: "NESTED" }).replace('"NESTED"', nested),
    );
    assert.equal(deep.code, 0);
    assert.equal(deep.stdout, "");
    const [row] = await waitForRows(daemon.db, 1);
    assert.equal(row!.kind, ROW_KINDS.toolUse);
    assert.match(String(row!.payload.tool_args_hash), /^[0-9a-f]{64}$/);
  } finally {
    await daemon.stop();
  }
});
