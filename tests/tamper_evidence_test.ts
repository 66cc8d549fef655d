/**
 * Tamper evidence against the store's owner: a real daemon signs checkpoints
 * into a real store; with a checkpoint and verifier key kept outside the
 * store, every way of rewriting history that the chain alone misses (the
 * last rows deleted, rows rewritten with recomputed hashes, the file replaced
 * by another valid chain, two rows swapped) makes `verify --checkpoint` exit
 * 1 naming the reason, while an untouched store and one that only grew pass.
 * Proofs made by `prove` verify without the store. The commands run with the
 * `reader` permission set of `deno.json`, as `deno task` runs them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { encodeFrame } from "../lib/frame.ts";
import { parseCheckpoint } from "../lib/checkpoint.ts";
import { parseNote, parseVerifierKey } from "../lib/note.ts";
import { signingKeyPath } from "../lib/signing_key.ts";
import {
  ROOT,
  sendRaw,
  startTestDaemon,
  type TestDaemon,
  testFrame,
  waitForRows,
} from "./_daemon.ts";
import { runDeno, type TaskResult as Run } from "./_launcher.ts";
import { copyStore, recomputeChain, swapRows, tamper } from "./_tamper.ts";

/** Runs a command the way its `deno task` does: `install/main.ts` with the `reader` set. */
function task(command: string, args: string[], db: string): Promise<Run> {
  return runDeno(["run", "-q", "-P=reader", `${ROOT}/install/main.ts`, command, ...args], {
    cwd: ROOT,
    env: { CYBEROS_MEMORY_DB: db, NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
  });
}

async function sendFrames(daemon: TestDaemon, from: number, count: number): Promise<void> {
  const frames = Array.from({ length: count }, (_, i) => encodeFrame(testFrame(from + i)));
  const all = new Uint8Array(frames.reduce((n, frame) => n + frame.length, 0));
  let offset = 0;
  for (const frame of frames) {
    all.set(frame, offset);
    offset += frame.length;
  }
  await sendRaw(daemon.socket, all);
}

/**
 * A store of 30 rows whose daemon signed at 10, 20 and 30 rows (each stop
 * signs), the checkpoint of 30 rows and the verifier key saved outside it.
 */
async function signedStore(dir: string, firstFrame = 1) {
  const daemon = await startTestDaemon({ dir });
  for (let batch = 0; batch < 3; batch++) {
    if (batch > 0) await daemon.restart();
    await sendFrames(daemon, firstFrame + batch * 10, 10);
    await waitForRows(daemon.db, (batch + 1) * 10);
    await daemon.stop({ keep: true });
  }
  const checkpoint = await task("checkpoint", [], daemon.db);
  assert.equal(checkpoint.code, 0, checkpoint.stderr);
  const key = await task("key", [], daemon.db);
  assert.equal(key.code, 0, key.stderr);
  const checkpointFile = `${dir}/kept-elsewhere.checkpoint`;
  Deno.writeTextFileSync(checkpointFile, checkpoint.stdout);
  return { daemon, checkpointFile, vkey: key.stdout.trim(), checkpoint: checkpoint.stdout };
}

Deno.test("the daemon makes the key at first start (0600, beside the store), signs on its interval and keeps the checkpoint", async () => {
  const daemon = await startTestDaemon();
  try {
    const keyInfo = Deno.lstatSync(signingKeyPath(daemon.db));
    assert.ok(keyInfo.isFile);
    assert.equal(keyInfo.mode! & 0o777, 0o600);
    await sendFrames(daemon, 1, 7);
    await waitForRows(daemon.db, 7);
    // Signed within one interval of the commit, the daemon still running.
    let checkpoint: Run | undefined;
    const deadline = Date.now() + 12_000;
    while (Date.now() < deadline) {
      checkpoint = await task("checkpoint", [], daemon.db);
      if (checkpoint.code === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(checkpoint?.code, 0, checkpoint?.stderr);
    const key = await task("key", [], daemon.db);
    assert.equal(key.code, 0);
    const vkey = parseVerifierKey(key.stdout.trim());
    assert.match(vkey.name, /^cyberos-memory\/[0-9a-f]{16}$/);
    const body = parseCheckpoint(parseNote(checkpoint!.stdout).text);
    assert.equal(body.origin, vkey.name);
    assert.equal(body.size, 7);
    const verify = await task("verify", [], daemon.db);
    assert.equal(verify.code, 0, verify.stderr);
    assert.match(verify.stdout, /triggers intact/);
    assert.match(
      verify.stdout,
      /checkpoints intact: the rows have the roots of the store's 1 signed checkpoint$/m,
    );
  } finally {
    await daemon.stop();
  }
});

Deno.test("verify --checkpoint: an untouched store and one that only grew pass; prove's proofs verify without the store", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  try {
    const { daemon, checkpointFile, vkey } = await signedStore(dir);
    const untouched = await task(
      "verify",
      ["--checkpoint", checkpointFile, "--vkey", vkey],
      daemon.db,
    );
    assert.equal(untouched.code, 0, untouched.stderr);
    assert.match(
      untouched.stdout,
      /checkpoint holds: .* \(30 rows, root .*\) matches rows 1\.\.30/,
    );

    await daemon.restart();
    await sendFrames(daemon, 100, 5);
    await waitForRows(daemon.db, 35);
    await daemon.stop({ keep: true });
    const grown = await task("verify", ["--checkpoint", checkpointFile, "--vkey", vkey], daemon.db);
    assert.equal(grown.code, 0, grown.stderr);
    assert.match(grown.stdout, /matches rows 1\.\.30; the store has 35 rows/);

    const inclusion = await task("prove", ["12"], daemon.db);
    assert.equal(inclusion.code, 0, inclusion.stderr);
    assert.match(inclusion.stdout, /^c2sp\.org\/tlog-proof@v1\nextra .*\nindex 11\n/);
    const consistency = await task("prove", ["--from", checkpointFile], daemon.db);
    assert.equal(consistency.code, 0, consistency.stderr);
    const nowhere = `${dir}/no-store-here.db`;
    for (
      const [name, proof, holds] of [
        [
          "inclusion",
          inclusion.stdout,
          /inclusion proof holds: row 12 \(hash [0-9a-f]{64}\) is in the tree of 35 rows/,
        ],
        [
          "consistency",
          consistency.stdout,
          /consistency proof holds: the tree of 35 rows extends the tree of 30 rows/,
        ],
      ] as const
    ) {
      const file = `${dir}/${name}.proof`;
      Deno.writeTextFileSync(file, proof);
      const checked = await task("verify", ["--proof", file, "--vkey", vkey], nowhere);
      assert.equal(checked.code, 0, checked.stderr);
      assert.match(checked.stdout, holds);
      // One changed hash line and the proof no longer holds.
      const lines = proof.split("\n");
      const hashLine = name === "inclusion" ? 3 : 1;
      lines[hashLine] = lines[hashLine]!.startsWith("A")
        ? `B${lines[hashLine]!.slice(1)}`
        : `A${lines[hashLine]!.slice(1)}`;
      Deno.writeTextFileSync(file, lines.join("\n"));
      const forged = await task("verify", ["--proof", file, "--vkey", vkey], nowhere);
      assert.equal(forged.code, 1, forged.stdout);
      assert.match(forged.stderr, /^cyberos-memory verify: proof .*: Proof does not hold: /);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verify --checkpoint names each rewrite the chain alone misses, exit 1", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  try {
    const { daemon, checkpointFile, vkey } = await signedStore(dir);
    const original = `${dir}/original.db`;
    copyStore(daemon.db, original);
    const check = () => task("verify", ["--checkpoint", checkpointFile, "--vkey", vkey], daemon.db);
    const chainStillIntact = (run: Run) => assert.match(run.stdout, /chain intact: /);

    await t.step("the last rows deleted", async () => {
      copyStore(original, daemon.db);
      tamper(daemon.db, (sql) => {
        sql.exec("DELETE FROM rows WHERE seq > 26");
        sql.exec("DELETE FROM checkpoints WHERE size > 26");
      });
      const run = await check();
      assert.equal(run.code, 1, run.stdout);
      chainStillIntact(run);
      assert.match(
        run.stderr,
        /checkpoint .*: fewer rows than the checkpoint: the store has 26, the checkpoint 30; rows 27\.\.30 are gone/,
      );
    });

    await t.step("rows rewritten from seq 15 with recomputed hashes", async () => {
      copyStore(original, daemon.db);
      tamper(daemon.db, (sql) => {
        sql.exec(
          "UPDATE rows SET payload = replace(payload, 'prompt number 15', 'nothing to see') WHERE seq = 15",
        );
        recomputeChain(sql, 15);
      });
      const run = await check();
      assert.equal(run.code, 1, run.stdout);
      chainStillIntact(run);
      assert.match(
        run.stderr,
        /root mismatch: the store's first 30 rows do not have the checkpoint's root; the first row that differs is between seq 11 and seq 20 \(rows 1\.\.10 still match/,
      );
      // The store's own checkpoint of 20 rows already tells, without the one kept elsewhere.
      const alone = await task("verify", [], daemon.db);
      assert.equal(alone.code, 1);
      assert.match(
        alone.stderr,
        /first 20 rows no longer have the root of its own checkpoint of 20 rows/,
      );
    });

    await t.step("rows rewritten and the store's own checkpoints deleted", async () => {
      copyStore(original, daemon.db);
      tamper(daemon.db, (sql) => {
        sql.exec(
          "UPDATE rows SET payload = replace(payload, 'prompt number 3', 'nothing') WHERE seq = 3",
        );
        recomputeChain(sql, 3);
        sql.exec("DELETE FROM checkpoints");
      });
      const alone = await task("verify", [], daemon.db);
      assert.equal(
        alone.code,
        0,
        "the store alone cannot tell: this is what the kept checkpoint is for",
      );
      const run = await check();
      assert.equal(run.code, 1, run.stdout);
      assert.match(
        run.stderr,
        /root mismatch: .*no checkpoint in the store tells which row differs first/,
      );
    });

    await t.step("two rows swapped, the chain recomputed", async () => {
      copyStore(original, daemon.db);
      tamper(daemon.db, (sql) => {
        swapRows(sql, 24, 25);
        recomputeChain(sql, 24);
      });
      const run = await check();
      assert.equal(run.code, 1, run.stdout);
      chainStillIntact(run);
      assert.match(run.stderr, /root mismatch: .*between seq 21 and seq 30/);
    });

    await t.step("two rows swapped, the chain left alone", async () => {
      copyStore(original, daemon.db);
      tamper(daemon.db, (sql) => swapRows(sql, 4, 5));
      const run = await check();
      assert.equal(run.code, 1, run.stdout);
      // The tree commits to the hash column, which is untouched; the chain walk binds each
      // row's content to its hash.
      assert.match(run.stderr, /Chain broken at seq 4: hash does not match the row's content/);
    });

    await t.step("the file replaced by another valid chain of its own", async () => {
      await Deno.mkdir(`${dir}/other`);
      const other = await signedStore(`${dir}/other`, 500);
      copyStore(other.daemon.db, daemon.db);
      const run = await check();
      assert.equal(run.code, 1, run.stdout);
      chainStillIntact(run);
      assert.match(
        run.stderr,
        /is for cyberos-memory\/[0-9a-f]{16} but this store is cyberos-memory\/[0-9a-f]{16}: not the same store/,
      );
      assert.match(run.stderr, /root mismatch/);
      // Trusting the replaced store's own key instead: the kept checkpoint has no signature by it.
      const ownKey = await task("verify", ["--checkpoint", checkpointFile], daemon.db);
      assert.equal(ownKey.code, 1);
      assert.match(
        ownKey.stderr,
        /checkpoint .*: Cannot verify note: no signature by cyberos-memory\//,
      );
    });

    await t.step("and the untouched copy still passes", async () => {
      copyStore(original, daemon.db);
      const run = await check();
      assert.equal(run.code, 0, run.stderr);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verify names an append-only trigger that is missing or replaced by a no-op", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  const daemon = await startTestDaemon({ dir });
  try {
    await sendFrames(daemon, 1, 3);
    await waitForRows(daemon.db, 3);
    await daemon.stop({ keep: true });
    const { DatabaseSync } = await import("node:sqlite");
    const sql = new DatabaseSync(daemon.db);
    sql.exec("DROP TRIGGER checkpoints_no_delete");
    sql.exec("DROP TRIGGER rows_no_update");
    sql.exec("CREATE TRIGGER rows_no_update BEFORE UPDATE ON rows BEGIN SELECT 1; END");
    sql.close();
    const run = await task("verify", [], daemon.db);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /trigger rows_no_update is altered/);
    assert.match(run.stderr, /trigger checkpoints_no_delete is missing/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the daemon does not sign a store that no longer holds its own latest checkpoint", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  try {
    const { daemon } = await signedStore(dir);
    tamper(daemon.db, (sql) => sql.exec("DELETE FROM rows WHERE seq > 28"));
    await daemon.restart();
    await sendFrames(daemon, 200, 2);
    await waitForRows(daemon.db, 30);
    await daemon.stop({ keep: true });
    assert.match(
      daemon.stderr(),
      /ERROR checkpoints_off: the store no longer holds the tree of its own checkpoint of 30 rows/,
    );
    const latest = await task("checkpoint", [], daemon.db);
    assert.equal(parseCheckpoint(parseNote(latest.stdout).text).size, 30, "no new checkpoint");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpoint, key, prove and verify answer --help, refuse unknown flags (exit 2) and say so with their prefix", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  try {
    const db = `${dir}/none.db`;
    for (const command of ["checkpoint", "key", "prove", "verify"]) {
      const help = await task(command, ["--help"], db);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`^usage: deno task ${command}`));
      const unknown = await task(command, ["--bogus"], db);
      assert.equal(unknown.code, 2);
      assert.match(
        unknown.stderr,
        new RegExp(`^cyberos-memory ${command}: unknown option "--bogus"`),
      );
    }
    const noStore = await task("checkpoint", [], db);
    assert.equal(noStore.code, 1, "no store: failed, not bad usage");
    assert.match(noStore.stderr, /^cyberos-memory checkpoint: cannot open .*none\.db/);
    const badSeq = await task("prove", ["0"], db);
    assert.equal(badSeq.code, 2);
    await Deno.writeTextFile(`${dir}/x`, "not a proof\n");
    const badKey = await task("verify", ["--proof", `${dir}/x`, "--vkey", "nope"], db);
    assert.equal(badKey.code, 2);
    const noProof = await task("verify", ["--proof", `${dir}/missing`, "--vkey", "nope"], db);
    assert.equal(noProof.code, 1, "a file that cannot be read: failed, not bad usage");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a frame id written onto another row does not make the daemon drop that frame", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  const daemon = await startTestDaemon({ dir });
  try {
    await sendFrames(daemon, 1, 3);
    await waitForRows(daemon.db, 3);
    await daemon.stop({ keep: true });
    const planted = testFrame(50);
    tamper(daemon.db, (sql) => {
      sql.prepare("UPDATE rows SET frame_id = ? WHERE seq = 2").run(planted.id);
    });
    await daemon.restart();
    await sendRaw(daemon.socket, encodeFrame(planted));
    const rows = await waitForRows(daemon.db, 4);
    assert.equal(rows[3]!.payload.prompt_redacted, "prompt number 50");
    await daemon.stop({ keep: true });
    assert.match(
      daemon.stderr(),
      /WARN frame_id_taken: another row carries frame id 0+32; stored as 0+32:taken:/,
    );
    // frame_id is outside the hash: editing it breaks nothing the chain or the tree proves.
    const verify = await task("verify", [], daemon.db);
    assert.equal(verify.code, 0, verify.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
