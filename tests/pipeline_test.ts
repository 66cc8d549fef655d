/**
 * The capture pipeline end to end: real hooks (subprocesses, fed the fixture
 * payloads on stdin) against a real daemon on a temporary socket and store.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { encodeFrame, type Frame } from "../lib/frame.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { PAYLOAD_FIELDS } from "../lib/rows.ts";
import { spoolDir } from "../lib/paths.ts";
import { parseSpoolFileName } from "../lib/spool.ts";
import { EMIT_BUDGET_MS } from "../lib/send.ts";
import { daemonRunArgs } from "../daemon/start.ts";
import {
  fixture,
  readRows,
  ROOT,
  runHook,
  sendRaw,
  startTestDaemon,
  type TestDaemon,
  testFrame,
  waitForRows,
} from "./_daemon.ts";

const FIXTURE_EVENTS: Array<[name: string, event: string, kind: string]> = [
  ["user_prompt_submit", "userpromptsubmit", ROW_KINDS.prompt],
  ["post_tool_use_bash", "posttooluse", ROW_KINDS.toolUse],
  ["post_tool_use_edit", "posttooluse", ROW_KINDS.toolUse],
  ["post_tool_use_mcp", "posttooluse", ROW_KINDS.toolUse],
  ["post_tool_use_failure_bash", "posttoolusefailure", ROW_KINDS.toolUse],
  ["stop_with_last_assistant_message", "stop", ROW_KINDS.sessionCompleted],
  ["stop_without_last_assistant_message", "stop", ROW_KINDS.sessionCompleted],
];

const OTHER_SESSION = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

async function withDaemon(fn: (daemon: TestDaemon) => Promise<void>): Promise<void> {
  const daemon = await startTestDaemon();
  try {
    await fn(daemon);
  } finally {
    await daemon.stop();
  }
}

function stringLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => stringLeaves(item, out));
  else if (value && typeof value === "object") {
    Object.values(value).forEach((item) => stringLeaves(item, out));
  }
  return out;
}

async function storeBytes(daemon: TestDaemon): Promise<string> {
  let all = "";
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      all += new TextDecoder("latin1").decode(await Deno.readFile(daemon.db + suffix));
    } catch {
      // No such file at this moment.
    }
  }
  return all;
}

async function emptyDenoMs(): Promise<number> {
  const empty = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    const started = performance.now();
    await new Deno.Command(Deno.execPath(), { args: ["run", "-q", empty] }).output();
    return performance.now() - started;
  } finally {
    await Deno.remove(empty);
  }
}

Deno.test("hook + daemon: every fixture gives one row of its kind, fields in order, one trace id per session", async () => {
  await withDaemon(async (daemon) => {
    for (const [name, event] of FIXTURE_EVENTS) {
      const run = await runHook(daemon, event, await fixture(name));
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "");
      assert.equal(run.stderr, "", `${name}: ${run.stderr}`);
    }
    await runHook(daemon, "userpromptsubmit", await fixture("user_prompt_submit", OTHER_SESSION));
    const rows = await waitForRows(daemon.db, FIXTURE_EVENTS.length + 1);
    assert.equal(rows.length, FIXTURE_EVENTS.length + 1);
    FIXTURE_EVENTS.forEach(([name, , kind], index) => {
      const row = rows[index]!;
      assert.equal(row.kind, kind, name);
      const order = PAYLOAD_FIELDS[row.kind].filter((field) => field in row.payload);
      assert.deepEqual(Object.keys(row.payload), order, `${name} field order`);
    });
    const traceIds = new Set(rows.slice(0, -1).map((row) => row.payload.trace_id));
    assert.equal(traceIds.size, 1);
    const [traceId] = traceIds;
    assert.match(String(traceId), /^[0-9a-f]{32}$/);
    assert.notEqual(rows.at(-1)!.payload.trace_id, traceId);
    const prompt = rows[0]!.payload;
    assert.deepEqual(Object.keys(prompt), [
      "session_id",
      "prompt_hash",
      "prompt_redacted",
      "cwd",
      "trace_id",
      "captured_at_ns",
      "redaction_match_count",
      "prompt_id",
    ]);
    assert.match(String(prompt.prompt_hash), /^[0-9a-f]{64}$/);
    assert.ok(Number.isInteger(prompt.captured_at_ns));
    const failure = rows[4]!.payload;
    assert.equal(failure.outcome, "error");
    assert.equal(failure.error, "Exit code 1");
    assert.equal(failure.duration_ms, 3184);
    assert.equal(rows[5]!.payload.last_assistant_message_redacted !== null, true);
    assert.equal(rows[6]!.payload.last_assistant_message_redacted, null);
  });
});

Deno.test("hook + daemon: the store never holds a value from tool_input or tool_response", async () => {
  await withDaemon(async (daemon) => {
    const names = FIXTURE_EVENTS.filter(([, event]) => event.startsWith("posttool"));
    const secrets: string[] = [];
    for (const [name, event] of names) {
      const text = await fixture(name);
      const payload = JSON.parse(text);
      secrets.push(
        ...stringLeaves([payload.tool_input, payload.tool_response]).filter((s) => s.length >= 6),
      );
      await runHook(daemon, event, text);
    }
    await waitForRows(daemon.db, names.length);
    const bytes = await storeBytes(daemon);
    assert.ok(secrets.length > 10);
    for (const secret of secrets) {
      assert.ok(!bytes.includes(secret), `store holds ${JSON.stringify(secret.slice(0, 40))}`);
    }
  });
});

Deno.test("hook + daemon: Stop after 1 prompt and 3 tool uses (one failed) counts 1 and 3", async () => {
  await withDaemon(async (daemon) => {
    await runHook(daemon, "userpromptsubmit", await fixture("user_prompt_submit"));
    await runHook(daemon, "posttooluse", await fixture("post_tool_use_bash"));
    await runHook(daemon, "posttoolusefailure", await fixture("post_tool_use_failure_bash"));
    await runHook(daemon, "posttooluse", await fixture("post_tool_use_edit"));
    const notification = JSON.parse(await fixture("user_prompt_submit"));
    notification.prompt =
      "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>";
    await runHook(daemon, "userpromptsubmit", JSON.stringify(notification));
    await runHook(daemon, "stop", await fixture("stop_with_last_assistant_message"));
    const rows = await waitForRows(daemon.db, 6);
    assert.equal(rows[4]!.payload.prompt_source, "task_notification");
    const stop = rows[5]!.payload;
    assert.equal(stop.prompt_count, 1);
    assert.equal(stop.tool_use_count, 3);
    assert.ok(Number.isInteger(stop.duration_ms) && (stop.duration_ms as number) >= 0);
  });
});

Deno.test("hook: daemon down → exit 0, socket_unavailable, quickly, stdout empty", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const paths = { socket: `${dir}/none.sock`, traceDir: `${dir}/traces` };
    await runHook(paths, "userpromptsubmit", await fixture("user_prompt_submit")); // warm cache
    const baseline = await emptyDenoMs();
    const run = await runHook(paths, "userpromptsubmit", await fixture("user_prompt_submit"));
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /WARN socket_unavailable/);
    assert.equal(run.stderr.trim().split("\n").length, 1);
    assert.ok(run.ms < Math.max(100, baseline * 2), `${run.ms} ms (empty deno ${baseline} ms)`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hook: invalid JSON, a missing session_id or ../../x → invalid_payload, nothing written outside the trace dir", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const paths = { socket: `${dir}/none.sock`, traceDir: `${dir}/a/b/traces` };
    const valid = JSON.parse(await fixture("user_prompt_submit"));
    const cases: Array<[string, string]> = [
      ["invalid JSON", "{not json"],
      ["missing session_id", JSON.stringify({ ...valid, session_id: undefined })],
      ["session_id ../../x", JSON.stringify({ ...valid, session_id: "../../x" })],
      ["prompt not a string", JSON.stringify({ ...valid, prompt: 42 })],
      ["an array", "[]"],
      ["invalid UTF-8", "\xff\xfe"],
    ];
    for (const [name, input] of cases) {
      await t.step(name, async () => {
        const run = await runHook(paths, "userpromptsubmit", input);
        assert.equal(run.code, 0);
        assert.equal(run.stdout, "");
        assert.match(run.stderr, /^cyberos-memory hook: WARN invalid_payload: /);
        const entries = [...Deno.readDirSync(dir)].map((e) => e.name);
        assert.deepEqual(entries, [], `created ${entries}`);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * A Unix socket that accepts every connection and never reads from it, or
 * (`drain`) reads each to its end, as a daemon that keeps up would.
 */
