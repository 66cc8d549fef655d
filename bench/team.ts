/**
 * The team store's benchmark, on a throwaway PostgreSQL cluster on this
 * machine: `team ship` of 100,000 rows from one machine, then 20 machines ×
 * 5,000 rows shipping at once (20 processes), each as `deno task team` runs
 * it; rows per second for each, and the time of `team verify` over all 21
 * machines. In the same run, the daemon's streaming ingest rate
 * (`bench/ingest.ts`), to read the shipping rate against, measured in turn
 * without and with a `team ship --follow` shipping that very store (the
 * shipper must not slow the daemon).
 *
 * Usage: `deno run -A bench/team.ts [--rows N] [--machines M] [--rows-each K]`
 * (defaults 100000, 20, 5000). Prints a Markdown table.
 *
 * @module
 */

import postgres from "postgres";
import { measureIngest } from "./ingest.ts";
import { startTestDaemon } from "../tests/_daemon.ts";
import { startTestPostgres } from "../tests/_postgres.ts";
import {
  appendRows,
  newMachine,
  runTeam,
  ship,
  spawnTeam,
  type TestMachine,
} from "../tests/_team.ts";
import { META_KEYS, openStore } from "../lib/store.ts";

function option(name: string, fallback: number): number {
  const index = Deno.args.indexOf(name);
  return index < 0 ? fallback : Number(Deno.args[index + 1]);
}

const singleRows = option("--rows", 100_000);
const machineCount = option("--machines", 20);
const rowsEach = option("--rows-each", 5_000);

async function enroll(adminUrl: string, machine: TestMachine): Promise<string> {
  const run = await runTeam(["enroll", adminUrl, machine.vkey], { url: adminUrl });
  if (run.code !== 0) throw new Error(`enroll failed: ${run.stderr}`);
  return run.stdout.trim();
}

async function shipTimed(machine: TestMachine, url: string): Promise<number> {
  const started = performance.now();
  const run = await ship(machine, url);
  if (run.code !== 0) throw new Error(`ship failed: ${run.stderr}`);
  return performance.now() - started;
}

const pg = await startTestPostgres();
const dir = await Deno.makeTempDir({ prefix: "cyberos-bench-team-" });
const lines: string[] = [];
const out = (line = "") => {
  lines.push(line);
  console.log(line);
};
try {
  const adminUrl = pg.adminUrl;
  const init = await runTeam(["init", adminUrl], { url: adminUrl });
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);

  // The stores are filled first (not timed): rows as the daemon appends them,
  // a checkpoint every 1,000 rows.
  const single = await newMachine(dir, "single");
  await appendRows(single, { count: singleRows });
  const many: TestMachine[] = [];
  for (let i = 0; i < machineCount; i++) {
    const machine = await newMachine(dir, `m${String(i).padStart(2, "0")}`);
    await appendRows(machine, { count: rowsEach });
    many.push(machine);
  }
  const singleUrl = await enroll(adminUrl, single);
  const manyUrls: string[] = [];
  for (const machine of many) manyUrls.push(await enroll(adminUrl, machine));

  out("| what | rows | wall time | rows/s |");
  out("| --- | --- | --- | --- |");
  const singleMs = await shipTimed(single, singleUrl);
  out(
    `| team ship, 1 machine | ${singleRows} | ${(singleMs / 1000).toFixed(1)} s | ${
      (singleRows / (singleMs / 1000)).toFixed(0)
    } |`,
  );
  const started = performance.now();
  await Promise.all(many.map((machine, i) => shipTimed(machine, manyUrls[i]!)));
  const manyMs = performance.now() - started;
  const manyRows = machineCount * rowsEach;
  out(
    `| team ship, ${machineCount} machines at once | ${manyRows} | ${
      (manyMs / 1000).toFixed(1)
    } s | ${(manyRows / (manyMs / 1000)).toFixed(0)} |`,
  );
  const verifyStarted = performance.now();
  const verified = await runTeam(["verify", adminUrl], { url: adminUrl });
  const verifyMs = performance.now() - verifyStarted;
  if (verified.code !== 0) throw new Error(`verify failed: ${verified.stdout}`);
  const totalRows = singleRows + manyRows;
  out(
    `| team verify, ${machineCount + 1} machines | ${totalRows} | ${
      (verifyMs / 1000).toFixed(1)
    } s | ${(totalRows / (verifyMs / 1000)).toFixed(0)} |`,
  );

  const daemon = await startTestDaemon();
  let follower: Deno.ChildProcess | undefined;
  try {
    const ingest = async (label: string) => {
      const result = await measureIngest(daemon, { senders: 8, frames: 5000, mode: "stream" });
      out(
        `| daemon ingest, ${label} (8 senders, streaming) | ${result.frames} | ${
          (result.frames / result.rowsPerSecond).toFixed(1)
        } s | ${result.rowsPerSecond.toFixed(0)} |`,
      );
    };
    await ingest("warm-up");
    const store = openStore(daemon.db, { readOnly: true });
    const machine = {
      db: daemon.db,
      origin: store.meta(META_KEYS.origin)!,
      vkey: store.meta(META_KEYS.verifierKey)!,
    } as TestMachine;
    store.close();
    const url = await enroll(adminUrl, machine);
    for (let round = 0; round < 3; round++) {
      await ingest("alone");
      follower = spawnTeam(["ship", "--follow", "--interval", "100", "--db", daemon.db], {
        url,
        db: daemon.db,
        env: { CYBEROS_MEMORY_TEAM_URL: url },
      });
      await ingest("while team ship --follow ships it");
      follower.kill("SIGTERM");
      await follower.output();
      follower = undefined;
    }
  } finally {
    follower?.kill("SIGKILL");
    await daemon.stop();
  }

  const admin = postgres(adminUrl, { onnotice: () => {}, max: 1 });
  try {
    const [size] = await admin<{ count: number; rows: string; total: string }[]>`
      SELECT (SELECT count(*)::int FROM cyberos_memory.rows) AS count,
             pg_size_pretty(pg_relation_size('cyberos_memory.rows')) AS rows,
             pg_size_pretty(pg_total_relation_size('cyberos_memory.rows')) AS total`;
    out();
    out(
      `Table size after ${size!.count} rows: ${size!.rows} of rows, ${size!.total} with indexes.`,
    );
  } finally {
    await admin.end();
  }
} finally {
  await pg.remove();
  await Deno.remove(dir, { recursive: true });
}
