/**
 * `deno task team`: computes the flags a `team` sub-command needs from its
 * command line and environment, then runs `team/main.ts` with exactly those
 * (`teamPermissionFlags`): the network to the one `host:port` of the URL
 * given (`init`, `enroll`, `verify`) or of `CYBEROS_MEMORY_TEAM_URL` (`ship`,
 * which also reads the store). The launcher itself may only read the
 * environment and run `deno`. A URL that does not parse gets no network:
 * `team/main.ts` then says what is wrong.
 *
 * @module
 */

import { fileUrlToPath } from "../lib/file_url.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";
import { resolveDbPath } from "../lib/paths.ts";
import {
  POSTGRES_DRIVER_ENV_VARS,
  TEAM_URL_ENV_VAR,
  teamPermissionFlags,
  type TeamPermissionPaths,
} from "../lib/permissions.ts";
import { netTarget, parseTeamUrl } from "./_connect.ts";

const TEAM_SCRIPT = fileUrlToPath(new URL("./main.ts", import.meta.url));

/** The `deno` arguments that run `team/main.ts` with `paths`' flags; tests start it the same way. */
export function teamRunArgs(paths: TeamPermissionPaths, args: readonly string[]): string[] {
  return ["run", "-q", ...teamPermissionFlags(paths), TEAM_SCRIPT, ...args];
}

function netOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return netTarget(parseTeamUrl(text));
  } catch {
    return undefined;
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const env = pickEnv([...RUNTIME_ENV_VARS, ...POSTGRES_DRIVER_ENV_VARS]);
  const asksHelp = rest.includes("--help") || rest.includes("-h");
  if (command !== "ship" || asksHelp) {
    const firstUrl = rest.find((arg) => !arg.startsWith("-"));
    const net = asksHelp ? undefined : netOf(firstUrl);
    return await runDeno(teamRunArgs(net ? { net } : {}, argv), { env, stdin: "null" });
  }
  const url = Deno.env.get(TEAM_URL_ENV_VAR);
  if (url !== undefined) env[TEAM_URL_ENV_VAR] = url;
  const net = netOf(url);
  let args: string[];
  try {
    const db = resolveDbPath((name) => Deno.env.get(name));
    args = teamRunArgs({ db, ...(net ? { net } : {}) }, ["ship", "--db", db, ...rest]);
  } catch (error) {
    console.error(`cyberos-memory team: ${(error as Error).message}`);
    return 2;
  }
  return await runDeno(args, { env, stdin: "null" });
}

if (import.meta.main) Deno.exit(await main(Deno.args));
