/**
 * `verify` against a tampered store: a deleted row, a gap in `seq` whose
 * hashes were recomputed to match, and each column of a row changed. The
 * append-only triggers are dropped on a copy of the store, as an attacker with
 * the file would. Each case must name the first bad `seq` and what is wrong.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ChainBrokenError, rowHash } from "../lib/chain.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { openStore } from "../lib/store.ts";
import { ROOT, testFrame } from "./_daemon.ts";

const ROWS = 4;

/** A store of four prompt rows, closed (so its file holds everything). */
function makeStore(db: string): void {
  const store = openStore(db);
  store.transaction(() => {
    for (let i = 1; i <= ROWS; i++) {
      const frame = testFrame(i);
      store.append({ frameId: frame.id, kind: ROW_KINDS.prompt, payload: frame.payload });
    }
  });
  store.close();
}

/** A copy of the store, its triggers dropped and `tamper` run on it. */
function tampered(dir: string, name: string, tamper: (db: DatabaseSync) => void): string {
  const copy = `${dir}/${name}.db`;
  Deno.copyFileSync(`${dir}/capture.db`, copy);
  const db = new DatabaseSync(copy);
  db.exec("DROP TRIGGER rows_no_update; DROP TRIGGER rows_no_delete;");
  tamper(db);
  db.close();
  return copy;
}

function verifyError(db: string): ChainBrokenError | undefined {
  const store = openStore(db, { readOnly: true });
  try {
    store.verify();
    return undefined;
  } catch (error) {
    if (error instanceof ChainBrokenError) return error;
    throw error;
  } finally {
    store.close();
  }
}

interface Case {
  name: string;
  tamper: (db: DatabaseSync) => void;
  message: string;
}

const CASES: Case[] = [
  {
    name: "a deleted row",
    tamper: (db) => db.exec("DELETE FROM rows WHERE seq = 2"),
    message: "Chain broken at seq 2: row is missing",
  },
  {
    name: "a gap in seq, hashes recomputed around it",
    tamper: (db) => {
      // Rows 3 and 4 go; a row numbered 4 is chained onto row 2 with a correct hash.
      const two = db.prepare("SELECT hash FROM rows WHERE seq = 2").get() as { hash: string };
      const frame = testFrame(9);
      const hash = rowHash(two.hash, { seq: 4, kind: ROW_KINDS.prompt, payload: frame.payload });
      db.exec("DELETE FROM rows WHERE seq >= 3");
      db.prepare(
        `INSERT INTO rows (seq, frame_id, kind, session_id, cwd, captured_at_ns, payload, prev_hash, hash)
         VALUES (4, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        frame.id,
        ROW_KINDS.prompt,
        String(frame.payload.session_id),
        String(frame.payload.cwd),
        BigInt(Number(frame.payload.captured_at_ns)),
        JSON.stringify(frame.payload),
        two.hash,
        hash,
      );
    },
    message: "Chain broken at seq 3: row is missing",
  },
  {
    name: "kind",
    tamper: (db) => db.exec(`UPDATE rows SET kind = '${ROW_KINDS.toolUse}' WHERE seq = 2`),
    message: "Chain broken at seq 2: hash does not match the row's content",
  },
  {
    name: "payload",
    tamper: (db) =>
      db.exec(`UPDATE rows SET payload = replace(payload, 'prompt number', 'prompt NUMBER')
               WHERE seq = 3`),
    message: "Chain broken at seq 3: hash does not match the row's content",
  },
  {
    name: "payload that is not JSON",
    tamper: (db) => db.exec("UPDATE rows SET payload = '{' WHERE seq = 3"),
    message: "Chain broken at seq 3: payload is not JSON",
  },
  {
    name: "prev_hash",
    tamper: (db) => db.exec(`UPDATE rows SET prev_hash = '${"1".repeat(64)}' WHERE seq = 2`),
    message: "Chain broken at seq 2: prev_hash does not match the previous row's hash",
  },
  {
    name: "hash",
    tamper: (db) => db.exec(`UPDATE rows SET hash = '${"2".repeat(64)}' WHERE seq = 4`),
    message: "Chain broken at seq 4: hash does not match the row's content",
  },
  {
    name: "session_id",
    tamper: (db) =>
      db.exec("UPDATE rows SET session_id = '00000000-0000-4000-8000-000000000000' WHERE seq = 2"),
    message: "Chain broken at seq 2: columns disagree with the payload",
  },
  {
    name: "cwd",
    tamper: (db) => db.exec("UPDATE rows SET cwd = '/elsewhere' WHERE seq = 3"),
    message: "Chain broken at seq 3: columns disagree with the payload",
  },
  {
    name: "cwd set to NULL",
    tamper: (db) => db.exec("UPDATE rows SET cwd = NULL WHERE seq = 3"),
    message: "Chain broken at seq 3: columns disagree with the payload",
  },
  {
    name: "captured_at_ns",
    tamper: (db) => db.exec("UPDATE rows SET captured_at_ns = captured_at_ns + 1 WHERE seq = 4"),
    message: "Chain broken at seq 4: columns disagree with the payload",
  },
];

Deno.test("Store.verify(): names the first bad seq for a deleted row, a gap and each tampered column", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  try {
    makeStore(`${dir}/capture.db`);
    const intact = openStore(`${dir}/capture.db`, { readOnly: true });
    assert.equal(intact.verify(), ROWS);
    intact.close();
    for (const [i, { name, tamper, message }] of CASES.entries()) {
      await t.step(name, () => {
        const error = verifyError(tampered(dir, `case-${i}`, tamper));
        assert.equal(error?.message, message);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function runVerifyTask(
  db: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "verify"],
    cwd: ROOT,
    env: { CYBEROS_MEMORY_DB: db, NO_COLOR: "1" },
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test("deno task verify: exit 0 with the count when intact, exit 1 naming the seq when tampered", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-tamper-" });
  try {
    makeStore(`${dir}/capture.db`);
    const intact = await runVerifyTask(`${dir}/capture.db`);
    assert.equal(intact.code, 0, intact.stderr);
    assert.match(intact.stdout, /^chain intact: 4 rows verified in \d+ ms/);
    const copy = tampered(dir, "cwd", (db) => db.exec("UPDATE rows SET cwd = '/x' WHERE seq = 3"));
    const broken = await runVerifyTask(copy);
    assert.equal(broken.code, 1);
    assert.match(
      broken.stderr,
      /^cyberos-memory verify: Chain broken at seq 3: columns disagree with the payload/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
