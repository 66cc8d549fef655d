/**
 * `deno task install` and `deno task uninstall`: resolve which settings file
 * the command edits, then run `install/main.ts` with flags that let it write
 * that scope's `.claude` folder and nothing else (`installPermissionFlags`).
 * A named set in `deno.json` could only say `write: true`, since the folder
 * depends on the command line and on `$HOME`.
 *
 * Usage: `install/start.ts install|uninstall <project> [--user] [options]`
 *
 * @module
 */

import { INSTALL_ENV_VARS, installPermissionFlags } from "../lib/permissions.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";
import { resolveTarget, UserError } from "./_files.ts";
import { parseScopeArgs } from "./_install.ts";

const MAIN = new URL("./main.ts", import.meta.url).pathname;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== "install" && command !== "uninstall") {
    console.error(`cyberos-memory: install/start.ts runs install or uninstall, not "${command}"`);
    return 2;
  }
  const env = (name: string) => Deno.env.get(name);
  let target;
  let scope;
  try {
    scope = parseScopeArgs(args, { extra: command === "install" });
    target = resolveTarget(scope.project, { user: scope.user, env });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    console.error(`cyberos-memory ${command}: ${error.message}`);
    return 1;
  }
  const childArgs = [
    ...(target.project === undefined ? [] : [target.project]),
    ...(scope.user ? ["--user"] : []),
    ...scope.allowEmailDomains.flatMap((domain) => ["--allow-email-domain", domain]),
    ...(scope.scriptPath === undefined ? [] : ["--hook-script", scope.scriptPath]),
  ];
  return await runDeno([
    "run",
    "-q",
    ...installPermissionFlags({
      claudeDir: target.claudeDir,
      ...(target.project === undefined ? {} : { project: target.project }),
    }),
    MAIN,
    command,
    ...childArgs,
  ], { env: pickEnv([...RUNTIME_ENV_VARS, ...INSTALL_ENV_VARS]) });
}

if (import.meta.main) Deno.exit(await main(Deno.args));
