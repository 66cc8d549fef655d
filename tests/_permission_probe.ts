/**
 * Run under an entry's exact permission flags, tries one operation named on
 * the command line and prints `granted` (it succeeded), `refused` (Deno's
 * NotCapable) or `failed: …` (any other error), so tests can prove what each
 * permission set allows and refuses.
 *
 * Usage: `_permission_probe.ts OPERATION TARGET`
 *
 * @module
 */

const [operation, target = ""] = Deno.args;

async function attempt(): Promise<void> {
  switch (operation) {
    case "read":
      await Deno.readFile(target);
      return;
    case "write":
      await Deno.writeTextFile(target, "probe");
      return;
    case "env":
      Deno.env.get(target);
      return;
    case "run":
      await new Deno.Command(target).output();
      return;
    case "tcp": {
      const [hostname, port] = target.split(":");
      (await Deno.connect({ hostname: hostname!, port: Number(port) })).close();
      return;
    }
    case "listen": {
      const [hostname, port] = target.split(":");
      Deno.listen({ hostname: hostname!, port: Number(port) }).close();
      return;
    }
    case "unix":
      (await Deno.connect({ transport: "unix", path: target })).close();
      return;
    case "listen-unix":
      Deno.listen({ transport: "unix", path: target }).close();
      return;
    case "uid":
      Deno.uid();
      return;
    case "sqlite": {
      // A writer as the daemon opens one (WAL, temp store in memory), with a sort and a
      // temporary table large enough that SQLite would otherwise spill them to temp files.
      const { openStore } = await import("../lib/store.ts");
      openStore(target).close();
      const { DatabaseSync } = await import("node:sqlite");
      const db = new DatabaseSync(target);
      db.exec("PRAGMA temp_store = MEMORY");
      db.exec("PRAGMA cache_size = 16");
      db.exec(
        "CREATE TEMP TABLE t AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) SELECT i, hex(randomblob(64)) AS v FROM n",
      );
      db.prepare("SELECT v FROM t ORDER BY v").all();
      db.close();
      return;
    }
    case "ffi":
      Deno.dlopen(target, {});
      return;
    default:
      throw new Error(`unknown operation ${operation}`);
  }
}

// `granted` only when the operation succeeded: an operation that failed for another reason (a
// missing file, a refused connection) proves nothing about the grant, so it says `failed`.
try {
  await attempt();
  console.log("granted");
} catch (error) {
  if (error instanceof Deno.errors.NotCapable) console.log("refused");
  else console.log(`failed: ${(error as Error).name}: ${(error as Error).message}`);
}
