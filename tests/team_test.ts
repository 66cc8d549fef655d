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
import { ROOT } from "./_daemon.ts";
import { teamRunArgs } from "../team/start.ts";
import { netTarget, parseTeamUrl } from "../team/_connect.ts";
import { enrollMachine, initSchema } from "../team/_admin.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `team/main.ts` the way `deno task team` does, with the flags for `url` (and `db`). */
async function team(
  args: string[],
  options: { url?: string; db?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const net = options.url ? netTarget(parseTeamUrl(options.url)) : undefined;
  const output = await new Deno.Command(Deno.execPath(), {
    args: teamRunArgs({
      ...(net ? { net } : {}),
      ...(options.db ? { db: options.db } : {}),
    }, args),
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

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

Deno.test("team store on a real PostgreSQL server", async (t) => {
  const pg = await startTestPostgres();
  try {
    await t.step("init is idempotent and a machine login may only INSERT its own origin", async (t) => {
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
        await enrollMachine(admin, { origin: "bob", vkey: "bob+00000000+y" }, { adminUrl: target });
        assert.match(a.url, /^postgres:\/\/cyberos_memory_m_[0-9a-f]{16}:[A-Za-z0-9]{32}@127\.0\.0\.1:\d+\/roles$/);
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
          await refused(() => alice!`UPDATE cyberos_memory.rows SET payload = '{"x":1}'`, /permission denied/);
          await refused(() => alice!`DELETE FROM cyberos_memory.rows`, /permission denied/);
          await refused(() => alice!`TRUNCATE cyberos_memory.rows`, /permission denied/);
          await refused(() => alice!`DELETE FROM cyberos_memory.checkpoints`, /permission denied/);
          await refused(() => alice!`INSERT INTO cyberos_memory.machines (origin, vkey, login) VALUES ('x', 'y', 'z')`, /permission denied/);
          await refused(() => alice!`INSERT INTO cyberos_memory.rows (origin, seq, frame_id, kind, session_id, captured_at_ns, payload, prev_hash, hash, shipped_at) VALUES ('alice', 2, 'f', 'k', 's', 1, '{}', 'p', 'h', now())`, /permission denied/);
        });
        await t.step("the triggers refuse UPDATE, DELETE, TRUNCATE even to the owner", async () => {
          await refused(() => admin`UPDATE cyberos_memory.rows SET payload = '{"x":1}'`, /append-only: UPDATE refused/);
          await refused(() => admin`DELETE FROM cyberos_memory.rows`, /append-only: DELETE refused/);
          await refused(() => admin`TRUNCATE cyberos_memory.rows`, /append-only: TRUNCATE refused/);
        });
        await t.step("a machine sees only its own rows", async () => {
          const bob = await enrollMachine(admin, { origin: "bob", vkey: "bob+00000000+y" }, { adminUrl: target });
          assert.equal(bob.reissued, true);
          const bobSql = sqlAs(bob.url);
          try {
            assert.equal((await bobSql`SELECT origin FROM cyberos_memory.rows`).length, 0);
          } finally {
            await bobSql.end();
          }
        });
      } finally {
        await alice?.end();
        await admin.end();
      }
    });
  } finally {
    await pg.remove();
  }
});
