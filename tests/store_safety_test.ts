/**
 * The store under stress, with a real daemon and real SQLite: a frame the
 * store cannot take is quarantined and its batch commits (M3); a full disk
 * stops the daemon non-zero with SQLite's own error and loses nothing (M3); a
 * store deleted under a running daemon stops it, and the restart gets every
 * row (M4); the store's files are 0600 whatever the umask (L7).
 *
 * @module
 */

import assert from "node:assert/strict";
import { type Frame, MAX_CAPTURED_AT_NS, validateFrame } from "../lib/frame.ts";
import { openStore } from "../lib/store.ts";
import { spoolDir } from "../lib/paths.ts";
import { quarantineDirOf } from "../lib/store_paths.ts";
import { Ingest } from "../daemon/_ingest.ts";
import { Quarantine } from "../daemon/_quarantine.ts";
import { noTelemetry, type Telemetry } from "../daemon/_telemetry.ts";
import { readRows, ROOT, runHook, startTestDaemon, testFrame, waitForRows } from "./_daemon.ts";
import { canMountTmpfs, startOnFullDisk } from "./_full_disk.ts";
import { listNames, spoolFrames } from "./_spool.ts";

/** Beyond what a SQLite INTEGER holds (2^63 - 1 ≈ 9.22e18). */
const TOO_LATE_NS = 9.3e18;

function lateFrame(index: number): Frame {
  const frame = testFrame(index);
  return { ...frame, payload: { ...frame.payload, captured_at_ns: TOO_LATE_NS } };
}

function countingTelemetry(): Telemetry & { quarantinedReasons: string[] } {
  const quarantinedReasons: string[] = [];
  return {
    ...noTelemetry(),
    quarantined: (reason) => quarantinedReasons.push(reason),
    quarantinedReasons,
  };
}

async function waitForExit(process: Deno.ChildProcess, timeoutMs: number): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return (await Promise.race([process.status, timeout])).code;
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("validateFrame() refuses a captured_at_ns past what the store's INTEGER holds", () => {
  assert.throws(() => validateFrame(lateFrame(1)), /captured_at_ns must be an integer from 0/);
  const latest = testFrame(2);
  latest.payload.captured_at_ns = MAX_CAPTURED_AT_NS;
  assert.doesNotThrow(() => validateFrame(latest));
});

