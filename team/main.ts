/**
 * `deno task team init|enroll|ship|verify`: a team's trail in PostgreSQL.
 *
 * ```
 * team/main.ts init <admin-url>            schema, roles and rules (idempotent)
 * team/main.ts enroll <admin-url> <vkey>   a machine's login; prints the URL it ships with
 * team/main.ts ship --db PATH [--follow]   rows and checkpoints to CYBEROS_MEMORY_TEAM_URL
 * team/main.ts verify <url>                re-verify every machine's copy
 * ```
 *
 * `team/start.ts` runs this file with the flags each sub-command needs
 * (`lib/permissions.ts`): the network to the one `host:port` of the URL, and
 * for `ship` read access to the store. Exit 0 done, 1 failed, 2 bad usage;
 * every error line starts `cyberos-memory team: `. Passwords are never
 * printed, except in the URL `enroll` prints for the machine.
 *
 * @module
 */

import { connect, parseTeamUrl, type Sql, type TeamUrl } from "./_connect.ts";

/** The prefix of every error line. */
const PREFIX = "cyberos-memory team:";

/** The URL variable `ship` reads. */
export const TEAM_URL_VAR = "CYBEROS_MEMORY_TEAM_URL";

const USAGES: Record<string, string> = {
  init: `usage: deno task team init <admin-url>

Creates the team store's schema, roles and rules in an existing database (run it
again after an upgrade: it changes only what is missing). <admin-url> is
postgres://user:password@host:port/database for a role that may create roles.`,
  enroll: `usage: deno task team enroll <admin-url> <vkey>

Registers a machine by the verifier key \`deno task key\` printed on it, creates
its login with a random password and prints the URL the machine ships with
(set it as ${TEAM_URL_VAR} there). Enrolling the same key again gives it a new
password.`,
  ship: `usage: deno task team ship [--follow] [--batch N] [--interval MS]

Sends every row and checkpoint the team store lacks to ${TEAM_URL_VAR}, in
order, in batches (default 1000 rows), resuming after the team store's last seq.
A row already there that differs from the local one stops it (exit 1, naming
the seq). --follow keeps shipping as rows arrive (looking every --interval ms,
default 1000) and retries a team store that went away.`,
  verify: `usage: deno task team verify <url>

Re-verifies the team store's copy of every enrolled machine: chain, gaps,
checkpoint signatures against the enrolled key, Merkle roots. One line per
machine; exit 1 if any fails.`,
};

const USAGE = `usage: deno task team init|enroll|ship|verify [arguments] (--help on each)`;

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

/** Parses `args` against the flags a sub-command knows (`true`: takes a value). */
function parseArgs(args: readonly string[], known: Record<string, boolean>): Parsed {
  const parsed: Parsed = { positional: [], flags: new Map() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("-")) {
      parsed.positional.push(arg);
      continue;
    }
    if (!(arg in known)) throw new UsageError(`unknown option "${arg}"`);
    if (known[arg]) {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      parsed.flags.set(arg, value);
    } else parsed.flags.set(arg, true);
  }
  return parsed;
}

function positionals(parsed: Parsed, names: string[]): string[] {
  if (parsed.positional.length !== names.length) {
    throw new UsageError(
      `expected ${names.join(" ")}, got ${parsed.positional.length} argument(s)`,
    );
  }
  return parsed.positional;
}

function count(value: string | true | undefined, options: { flag: string; fallback: number }) {
  if (value === undefined) return options.fallback;
  if (typeof value !== "string" || !/^[1-9][0-9]{0,6}$/.test(value)) {
    throw new UsageError(`${options.flag} needs a positive whole number`);
  }
  return Number(value);
}