async function withHungSocket(
  fn: (paths: { socket: string; traceDir: string }) => Promise<void>,
  options: { drain?: boolean } = {},
) {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/hung.sock`;
  const listener = Deno.listen({ transport: "unix", path: socket });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) {
      held.push(conn);
      if (options.drain) conn.readable.pipeTo(new WritableStream()).catch(() => {});
    }
  })();
  try {
    await fn({ socket, traceDir: `${dir}/traces` });
  } finally {
    listener.close();
    for (const conn of held) {
      try {
        conn.close();
      } catch {
        // A drained connection closes when its reader meets the end.
      }
    }
    await accepting.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("hook: a socket that never reads takes a small frame; the spool keeps it for the daemon", async () => {
  await withHungSocket(async (paths) => {
    const run = await runHook(paths, "stop", await fixture("stop_with_last_assistant_message"));
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, "");
    const spooled = [...Deno.readDirSync(spoolDir(paths.traceDir))].map((entry) => entry.name);
    assert.equal(spooled.length, 1);
    assert.equal(parseSpoolFileName(spooled[0]!)?.outcome, "ok");
  });
});

Deno.test("hook: a socket that never reads a frame larger than its buffer → emit_timeout within the budget", async () => {
  await withHungSocket(async (paths) => {
    const input = JSON.stringify({
      ...JSON.parse(await fixture("user_prompt_submit")),
      prompt: "The reconcile job stalls on large carts. ".repeat(25_000),
    });
    await runHook(paths, "stop", await fixture("stop_with_last_assistant_message"));
    // The same prompt to a socket that reads it, side by side: the hung socket may add the
    // budget and writing the spool file, not wait on the socket.
    let kept = Infinity;
    await withHungSocket(async (drained) => {
      kept = (await runHook(drained, "userpromptsubmit", input)).ms;
    }, { drain: true });
    const run = await runHook(paths, "userpromptsubmit", input);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /WARN emit_timeout/);
    assert.ok(
      run.ms < 1.5 * kept + EMIT_BUDGET_MS + 100,
      `${run.ms} ms against a hung socket, ${kept} ms against one that reads`,
    );
    const outcomes = [...Deno.readDirSync(spoolDir(paths.traceDir))]
      .map((entry) => parseSpoolFileName(entry.name)?.outcome).sort();
    assert.deepEqual(outcomes, ["emit_timeout", "ok"]);
  });
});

Deno.test("hook: a redactor that throws gives a content-free redaction_failed row and exit 0", async () => {
  await withDaemon(async (daemon) => {
    const run = await runHook(daemon, "userpromptsubmit", await fixture("user_prompt_submit"), {
      extraArgs: ["--fail-redaction"],
    });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /WARN redaction_failed/);
    const [row] = await waitForRows(daemon.db, 1);
    assert.equal(row!.kind, ROW_KINDS.redactionFailed);
    assert.deepEqual(Object.keys(row!.payload), [
      "session_id",
      "error",
      "trace_id",
      "captured_at_ns",
    ]);
    assert.ok(!(await storeBytes(daemon)).includes("empty"));
  });
});

Deno.test("hook: 20 concurrent first hooks of one session agree on the trace id", async () => {
  await withDaemon(async (daemon) => {
    const text = await fixture("post_tool_use_bash");
    await Promise.all(Array.from({ length: 20 }, () => runHook(daemon, "posttooluse", text)));
    const rows = await waitForRows(daemon.db, 20);
    assert.equal(new Set(rows.map((row) => row.payload.trace_id)).size, 1);
  });
});

Deno.test("hook: unknown top-level keys → one WARN naming them, row still captured", async () => {
  await withDaemon(async (daemon) => {
    const payload = {
      ...JSON.parse(await fixture("user_prompt_submit")),
      future_field: 1,
      zeta: {},
    };
    const run = await runHook(daemon, "userpromptsubmit", JSON.stringify(payload));
    assert.equal(
      run.stderr,
      "cyberos-memory hook: WARN unknown_fields: ignored future_field, zeta\n",
    );
    assert.equal((await waitForRows(daemon.db, 1)).length, 1);
  });
});

Deno.test("hook: stdin over 16 MiB → invalid_payload, exit 0", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const big = new Uint8Array(16 * 1024 * 1024 + 10).fill(0x61);
    const run = await runHook({ socket: `${dir}/s`, traceDir: `${dir}/t` }, "stop", big);
    assert.equal(run.code, 0);
    assert.match(run.stderr, /WARN invalid_payload: stdin exceeds the 16 MiB limit/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function runVerifyCli(daemon: TestDaemon): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-A", `${ROOT}/install/main.ts`, "verify"],
    env: daemon.env,
  }).output();
  const out = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { code: output.code, out };
}

Deno.test("verify() passes on a fresh chain of 1,000 rows and names the first edited seq", async () => {
  await withDaemon(async (daemon) => {
    const frames = Array.from({ length: 1000 }, (_, i) => encodeFrame(testFrame(i + 1)));
    const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    let offset = 0;
    for (const frame of frames) {
      all.set(frame, offset);
      offset += frame.length;
    }
    await sendRaw(daemon.socket, all);
    await waitForRows(daemon.db, 1000);
    const intact = await runVerifyCli(daemon);
    assert.equal(intact.code, 0, intact.out);
    assert.match(intact.out, /chain intact: 1000 rows/);
    const db = new DatabaseSync(daemon.db);
    db.exec("DROP TRIGGER rows_no_update");
    db.prepare(
      "UPDATE rows SET payload = replace(payload, 'number 637', 'number 999') WHERE seq = 637",
    )
      .run();
    db.close();
    const broken = await runVerifyCli(daemon);
    assert.equal(broken.code, 1);
    assert.match(broken.out, /Chain broken at seq 637: /);
  });
});

Deno.test("daemon: frames on a connection left open are stored within a second, not at its 10 s limit", async () => {
  await withDaemon(async (daemon) => {
    const conn = await Deno.connect({ transport: "unix", path: daemon.socket });
    try {
      const started = Date.now();
      await conn.write(encodeFrame(testFrame(1)));
      await waitForRows(daemon.db, 1, { timeoutMs: 1000 });
      // The sender goes on: its next frame is stored too, the connection still open.
      await conn.write(encodeFrame(testFrame(2)));
      const rows = await waitForRows(daemon.db, 2, { timeoutMs: 1000 });
      assert.deepEqual(rows.map((row) => row.payload.prompt_redacted).sort(), [
        "prompt number 1",
        "prompt number 2",
      ]);
      assert.ok(Date.now() - started < 2000);
    } finally {
      conn.close();
    }
  });
});

Deno.test("daemon: survives garbage on its socket and accepts the next valid frame", async (t) => {
  await withDaemon(async (daemon) => {
    const body = new TextEncoder().encode("{not json");
    const invalidJson = new Uint8Array(4 + body.length);
    new DataView(invalidJson.buffer).setUint32(0, body.length);
    invalidJson.set(body, 4);
    const huge = new Uint8Array([0xff, 0xff, 0xff, 0xff, 1, 2, 3]);
    const truncated = encodeFrame(testFrame(1)).subarray(0, 30);
    const unknownKind = encodeFrame({ ...testFrame(2), kind: "memory.nope" as Frame["kind"] });
    const unknownKey = new TextEncoder().encode(
      JSON.stringify({ ...testFrame(3), extra: true }),
    );
    const unknownKeyFrame = new Uint8Array(4 + unknownKey.length);
    new DataView(unknownKeyFrame.buffer).setUint32(0, unknownKey.length);
    unknownKeyFrame.set(unknownKey, 4);
    const cases: Array<[string, Uint8Array]> = [
      ["random bytes", crypto.getRandomValues(new Uint8Array(4096))],
      ["a 4 GiB length prefix", huge],
      ["a truncated frame", truncated],
      ["invalid JSON", invalidJson],
      ["an unknown kind", unknownKind],
      ["an unknown key", unknownKeyFrame],
      [
        "a captured_at_ns that is not an integer",
        encodeFrame({ ...testFrame(4), payload: { ...testFrame(4).payload, captured_at_ns: 0.5 } }),
      ],
    ];
    let expected = 0;
    for (const [name, bytes] of cases) {
      await t.step(name, async () => {
        await sendRaw(daemon.socket, bytes);
        expected++;
        await sendRaw(daemon.socket, encodeFrame(testFrame(100 + expected)));
        const rows = await waitForRows(daemon.db, expected);
        assert.equal(rows.length, expected);
      });
    }
    assert.match(daemon.stderr(), /frame rejected/);
  });
});

Deno.test("daemon: a second daemon on the same socket and store exits 1 naming the first; a stale socket is replaced", async () => {
  const daemon = await startTestDaemon();
  try {
    const second = await new Deno.Command(Deno.execPath(), {
      args: daemonRunArgs(daemon),
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(second.code, 1);
    assert.match(
      new TextDecoder().decode(second.stderr),
      new RegExp(
        `another daemon is running on the store .* \\(pid \\d+ socket ${daemon.socket}\\)`,
      ),
    );
    daemon.process.kill("SIGKILL");
    await daemon.process.status;
    assert.ok(Deno.lstatSync(daemon.socket).isSocket, "a killed daemon leaves its socket");
    await daemon.restart();
    await runHook(daemon, "stop", await fixture("stop_without_last_assistant_message"));
    assert.equal((await waitForRows(daemon.db, 1)).length, 1);
    assert.equal(Deno.statSync(daemon.socket).mode! & 0o777, 0o600);
  } finally {
    await daemon.stop();
  }
});

Deno.test("daemon: SIGTERM finishes what it read, closes the store and removes its socket", async () => {
  const daemon = await startTestDaemon();
  try {
    await runHook(daemon, "stop", await fixture("stop_without_last_assistant_message"));
    daemon.process.kill("SIGTERM");
    const status = await daemon.process.status;
    assert.equal(status.code, 0);
    assert.throws(() => Deno.lstatSync(daemon.socket), Deno.errors.NotFound);
    assert.equal(readRows(daemon.db).length, 1);
    assert.match(daemon.stderr(), /shutting down: SIGTERM/);
  } finally {
    await daemon.stop();
  }
});
