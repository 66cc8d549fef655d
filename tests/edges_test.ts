/**
 * Edges the mutation run found unguarded: a secret made of one repeated
 * character is a placeholder, not a secret; `captured_at_ns` at 0 and below;
 * a spool file whose name and frame id differ; and one a flaky security test
 * found: a spool folder swapped for another user's while a drain reads it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { explainText, redactText } from "../lib/redact/mod.ts";
import { encodeFrame, MAX_CAPTURED_AT_NS, validateFrame } from "../lib/frame.ts";
import { spoolDir } from "../lib/paths.ts";
import { spoolFileName, writeSpoolFile } from "../lib/spool.ts";
import { openStore, type Store } from "../lib/store.ts";
import { quarantineDirOf } from "../lib/store_paths.ts";
import { Ingest } from "../daemon/_ingest.ts";
import { Quarantine } from "../daemon/_quarantine.ts";
import { drainSpool, SpoolDistrusted } from "../daemon/_spool_drain.ts";
import { noTelemetry } from "../daemon/_telemetry.ts";
import { readRows, testFrame } from "./_daemon.ts";

Deno.test(
  "a token of one repeated character is a placeholder; the same shape with two is redacted",
  {
    permissions: "none",
  },
  () => {
    const repeated = `key sk-ant-api03-${"A".repeat(95)} end`;
    assert.equal(redactText(repeated).text, repeated);
    assert.deepEqual(explainText(repeated).rejected.map((r) => r.reason), [
      "one character repeated",
    ]);
    assert.equal(redactText(`ghp_${"Q".repeat(36)}`).text, `ghp_${"Q".repeat(36)}`);
    assert.equal(
      redactText(`key sk-ant-api03-${"B7".repeat(47)}A end`).text,
      "key <ANTHROPIC_KEY> end",
    );
  },
);

Deno.test(
  "validateFrame(): captured_at_ns 0 and the largest are taken; -1, 0.5 and past it are refused",
  {
    permissions: "none",
  },
  () => {
    const at = (ns: number) => {
      const frame = testFrame(1);
      frame.payload.captured_at_ns = ns;
      return frame;
    };
    assert.doesNotThrow(() => validateFrame(at(0)));
    assert.doesNotThrow(() => validateFrame(at(MAX_CAPTURED_AT_NS)));
    for (const ns of [-1, -1e18, 0.5, MAX_CAPTURED_AT_NS * 2]) {
      assert.throws(
        () => validateFrame(at(ns)),
        /captured_at_ns must be an integer from 0/,
        `${ns}`,
      );
    }
  },
);

/** Runs `fn` with a fresh store and an empty private spool, removed after. */
async function withSpool(
  fn: (fixture: { db: string; store: Store; spool: string }) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-edges-" });
  try {
    const db = `${dir}/capture.db`;
    const spool = spoolDir(`${dir}/traces`);
    Deno.mkdirSync(spool, { recursive: true, mode: 0o700 });
    fn({ db, store: openStore(db), spool });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("drainSpool(): a spool file whose name names another frame id is quarantined, not stored", async () => {
  await withSpool(({ db, store, spool }) => {
    const honest = testFrame(1);
    const disguised = testFrame(2);
    writeSpoolFile(spool, spoolFileName(1, honest.id), encodeFrame(honest));
    // Named after frame 3, holding frame 2.
    const misnamed = spoolFileName(2, testFrame(3).id);
    writeSpoolFile(spool, misnamed, encodeFrame(disguised));
    const telemetry = noTelemetry();
    const quarantine = new Quarantine(quarantineDirOf(db), { telemetry });
    const ingest = new Ingest(store, { spoolDir: spool, telemetry, quarantine });
    drainSpool(spool, { ingest, telemetry, nowMs: Date.now(), quarantine });
    ingest.flush();
    store.close();
    assert.deepEqual(readRows(db).map((row) => row.payload.prompt_redacted), ["prompt number 1"]);
    assert.deepEqual([...Deno.readDirSync(quarantineDirOf(db))].map((e) => e.name), [misnamed]);
    assert.deepEqual([...Deno.readDirSync(spool)], []);
  });
});

Deno.test("drainSpool(): a folder distrusted once its files are read is acted on in nothing: no row, no quarantine, no file removed", async () => {
  await withSpool(({ db, store, spool }) => {
    const forged = testFrame(1, { text: "forged by another user" });
    writeSpoolFile(spool, spoolFileName(1, forged.id), encodeFrame(forged));
    const misnamed = spoolFileName(2, testFrame(3).id);
    writeSpoolFile(spool, misnamed, encodeFrame(testFrame(2)));
    const telemetry = noTelemetry();
    const quarantine = new Quarantine(quarantineDirOf(db), { telemetry });
    const ingest = new Ingest(store, { spoolDir: spool, telemetry, quarantine });
    let asked = 0;
    assert.throws(
      () =>
        drainSpool(spool, {
          ingest,
          telemetry,
          nowMs: Date.now(),
          quarantine,
          distrust: () => {
            asked++;
            return "the spool was replaced";
          },
        }),
      SpoolDistrusted,
      "the spool was replaced",
    );
    assert.equal(asked, 1);
    assert.equal(ingest.queued, 0);
    ingest.flush();
    store.close();
    assert.deepEqual(readRows(db), []);
    assert.equal(Deno.statSync(spool).isDirectory, true);
    assert.equal([...Deno.readDirSync(spool)].length, 2, "both files left where they were");
    assert.throws(() => Deno.statSync(quarantineDirOf(db)), Deno.errors.NotFound);
  });
});