Deno.test("Ingest: a frame the store refuses at bind is quarantined and the rest of its batch commits", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-quarantine-" });
  try {
    const db = `${dir}/capture.db`;
    const store = openStore(db);
    const telemetry = countingTelemetry();
    const quarantine = new Quarantine(quarantineDirOf(db), { telemetry });
    const traceDir = `${dir}/traces`;
    // Past the frame validator (as a frame from before it was tightened), straight into the batch.
    const frames = [testFrame(1), lateFrame(2), testFrame(3)];
    const spooled = spoolFrames(traceDir, frames);
    const ingest = new Ingest(store, { spoolDir: spoolDir(traceDir), telemetry, quarantine });
    frames.forEach((frame, i) => ingest.enqueue(frame, { spoolPath: spooled[i]! }));
    ingest.flush();
    store.close();
    const rows = readRows(db);
    assert.deepEqual(rows.map((row) => row.payload.prompt_redacted), [
      "prompt number 1",
      "prompt number 3",
    ]);
    assert.deepEqual(listNames(spoolDir(traceDir)), []);
    assert.deepEqual(listNames(quarantineDirOf(db)), [spooled[1]!.split("/").pop()!]);
    assert.deepEqual(telemetry.quarantinedReasons, ["store_refused"]);
    assert.equal(Deno.statSync(quarantineDirOf(db)).mode! & 0o777, 0o700);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("daemon: a spooled frame with captured_at_ns 9.3e18 is quarantined, the others of its batch commit, also across restarts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-quarantine-" });
  const spooled = spoolFrames(`${dir}/traces`, [testFrame(1), lateFrame(2), testFrame(3)]);
  const daemon = await startTestDaemon({ dir });
  try {
    const rows = await waitForRows(daemon.db, 2);
    assert.equal(rows.length, 2);
    assert.match(daemon.stderr(), /WARN frame quarantined: spool file \S+: .*captured_at_ns/);
    await daemon.restart();
    await runHook(daemon, "userpromptsubmit", await observed("user_prompt_submit"));
    assert.equal((await waitForRows(daemon.db, 3)).length, 3);
    assert.deepEqual(listNames(spoolDir(daemon.traceDir)), []);
    assert.deepEqual(listNames(quarantineDirOf(daemon.db)), [spooled[1]!.split("/").pop()!]);
    assert.equal(daemon.process.pid > 0, true);
  } finally {
    await daemon.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "daemon: a full disk stops it with exit 1 and SQLite's own error; the frames stay in the spool",
  ignore: !(await canMountTmpfs()),
  async fn() {
    const { dir, daemon, spooled } = await startOnFullDisk();
    try {
      assert.equal(await waitForExit(daemon.process, 15_000), 1);
      const stderr = daemon.stderr();
      assert.match(stderr, /database or disk is full/);
      assert.doesNotMatch(stderr, /cannot rollback/);
      assert.deepEqual(
        listNames(spoolDir(daemon.traceDir)),
        spooled.map((p) => p.split("/").pop()!),
      );
    } finally {
      await daemon.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("daemon: the store deleted under it stops it with exit 1; 25 frames sent meanwhile all arrive after the restart", async () => {
  const daemon = await startTestDaemon();
  try {
    for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(`${daemon.db}${suffix}`);
    const base = JSON.parse(await observed("user_prompt_submit"));
    for (let i = 0; i < 25; i++) {
      const run = await runHook(
        daemon,
        "userpromptsubmit",
        JSON.stringify({ ...base, prompt: `prompt ${i}` }),
      );
      assert.equal(run.code, 0);
    }
    assert.equal(await waitForExit(daemon.process, 10_000), 1);
    const stopLines = daemon.stderr().split("\n").filter((line) => line.includes("was deleted"));
    assert.equal(stopLines.length, 1, daemon.stderr());
    assert.match(
      stopLines[0]!,
      /ERROR shutting down: the store failed: .*capture\.db was deleted while the daemon ran; restart/,
    );
    await daemon.restart();
    const rows = await waitForRows(daemon.db, 25);
    assert.equal(rows.length, 25);
    assert.deepEqual(
      rows.map((row) => row.payload.prompt_redacted).sort(),
      Array.from({ length: 25 }, (_, i) => `prompt ${i}`).sort(),
    );
  } finally {
    await daemon.stop();
  }
});

Deno.test("daemon: under umask 000 the store's folder is 0700 and capture.db, -wal and -shm are 0600", async () => {
  const daemon = await startTestDaemon({ wrapper: ["sh", "-c", 'umask 000 && exec "$@"', "sh"] });
  try {
    await runHook(daemon, "userpromptsubmit", await observed("user_prompt_submit"));
    await waitForRows(daemon.db, 1);
    assert.equal(
      Deno.statSync(daemon.db.slice(0, daemon.db.lastIndexOf("/"))).mode! & 0o777,
      0o700,
    );
    for (const suffix of ["", "-wal", "-shm"]) {
      assert.equal(
        Deno.statSync(`${daemon.db}${suffix}`).mode! & 0o777,
        0o600,
        `capture.db${suffix}`,
      );
    }
  } finally {
    await daemon.stop();
  }
});

Deno.test("openStore() narrows a store left 0644 (and its -wal, -shm) to 0600", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const db = `${dir}/capture.db`;
    // Held open, so that its -wal and -shm stay while a second open narrows them.
    const held = openStore(db);
    for (const suffix of ["", "-wal", "-shm"]) Deno.chmodSync(`${db}${suffix}`, 0o644);
    const reopened = openStore(db, { readOnly: false });
    for (const suffix of ["", "-wal", "-shm"]) {
      assert.equal(Deno.statSync(`${db}${suffix}`).mode! & 0o777, 0o600, `capture.db${suffix}`);
    }
    reopened.close();
    held.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() refuses a store path that is a symlink", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/elsewhere`, "");
    await Deno.symlink(`${dir}/elsewhere`, `${dir}/capture.db`);
    assert.throws(() => openStore(`${dir}/capture.db`), /is a symlink or not a regular file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function observed(name: string): Promise<string> {
  return await Deno.readTextFile(`${ROOT}/tests/claude/observed/${name}.json`);
}
