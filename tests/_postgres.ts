/**
 * Test helper: a real, throwaway PostgreSQL cluster. `initdb` makes it in a
 * temporary folder owned by the `postgres` user (PostgreSQL refuses to run as
 * root, so the binaries run through `runuser` when we are root), `pg_ctl`
 * starts it on a free port of 127.0.0.1 with its socket in that folder, and
 * {@linkcode TestPostgres.remove} stops it and deletes the folder.
 *
 * @module
 */

/** A running throwaway cluster. */
export interface TestPostgres {
  /** The TCP port on 127.0.0.1. */
  port: number;
  /** The superuser's URL for the `postgres` database (SCRAM on 127.0.0.1, like a real server). */
  adminUrl: string;
  /** Stops the server (fast shutdown: open connections are cut). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

/** The folder holding `initdb`, `pg_ctl` and `postgres` (Debian's PostgreSQL 15 by default). */
export function postgresBinDir(): string {
  const fromEnv = Deno.env.get("CYBEROS_PG_BIN");
  if (fromEnv) return fromEnv;
  for (const version of ["15", "16", "17", "14"]) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    try {
      Deno.statSync(`${dir}/initdb`);
      return dir;
    } catch {
      // Not this version.
    }
  }
  throw new Error(
    "Cannot find PostgreSQL: no /usr/lib/postgresql/*/bin/initdb, run `apt-get install -y postgresql`",
  );
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

const isRoot = Deno.uid() === 0;

/** Runs a PostgreSQL binary as the `postgres` user when we are root. */
async function pgRun(bin: string, args: string[]): Promise<void> {
  const command = isRoot
    ? new Deno.Command("runuser", { args: ["-u", "postgres", "--", bin, ...args] })
    : new Deno.Command(bin, { args });
  const output = await command.output();
  if (!output.success) {
    const stderr = new TextDecoder().decode(output.stderr).trim();
    throw new Error(`Cannot run ${bin} ${args[0]}: ${stderr}`);
  }
}

/** Makes and starts a cluster; the caller must `remove()` it. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const binDir = postgresBinDir();
  const dir = await Deno.makeTempDir({ prefix: "cyberos-pg-" });
  if (isRoot) {
    const { uid, gid } = await postgresIds();
    await Deno.chown(dir, uid, gid);
  }
  const data = `${dir}/data`;
  const password = crypto.randomUUID().replaceAll("-", "");
  const pwfile = `${dir}/pwfile`;
  await Deno.writeTextFile(pwfile, `${password}\n`);
  if (isRoot) {
    const { uid, gid } = await postgresIds();
    await Deno.chown(pwfile, uid, gid);
  }
  await pgRun(`${binDir}/initdb`, [
    "-D",
    data,
    "-U",
    "postgres",
    `--pwfile=${pwfile}`,
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
    "--no-sync",
    "-E",
    "UTF8",
    "--locale=C",
  ]);
  const port = freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c max_connections=200",
  ].join(" ");
  const start = () =>
    pgRun(`${binDir}/pg_ctl`, ["-D", data, "-o", options, "-l", `${dir}/log`, "-w", "start"]);
  const stop = () => pgRun(`${binDir}/pg_ctl`, ["-D", data, "-m", "fast", "-w", "stop"]);
  await Deno.remove(pwfile);
  await start();
  return {
    port,
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async remove() {
      try {
        await stop();
      } catch {
        // Stopped already.
      }
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const passwd = await Deno.readTextFile("/etc/passwd");
  const line = passwd.split("\n").find((entry) => entry.startsWith("postgres:"));
  if (!line) throw new Error("Cannot start PostgreSQL as root: there is no `postgres` user");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}