function url(text: string): TeamUrl {
  try {
    return parseTeamUrl(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function print(line: string): void {
  console.log(line);
}

async function withSql<T>(target: TeamUrl, work: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = connect(target);
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function runInit(args: string[]): Promise<number> {
  const [admin] = positionals(parseArgs(args, {}), ["<admin-url>"]);
  const { initSchema } = await import("./_admin.ts");
  const target = url(admin!);
  await withSql(target, initSchema);
  print(`team store ready: schema cyberos_memory in database ${target.database}`);
  return 0;
}

async function runEnroll(args: string[]): Promise<number> {
  const [admin, vkey] = positionals(parseArgs(args, {}), ["<admin-url>", "<vkey>"]);
  const { enrollMachine } = await import("./_admin.ts");
  const { parseVerifierKey } = await import("../lib/note.ts");
  let origin: string;
  try {
    origin = parseVerifierKey(vkey!).name;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; pass the line \`deno task key\` printed`);
  }
  const target = url(admin!);
  const enrolled = await withSql(
    target,
    (sql) => enrollMachine(sql, { origin, vkey: vkey! }, { adminUrl: target }),
  );
  console.error(
    `${enrolled.reissued ? "new password for" : "enrolled"} ${origin} as ${enrolled.login}; ` +
      `on that machine: export ${TEAM_URL_VAR}=<the URL below>`,
  );
  print(enrolled.url);
  return 0;
}

async function runShip(args: string[]): Promise<number> {
  const parsed = parseArgs(args, {
    "--follow": false,
    "--db": true,
    "--batch": true,
    "--interval": true,
  });
  positionals(parsed, []);
  const db = parsed.flags.get("--db");
  if (typeof db !== "string") {
    throw new UsageError("--db PATH is required (deno task team sets it)");
  }
  const batchSize = count(parsed.flags.get("--batch"), { flag: "--batch", fallback: 1000 });
  const intervalMs = count(parsed.flags.get("--interval"), { flag: "--interval", fallback: 1000 });
  const text = Deno.env.get(TEAM_URL_VAR);
  if (!text) {
    throw new UsageError(`${TEAM_URL_VAR} is not set; set it to the URL \`team enroll\` printed`);
  }
  const target = url(text);
  const { LocalStore } = await import("./_local.ts");
  const { shipOnce, DivergenceError, LocalChainError, OriginMismatchError } = await import(
    "./_ship.ts"
  );
  let local;
  try {
    local = new LocalStore(db);
  } catch (error) {
    console.error(`${PREFIX} cannot open ${db}: ${(error as Error).message}`);
    return 1;
  }
  try {
    if (parsed.flags.has("--follow")) {
      const { follow } = await import("./_follow.ts");
      const controller = new AbortController();
      const stop = () => controller.abort();
      Deno.addSignalListener("SIGTERM", stop);
      Deno.addSignalListener("SIGINT", stop);
      await follow(local, {
        batchSize,
        intervalMs,
        connect: () => connect(target),
        signal: controller.signal,
        log: (line) => console.error(`${PREFIX} ${line}`),
      });
      return 0;
    }
    const result = await withSql(target, (sql) => shipOnce(sql, local, { batchSize }));
    print(
      `shipped ${result.rows} rows and ${result.checkpoints} checkpoints of ${result.origin} (team store at seq ${result.lastSeq})`,
    );
    return 0;
  } catch (error) {
    if (error instanceof DivergenceError || error instanceof LocalChainError) {
      console.error(`${PREFIX} ${error.message}; the team store keeps its copy`);
      return 1;
    }
    if (error instanceof OriginMismatchError) {
      console.error(`${PREFIX} ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    local.close();
  }
}

async function runVerify(args: string[]): Promise<number> {
  const [text] = positionals(parseArgs(args, {}), ["<url>"]);
  const { verifyTeam } = await import("./_verify.ts");
  const started = performance.now();
  const reports = await withSql(url(text!), (sql) =>
    verifyTeam(sql, {
      onReport: (report) =>
        print(
          report.ok
            ? `ok ${report.origin}: ${report.rows} rows, ${report.checkpoints} checkpoints intact`
            : `FAIL ${report.origin}: ${report.failure} (${report.rows} rows and ${report.checkpoints} checkpoints checked before it)`,
        ),
    }));
  const failed = reports.filter((report) => !report.ok).length;
  const ms = (performance.now() - started).toFixed(0);
  print(`${reports.length} machines, ${failed} failed, in ${ms} ms`);
  return failed === 0 ? 0 : 1;
}

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  init: runInit,
  enroll: runEnroll,
  ship: runShip,
  verify: runVerify,
};

/** Runs one sub-command with its arguments; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === "--help" || command === "-h") {
    print(USAGE);
    return 0;
  }
  const run = command === undefined ? undefined : COMMANDS[command];
  if (run === undefined) {
    console.error(`${PREFIX} unknown command "${command ?? ""}"; ${USAGE}`);
    return 2;
  }
  if (args.includes("--help") || args.includes("-h")) {
    print(USAGES[command!]!);
    return 0;
  }
  try {
    return await run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${PREFIX} ${command}: ${error.message}; see --help`);
      return 2;
    }
    console.error(`${PREFIX} ${command} failed: ${describe(error)}`);
    return 1;
  }
}

/** One line about an error, never a password (the driver's messages hold none). */
function describe(error: unknown): string {
  const message = (error as Error)?.message?.split("\n", 1)[0] ?? String(error);
  const code = (error as { code?: string })?.code;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
