/**
 * `deno task coverage`: resolves the store and Claude Code's projects folder
 * from the environment, then runs `coverage/main.ts` with flags that let it
 * read those two and nothing else (`coveragePermissionFlags`). A named set in
 * `deno.json` could not spell them, since both depend on `$HOME` and the
 * variables. The launcher itself may only read the environment and run `deno`.
 *
 * @module
 */

import { fileUrlToPath } from "../lib/file_url.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";
import { coveragePermissionFlags } from "../lib/permissions.ts";
import { COVERAGE_ENV_VARS, resolveCoveragePaths } from "./_paths.ts";

const MAIN = fileUrlToPath(new URL("./main.ts", import.meta.url));

/** The `deno` arguments that run coverage on the paths the environment names. */
export function coverageRunArgs(
  env: (name: string) => string | undefined,
  args: readonly string[],
): string[] {
  const paths = resolveCoveragePaths(env);
  return [
    "run",
    "-q",
    ...coveragePermissionFlags({ ...paths, envVars: COVERAGE_ENV_VARS }),
    MAIN,
    ...args,
  ];
}

async function main(argv: readonly string[]): Promise<number> {
  let args: string[];
  try {
    args = coverageRunArgs((name) => Deno.env.get(name), argv);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    console.error(`cyberos-memory coverage: ${error.message}`);
    return 1;
  }
  return await runDeno(args, {
    env: pickEnv([...RUNTIME_ENV_VARS, ...COVERAGE_ENV_VARS]),
    stdin: "null",
  });
}

if (import.meta.main) Deno.exit(await main(Deno.args));
