/**
 * `deno task install`, `uninstall` and `status`: resolve which settings file
 * the command concerns and which socket is configured, then run
 * `install/main.ts` with flags that let it write that scope's `.claude` folder
 * and nothing else (`installPermissionFlags`), or, for `status`, reach only
 * the configured socket (`statusPermissionFlags`). A named set in `deno.json`
 * could only say `write: true` or name the default socket, since both depend
 * on the command line and the environment.
 *
 * Usage: `install/start.ts install|uninstall|status <project> [--user] [options]`
 *
 * @module
 */

import {
  hookPermissionFlags,
  INSTALL_ENV_VARS,
  installPermissionFlags,
  statusPermissionFlags,
} from "../lib/permissions.ts";
import { resolvePaths } from "../lib/paths.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";
import { resolveTarget, UserError } from "./_files.ts";
import { parseScopeArgs } from "./_install.ts";

const MAIN = fileUrlToPath(new URL("./main.ts", import.meta.url));

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== "install" && command !== "uninstall" && command !== "status") {
    console.error(
      `cyberos-memory: install/start.ts runs install, uninstall or status, not "${command}"`,
    );
    return 2;
  }
  const env = (name: string) => Deno.env.get(name);
  let target;
  let scope;
  let flags;
  try {
    scope = parseScopeArgs(args, { extra: command === "install" });
    target = resolveTarget(scope.project, { user: scope.user, env });
    const paths = resolvePaths(env);
    // The hook command that install writes carries the socket and trace dir in its own flags.
    if (command === "install") hookPermissionFlags(paths);
    flags = command === "status" ? statusPermissionFlags(paths) : installPermissionFlags({
      claudeDir: target.claudeDir,
      ...(target.project === undefined ? {} : { project: target.project }),
    });
  } catch (error) {
    if (!(error instanceof UserError) && !(error instanceof TypeError)) throw error;
    console.error(`cyberos-memory ${command}: ${(error as Error).message}`);
    return 1;
  }
  const childArgs = [
    ...(target.project === undefined ? [] : [target.project]),
    ...(scope.user ? ["--user"] : []),
    ...scope.allowEmailDomains.flatMap((domain) => ["--allow-email-domain", domain]),
    ...(scope.toolDetail === "subject" ? ["--tool-detail", "subject"] : []),
    ...(scope.scriptPath === undefined ? [] : ["--hook-script", scope.scriptPath]),
  ];
  return await runDeno([
    "run",
    "-q",
    ...flags,
    MAIN,
    command,
    ...childArgs,
  ], { env: pickEnv([...RUNTIME_ENV_VARS, ...INSTALL_ENV_VARS]) });
}

if (import.meta.main) Deno.exit(await main(Deno.args));
