/**
 * Failure injection in the commit path. A store that throws at the commit, on
 * the Nth row, or runs out of disk; a daemon that dies between the commit and
 * deleting the spool files. In each, every spool file survives until a later
 * commit succeeds, and then every row is stored exactly once.
 *
 * The store is the real SQLite store; only its `transaction` or `append` is
 * wrapped to throw where a disk or a crash would.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Frame } from "../lib/frame.ts";
import { spoolDir } from "../lib/paths.ts";
import { openStore, type Store } from "../lib/store.ts";
import { quarantineDirOf } from "../lib/store_paths.ts";
import { Ingest } from "../daemon/_ingest.ts";
import { drainSpool } from "../daemon/_spool_drain.ts";
import { noTelemetry } from "../daemon/_telemetry.ts";
import { readRows, startTestDaemon, testFrame, waitForRows } from "./_daemon.ts";
import { canMountTmpfs, startOnFullDisk } from "./_full_disk.ts";
import { listNames, spoolFrames } from "./_spool.ts";

/** Drains the spool into a fresh writer and commits; returns what the commit threw, if anything. */
function drainAndCommit(ingest: Ingest, traceDir: string): unknown {
  drainSpool(spoolDir(traceDir), { ingest, telemetry: noTelemetry(), nowMs: Date.now() });
  try {
    ingest.flush();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Checks the store holds each frame's row once, in order, and that the chain verifies. */
function assertExactlyOnce(db: string, frames: Frame[]): void {
  const rows = readRows(db);
  assert.deepEqual(
    rows.map((row) => row.payload.prompt_redacted),
    frames.map((frame) => frame.payload.prompt_redacted),
  );
  const store = openStore(db, { readOnly: true });
  try {
    assert.equal(store.verify(), frames.length);
  } finally {
    store.close();
  }
}

async function withStore(
  fn: (context: { dir: string; db: string; traceDir: string; store: Store }) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-commit-" });
  const db = `${dir}/capture.db`;
  const store = openStore(db);
  try {
    fn({ dir, db, traceDir: `${dir}/traces`, store });
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Makes the store's next `failures` transactions run their work, then fail at the commit. */
function failCommits(store: Store, failures: number): { failed: () => number } {
  const transaction = store.transaction.bind(store);
  let failed = 0;
  store.transaction = <T>(work: () => T): T =>
    transaction(() => {
      const result = work();
      if (failed < failures) {
        failed++;
        throw new Error("disk I/O error (injected at the commit)");
      }
      return result;
    });
  return { failed: () => failed };
}

Deno.test("Ingest: a store that throws at the commit keeps every spool file; a later commit stores each row once", async () => {
  await withStore(({ db, traceDir, store }) => {
    const frames = Array.from({ length: 5 }, (_, i) => testFrame(i + 1));
    const names = spoolFrames(traceDir, frames).map((path) => path.split("/").pop()!).sort();
    const injected = failCommits(store, 2);
    const ingest = new Ingest(store, { spoolDir: spoolDir(traceDir), telemetry: noTelemetry() });
    for (let attempt = 1; attempt <= 2; attempt++) {
      const error = drainAndCommit(ingest, traceDir);
      assert.match(String(error), /injected at the commit/, `attempt ${attempt}`);
      assert.deepEqual(listNames(spoolDir(traceDir)), names, `attempt ${attempt}`);
      assert.equal(readRows(db).length, 0);
    }
    assert.equal(injected.failed(), 2);
    assert.equal(drainAndCommit(ingest, traceDir), undefined);
    assert.deepEqual(listNames(spoolDir(traceDir)), []);
    assertExactlyOnce(db, frames);
  });
});

Deno.test("Ingest: a store that throws on the 3rd row of a batch commits none of it and loses none of it", async () => {
  await withStore(({ db, traceDir, store }) => {
    const frames = Array.from({ length: 6 }, (_, i) => testFrame(i + 1));
    const names = spoolFrames(traceDir, frames).map((path) => path.split("/").pop()!).sort();
    const append = store.append.bind(store);
    let appended = 0;
    store.append = (input) => {
      // Not a frame fault (that would quarantine one frame): the store itself failed.
      if (++appended === 3) throw new Error("disk I/O error (injected on row 3)");
      return append(input);
    };
    const ingest = new Ingest(store, { spoolDir: spoolDir(traceDir), telemetry: noTelemetry() });
    assert.match(String(drainAndCommit(ingest, traceDir)), /injected on row 3/);
    assert.equal(readRows(db).length, 0);
    assert.deepEqual(listNames(spoolDir(traceDir)), names);
    assert.equal(drainAndCommit(ingest, traceDir), undefined);
    assert.deepEqual(listNames(spoolDir(traceDir)), []);
    assertExactlyOnce(db, frames);
  });
});

Deno.test("Ingest: frames from the socket whose commit fails stay in the spool the hook wrote", async () => {
  await withStore(({ db, traceDir, store }) => {
    const frames = [testFrame(1), testFrame(2)];
    spoolFrames(traceDir, frames);
    failCommits(store, 1);
    const ingest = new Ingest(store, { spoolDir: spoolDir(traceDir), telemetry: noTelemetry() });
    // As from the socket: the spool path is derived from the frame.
    for (const frame of frames) ingest.enqueue(frame);
    assert.throws(() => ingest.flush(), /injected at the commit/);
    assert.equal(listNames(spoolDir(traceDir)).length, 2);
    for (const frame of frames) ingest.enqueue(frame);
    ingest.flush();
    assert.deepEqual(listNames(spoolDir(traceDir)), []);
    assertExactlyOnce(db, frames);
  });
});

Deno.test("daemon: killed between the commit and deleting the spool files, it stores each row once after the restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-commit-" });
  const traceDir = `${dir}/traces`;
  const db = `${dir}/store/capture.db`;
  const frames = Array.from({ length: 4 }, (_, i) => testFrame(i + 1));
  spoolFrames(traceDir, frames);
  // The state such a crash leaves: rows 1-3 committed, their spool files not yet deleted.
  Deno.mkdirSync(`${dir}/store`, { mode: 0o700 });
  const store = openStore(db);
  const ingest = new Ingest(store, { spoolDir: `${dir}/elsewhere`, telemetry: noTelemetry() });
  for (const frame of frames.slice(0, 3)) ingest.enqueue(frame, { spoolPath: `${dir}/none` });
  ingest.flush();
  store.close();
  assert.equal(listNames(spoolDir(traceDir)).length, 4);
  const daemon = await startTestDaemon({ dir });
  try {
    await waitForRows(daemon.db, 4);
    for (let i = 0; i < 40 && listNames(spoolDir(traceDir)).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(listNames(spoolDir(traceDir)), []);
    assert.deepEqual(listNames(quarantineDirOf(daemon.db)), []);
    assertExactlyOnce(daemon.db, frames);
    assert.doesNotMatch(daemon.stderr(), /WARN/);
  } finally {
    await daemon.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "daemon: after a full disk stopped it, a restart with room stores every spooled row exactly once",
  ignore: !(await canMountTmpfs()),
  async fn() {
    const { dir, daemon: full, frames, spooled } = await startOnFullDisk();
    const names = spooled.map((p) => p.split("/").pop()!).sort();
    assert.equal((await full.process.status).code, 1);
    assert.match(full.stderr(), /database or disk is full/);
    await full.stop({ keep: true });
    assert.deepEqual(listNames(spoolDir(`${dir}/traces`)), names);
    // The tmpfs lived in the daemon's namespace only: the restart gets a disk with room.
    const daemon = await startTestDaemon({ dir });
    try {
      await waitForRows(daemon.db, 6);
      for (let i = 0; i < 40 && listNames(spoolDir(daemon.traceDir)).length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(listNames(spoolDir(daemon.traceDir)), []);
      assertExactlyOnce(daemon.db, frames);
    } finally {
      await daemon.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
