/**
 * The team store against a real PostgreSQL server (a throwaway cluster made
 * by `initdb` for this file): schema and roles, what a machine's login may
 * and may not do in plain SQL, shipping from real stores filled by a real
 * daemon, and `team verify` on the copy.
 *
 * @module
 */

import assert from "node:assert/strict";
import postgres from "postgres";
import { startTestPostgres, type TestPostgres } from "./_postgres.ts";
import { parseTeamUrl } from "../team/_connect.ts";
import { enrollMachine } from "../team/_admin.ts";
import { DatabaseSync } from "node:sqlite";
import {
  appendRows,
  newMachine,
  runTeam as team,
  ship,
  spawnTeam,
  type TestMachine,
} from "./_team.ts";
import { rowHash } from "../lib/chain.ts";
import { ROOT, runHook, startTestDaemon } from "./_daemon.ts";
import { runTask } from "./_launcher.ts";

/** A fresh database in the cluster, initialised, with its admin URL. */
async function freshDatabase(pg: TestPostgres, name: string): Promise<string> {
  const admin = postgres(pg.adminUrl, { onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = pg.adminUrl.replace(/\/postgres$/, `/${name}`);
  const init = await team(["init", url], { url });
  assert.equal(init.code, 0, init.stderr);
  return url;
}

function sqlAs(url: string): postgres.Sql {
  return postgres(url, { onnotice: () => {}, max: 1 });
}

/** Enrolls `machine` with `team enroll`; returns the URL it printed. */
async function enroll(adminUrl: string, machine: { vkey: string }): Promise<string> {
  const run = await team(["enroll", adminUrl, machine.vkey], { url: adminUrl });
  assert.equal(run.code, 0, run.stderr);
  const url = run.stdout.trim();
  const password = decodeURIComponent(new URL(url).password);
  assert.ok(!run.stderr.includes(password), "the password is printed only in the URL");
  return url;
}

const ROW_TEXT_COLUMNS =
  "seq, frame_id, kind, session_id, cwd, CAST(captured_at_ns AS TEXT) AS captured_at_ns, payload, prev_hash, hash";

/** Every row of a local store, each column as the text it is stored as. */
function localRows(db: string): Record<string, unknown>[] {
  const sqlite = new DatabaseSync(db, { readOnly: true });
  try {
    return sqlite.prepare(`SELECT ${ROW_TEXT_COLUMNS} FROM rows ORDER BY seq`).all()
      .map((row) => ({ ...row, seq: String(row.seq) }));
  } finally {
    sqlite.close();
  }
}

/** Every checkpoint of a local store: tree size and note. */
function localCheckpoints(db: string): { size: string; note: string }[] {
  const sqlite = new DatabaseSync(db, { readOnly: true });
  try {
    return sqlite.prepare("SELECT size, note FROM checkpoints ORDER BY size").all()
      .map((row) => ({ size: String(row.size), note: String(row.note) }));
  } finally {
    sqlite.close();
  }
}

/** The team store's rows of `origin`, as text, in the same shape. */
async function centralRows(admin: postgres.Sql, origin: string) {
  return (await admin.unsafe(
    `SELECT seq::text AS seq, frame_id, kind, session_id, cwd,
            captured_at_ns::text AS captured_at_ns, payload, prev_hash, hash
     FROM cyberos_memory.rows WHERE origin = $1 ORDER BY rows.seq`,
    [origin],
  )).map((row) => ({ ...row }));
}

async function centralCheckpoints(admin: postgres.Sql, origin: string) {
  return (await admin`SELECT tree_size::text AS size, note FROM cyberos_memory.checkpoints
    WHERE origin = ${origin} ORDER BY checkpoints.tree_size`).map((row) => ({ ...row }));
}

/** A UserPromptSubmit payload as Claude Code sends it. */
function promptPayload(index: number): string {
  return JSON.stringify({
    session_id: "0c8f2a51-6d3e-4b7a-9e10-5f2d8c4b7a93",
    transcript_path: "/tmp/transcript.jsonl",
    cwd: "/work/project",
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: `prompt number ${index}`,
  });
}

/** The verifier key as `deno task key` prints it for the store at `db`. */
async function keyOf(db: string): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--allow-read", "--allow-env", `${ROOT}/install/main.ts`, "key"],
    clearEnv: true,
    env: { CYBEROS_MEMORY_DB: db },
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  return new TextDecoder().decode(output.stdout).trim();
}

/** Polls `check` every 100 ms until it holds, or fails after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many rows the team store holds, and the highest seq. */
async function tableStats(admin: postgres.Sql): Promise<{ n: number; max: number }> {
  const [row] = await admin<{ n: number; max: number }[]>`
    SELECT count(*)::int AS n, COALESCE(max(seq), 0)::int AS max FROM cyberos_memory.rows`;
  return { n: row!.n, max: row!.max };
}

/** Asserts the team store holds exactly the machine's rows and checkpoints, byte for byte. */
async function assertShipped(admin: postgres.Sql, machine: TestMachine): Promise<void> {
  assert.deepEqual(await centralRows(admin, machine.origin), localRows(machine.db));
  assert.deepEqual(
    await centralCheckpoints(admin, machine.origin),
    localCheckpoints(machine.db),
  );
}

/**
 * Rewrites the local chain from `fromSeq` with recomputed hashes (what an
 * owner with write access can do): the triggers go, payloads change, hashes
 * are made to link again.
 */
function rewriteFrom(db: string, fromSeq: number): void {
  const sqlite = new DatabaseSync(db);
  try {
    sqlite.exec("DROP TRIGGER rows_no_update");
    const rows = sqlite.prepare(
      "SELECT seq, kind, payload, prev_hash FROM rows WHERE seq >= ? ORDER BY seq",
    )
      .all(fromSeq) as { seq: number; kind: string; payload: string; prev_hash: string }[];
    let prevHash = rows[0]!.prev_hash;
    for (const row of rows) {
      const payload = { ...JSON.parse(row.payload), outcome: "success" };
      const hash = rowHash(prevHash, { seq: Number(row.seq), kind: row.kind, payload });
      sqlite.prepare("UPDATE rows SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?")
        .run(JSON.stringify(payload), prevHash, hash, row.seq);
      prevHash = hash;
    }
  } finally {
    sqlite.close();
  }
}

Deno.test("team store on a real PostgreSQL server", async (t) => {
  const pg = await startTestPostgres();
  try {
    await t.step(
      "init is idempotent and a machine login may only INSERT its own origin",
      async (t) => {
        const url = await freshDatabase(pg, "roles");
        const again = await team(["init", url], { url });
        assert.equal(again.code, 0, again.stderr);
        const admin = sqlAs(url);
        let alice: postgres.Sql | undefined;
        try {
          const target = parseTeamUrl(url);
          const a = await enrollMachine(admin, { origin: "alice", vkey: "alice+00000000+x" }, {
            adminUrl: target,
          });
          await enrollMachine(admin, { origin: "bob", vkey: "bob+00000000+y" }, {
            adminUrl: target,
          });
          assert.match(
            a.url,
            /^postgres:\/\/cyberos_memory_m_[0-9a-f]{16}:[A-Za-z0-9]{32}@127\.0\.0\.1:\d+\/roles$/,
          );
          alice = sqlAs(a.url);
          const row = (origin: string, seq: number) =>
            alice!`INSERT INTO cyberos_memory.rows
            (origin, seq, frame_id, kind, session_id, cwd, captured_at_ns, payload, prev_hash, hash)
            VALUES (${origin}, ${seq}, 'f', 'k', 's', NULL, 1, '{}', 'p', 'h')`;
          await row("alice", 1);
          const refused = async (query: () => Promise<unknown>, pattern: RegExp) => {
            await assert.rejects(query, (error: Error) => {
              assert.match(error.message, pattern);
              return true;
            });
          };
          await t.step("insert under another origin is refused by row-level security", async () => {
            await refused(() => row("bob", 1), /row-level security/);
          });
          await t.step("UPDATE, DELETE, TRUNCATE are refused", async () => {
            await refused(
              () => alice!`UPDATE cyberos_memory.rows SET payload = '{"x":1}'`,
              /permission denied/,
            );
            await refused(() => alice!`DELETE FROM cyberos_memory.rows`, /permission denied/);
            await refused(() => alice!`TRUNCATE cyberos_memory.rows`, /permission denied/);
            await refused(
              () => alice!`DELETE FROM cyberos_memory.checkpoints`,
              /permission denied/,
            );
            await refused(
              () =>
                alice!`INSERT INTO cyberos_memory.machines (origin, vkey, login) VALUES ('x', 'y', 'z')`,
              /permission denied/,
            );
            await refused(
              () =>
                alice!`INSERT INTO cyberos_memory.rows (origin, seq, frame_id, kind, session_id, captured_at_ns, payload, prev_hash, hash, shipped_at) VALUES ('alice', 2, 'f', 'k', 's', 1, '{}', 'p', 'h', now())`,
              /permission denied/,
            );
          });
          await t.step(
            "the triggers refuse UPDATE, DELETE, TRUNCATE even to the owner",
            async () => {
              await refused(
                () => admin`UPDATE cyberos_memory.rows SET payload = '{"x":1}'`,
                /append-only: UPDATE refused/,
              );
              await refused(
                () => admin`DELETE FROM cyberos_memory.rows`,
                /append-only: DELETE refused/,
              );
              await refused(
                () => admin`TRUNCATE cyberos_memory.rows`,
                /append-only: TRUNCATE refused/,
              );
            },
          );
          await t.step("a machine sees only its own rows", async () => {
            const bob = await enrollMachine(admin, { origin: "bob", vkey: "bob+00000000+y" }, {
              adminUrl: target,
            });
            assert.equal(bob.reissued, true);
            const bobSql = sqlAs(bob.url);
            try {
              assert.equal((await bobSql`SELECT origin FROM cyberos_memory.rows`).length, 0);
            } finally {
              await bobSql.end();
            }
          });
          await t.step(
            "a reviewer with the reader role reads every machine and writes nothing",
            async () => {
              await admin.unsafe(
                "CREATE ROLE reviewer LOGIN PASSWORD 'reviewer-pw' IN ROLE cyberos_memory_reader",
              );
              const reviewer = sqlAs(
                url.replace(/:\/\/postgres:[^@]+@/, "://reviewer:reviewer-pw@"),
              );
              try {
                const rows = await reviewer`SELECT origin FROM cyberos_memory.rows`;
                assert.deepEqual(rows.map((row) => row.origin), ["alice"]);
                assert.equal(
                  (await reviewer`SELECT origin FROM cyberos_memory.machines`).length,
                  2,
                );
                await refused(
                  () =>
                    reviewer`INSERT INTO cyberos_memory.checkpoints (origin, tree_size, note)
                           VALUES ('alice', 1, 'x')`,
                  /permission denied/,
                );
              } finally {
                await reviewer.end();
              }
            },
          );
        } finally {
          await alice?.end();
          await admin.end();
        }
      },
    );

    await t.step("CLI: --help, unknown flags, bad URLs and a wrong password", async (t) => {
      const url = await freshDatabase(pg, "cli");
      const cases: [args: string[], code: number, pattern: RegExp][] = [
        [["--help"], 0, /^usage: deno task team init\|enroll\|ship\|verify/],
        [["init", "--help"], 0, /^usage: deno task team init <admin-url>/],
        [["enroll", "-h"], 0, /^usage: deno task team enroll <admin-url> <vkey>/],
        [["ship", "--help"], 0, /^usage: deno task team ship \[--follow\]/],
        [["verify", "--help"], 0, /^usage: deno task team verify <url>/],
        [["frobnicate"], 2, /^cyberos-memory team: unknown command "frobnicate"/],
        [["init", url, "--force"], 2, /^cyberos-memory team: init: unknown option "--force"/],
        [["init"], 2, /^cyberos-memory team: init: expected <admin-url>, got 0/],
        [
          ["init", "http://example.com/x"],
          2,
          /^cyberos-memory team: init: Cannot read the URL: scheme "http:"/,
        ],
        [
          ["enroll", url, "not-a-key"],
          2,
          /^cyberos-memory team: enroll: Cannot parse verifier key/,
        ],
        [
          ["ship", "--db", "/nonexistent/capture.db"],
          2,
          /^cyberos-memory team: ship: CYBEROS_MEMORY_TEAM_URL is not set/,
        ],
        [
          ["ship", "--follow", "--batch", "0", "--db", "/x"],
          2,
          /^cyberos-memory team: ship: --batch needs a positive whole number/,
        ],
      ];
      for (const [args, code, pattern] of cases) {
        await t.step(
          `${args.map((arg) => arg === url ? "<url>" : arg).join(" ")} → ${code}`,
          async () => {
            const db = args[0] === "ship" ? { db: "/nonexistent/capture.db" } : {};
            const run = await team(args, { url, ...db });
            assert.equal(run.code, code, run.stdout + run.stderr);
            assert.match(code === 0 ? run.stdout : run.stderr, pattern);
          },
        );
      }
      await t.step("a wrong password fails with exit 1 and is never printed", async () => {
        const wrong = url.replace(/:\/\/postgres:[^@]+@/, "://postgres:Wr0ngPassw0rdXYZ@");
        const run = await team(["verify", wrong], { url: wrong });
        assert.equal(run.code, 1);
        assert.match(
          run.stderr,
          /^cyberos-memory team: verify failed: password authentication failed/,
        );
        assert.ok(
          !run.stderr.includes("Wr0ngPassw0rdXYZ") && !run.stdout.includes("Wr0ngPassw0rdXYZ"),
        );
      });
    });

    await t.step(
      "two machines ship into one database, byte for byte; twice changes nothing",
      async () => {
        const url = await freshDatabase(pg, "two");
        const dir = await Deno.makeTempDir({ prefix: "cyberos-team-" });
        const admin = sqlAs(url);
        try {
          const machines = [await newMachine(dir, "alice"), await newMachine(dir, "bob")];
          await appendRows(machines[0]!, { count: 2500 });
          await appendRows(machines[1]!, { count: 1200, checkpointEvery: 500 });
          const urls: string[] = [];
          for (const machine of machines) {
            const machineUrl = await enroll(url, machine);
            urls.push(machineUrl);
            const first = await ship(machine, machineUrl);
            assert.equal(first.code, 0, first.stderr);
            assert.match(first.stdout, /^shipped \d+ rows and \d+ checkpoints of cyberos-memory\//);
            await assertShipped(admin, machine);
            const again = await ship(machine, machineUrl);
            assert.equal(again.code, 0, again.stderr);
            assert.match(again.stdout, /^shipped 0 rows and 0 checkpoints/);
            await assertShipped(admin, machine);
          }
          await appendRows(machines[0]!, { count: 10 });
          const crossed = await ship(machines[0]!, urls[1]!);
          assert.equal(crossed.code, 1, crossed.stdout);
          assert.match(
            crossed.stderr,
            /^cyberos-memory team: Cannot ship: the store is the log cyberos-memory\/alice, but the URL's login was enrolled for cyberos-memory\/bob/,
          );
          const asAdmin = await ship(machines[0]!, url);
          assert.equal(asAdmin.code, 1, asAdmin.stdout);
          assert.match(asAdmin.stderr, /Cannot ship: the URL's login is not an enrolled machine/);
          assert.equal((await ship(machines[0]!, urls[0]!)).code, 0);
          for (const machine of machines) await assertShipped(admin, machine);
          const verified = await team(["verify", url], { url });
          assert.equal(verified.code, 0, verified.stdout + verified.stderr);
          assert.match(
            verified.stdout,
            /^ok cyberos-memory\/alice: 2510 rows, 4 checkpoints intact$/m,
          );
          assert.match(
            verified.stdout,
            /^ok cyberos-memory\/bob: 1200 rows, 3 checkpoints intact$/m,
          );
        } finally {
          await admin.end();
          await Deno.remove(dir, { recursive: true });
        }
      },
    );

    await t.step("deno task team, as a user runs it: init, enroll, ship, verify", async () => {
      const url = await freshDatabase(pg, "tasks");
      const dir = await Deno.makeTempDir({ prefix: "cyberos-team-" });
      try {
        const machine = await newMachine(dir, "gina");
        await appendRows(machine, { count: 120, checkpointEvery: 50 });
        const task = (args: string[], env: Record<string, string> = {}) =>
          runTask(["team", ...args], { root: ROOT, home: dir, env });
        assert.equal((await task(["init", url])).code, 0);
        const enrolled = await task(["enroll", url, machine.vkey]);
        assert.equal(enrolled.code, 0, enrolled.stderr);
        const shipped = await task(["ship"], {
          CYBEROS_MEMORY_DB: machine.db,
          CYBEROS_MEMORY_TEAM_URL: enrolled.stdout.trim(),
        });
        assert.equal(shipped.code, 0, shipped.stderr);
        assert.match(shipped.stdout, /^shipped 120 rows and 3 checkpoints of cyberos-memory\/gina/);
        const verified = await task(["verify", url]);
        assert.equal(verified.code, 0, verified.stdout + verified.stderr);
        assert.match(verified.stdout, /^ok cyberos-memory\/gina: 120 rows, 3 checkpoints intact$/m);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });

    await t.step(
      "a ship killed mid-way, and two ships at once, leave no duplicate and no gap",
      async () => {
        const url = await freshDatabase(pg, "crash");
        const dir = await Deno.makeTempDir({ prefix: "cyberos-team-" });
        const admin = sqlAs(url);
        try {
          const machine = await newMachine(dir, "carol");
          await appendRows(machine, { count: 6000 });
          const machineUrl = await enroll(url, machine);
          const child = spawnTeam(["ship", "--db", machine.db, "--batch", "50"], {
            url: machineUrl,
            db: machine.db,
            env: { CYBEROS_MEMORY_TEAM_URL: machineUrl },
          });
          while ((await tableStats(admin)).n === 0) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          child.kill("SIGKILL");
          await child.output();
          const afterKill = (await tableStats(admin)).n;
          assert.ok(
            afterKill < 6000,
            `the kill came too late to test anything (${afterKill} rows)`,
          );
          const [one, two] = await Promise.all([
            ship(machine, machineUrl),
            ship(machine, machineUrl),
          ]);
          assert.equal(one.code, 0, one.stderr);
          assert.equal(two.code, 0, two.stderr);
          await assertShipped(admin, machine);
          assert.deepEqual(await tableStats(admin), { n: 6000, max: 6000 });
        } finally {
          await admin.end();
          await Deno.remove(dir, { recursive: true });
        }
      },
    );

    await t.step(
      "a local rewrite after shipping stops ship naming the seq; the team copy still verifies",
      async () => {
        const url = await freshDatabase(pg, "rewrite");
        const dir = await Deno.makeTempDir({ prefix: "cyberos-team-" });
        const admin = sqlAs(url);
        try {
          const machine = await newMachine(dir, "dave");
          await appendRows(machine, { count: 300, checkpointEvery: 100 });
          const machineUrl = await enroll(url, machine);
          assert.equal((await ship(machine, machineUrl)).code, 0);
          const before = await centralRows(admin, machine.origin);
          rewriteFrom(machine.db, 123);
          await appendRows(machine, { count: 10 });
          const refused = await ship(machine, machineUrl);
          assert.equal(refused.code, 1, refused.stdout);
          assert.match(
            refused.stderr,
            /^cyberos-memory team: Divergence at seq 123: the team store's payload differs/,
          );
          assert.deepEqual(await centralRows(admin, machine.origin), before);
          const verified = await team(["verify", url], { url });
          assert.equal(verified.code, 0, verified.stdout);
          assert.match(
            verified.stdout,
            /^ok cyberos-memory\/dave: 300 rows, 3 checkpoints intact$/m,
          );
        } finally {
          await admin.end();
          await Deno.remove(dir, { recursive: true });
        }
      },
    );

    await t.step(
      "ship --follow outlives the team store going away while hooks keep firing, then catches up",
      async () => {
        const url = await freshDatabase(pg, "follow");
        const daemon = await startTestDaemon();
        const admin = sqlAs(url);
        let follower: Deno.ChildProcess | undefined;
        try {
          const fire = async (from: number, to: number) => {
            for (let i = from; i < to; i++) {
              const run = await runHook(daemon, "userpromptsubmit", promptPayload(i));
              assert.equal(run.code, 0);
              assert.equal(run.stderr, "", "the hook warned while the team store was away");
            }
          };
          await fire(0, 5);
          await until(() => Promise.resolve(localRows(daemon.db).length === 5), "the first rows");
          const machine = { db: daemon.db, origin: "", vkey: await keyOf(daemon.db) };
          machine.origin = machine.vkey.split("+")[0]!;
          const machineUrl = await enroll(url, machine);
          await admin.end();
          // It starts while the team store is away (a laptop at login, off the network)…
          await pg.stop();
          follower = spawnTeam(["ship", "--follow", "--interval", "100", "--db", daemon.db], {
            url: machineUrl,
            db: daemon.db,
            env: { CYBEROS_MEMORY_TEAM_URL: machineUrl },
          });
          await new Promise((resolve) => setTimeout(resolve, 800));
          await pg.start();
          const first = sqlAs(url);
          try {
            await until(async () => (await tableStats(first)).n === 5, "the first rows shipped");
          } finally {
            await first.end();
          }
          // …and the team store goes away again while hooks keep firing.
          await pg.stop();
          await fire(5, 15);
          await until(
            () => Promise.resolve(localRows(daemon.db).length === 15),
            "rows while it is away",
          );
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await pg.start();
          const back = sqlAs(url);
          try {
            await until(async () => (await tableStats(back)).n === 15, "the catch-up", 60_000);
            await daemon.stop({ keep: true });
            const lastSize = localCheckpoints(daemon.db).at(-1)!.size;
            await until(
              async () =>
                (await centralCheckpoints(back, machine.origin)).at(-1)?.size === lastSize,
              "the shutdown checkpoint",
            );
            follower.kill("SIGTERM");
            const output = await follower.output();
            follower = undefined;
            const stderr = new TextDecoder().decode(output.stderr);
            assert.equal(output.code, 0, stderr);
            assert.match(stderr, /WARN team_store_unavailable: .*retrying in \d+ ms/);
            await assertShipped(back, machine as TestMachine);
            const verified = await team(["verify", url], { url });
            assert.equal(verified.code, 0, verified.stdout);
            assert.match(
              verified.stdout,
              /^ok cyberos-memory\/\S+: 15 rows, \d+ checkpoints intact$/m,
            );
          } finally {
            await back.end();
          }
        } finally {
          follower?.kill("SIGKILL");
          await follower?.output();
          await admin.end();
          await daemon.stop().catch(() => {});
          await Deno.remove(daemon.dir, { recursive: true }).catch(() => {});
        }
      },
    );

    await t.step(
      "a team row altered by an admin makes team verify fail naming machine and seq",
      async () => {
        const url = await freshDatabase(pg, "altered");
        const dir = await Deno.makeTempDir({ prefix: "cyberos-team-" });
        const admin = sqlAs(url);
        try {
          const machines = [await newMachine(dir, "erin"), await newMachine(dir, "frank")];
          for (const machine of machines) {
            await appendRows(machine, { count: 200, checkpointEvery: 100 });
            assert.equal((await ship(machine, await enroll(url, machine))).code, 0);
          }
          await admin.begin(async (tx) => {
            await tx`ALTER TABLE cyberos_memory.rows DISABLE TRIGGER rows_append_only`;
            await tx`UPDATE cyberos_memory.rows SET payload = replace(payload, '"error"', '"success"')
                   WHERE origin = 'cyberos-memory/frank' AND seq = 18`;
            await tx`ALTER TABLE cyberos_memory.rows ENABLE TRIGGER rows_append_only`;
          });
          const verified = await team(["verify", url], { url });
          assert.equal(verified.code, 1, verified.stdout);
          assert.match(
            verified.stdout,
            /^ok cyberos-memory\/erin: 200 rows, 2 checkpoints intact$/m,
          );
          assert.match(
            verified.stdout,
            /^FAIL cyberos-memory\/frank: seq 18: hash does not match the row's content/m,
          );
        } finally {
          await admin.end();
          await Deno.remove(dir, { recursive: true });
        }
      },
    );
  } finally {
    await pg.remove();
  }
});
