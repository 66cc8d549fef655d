/**
 * `deno task install`, `uninstall` and `status`: resolve which settings file
 * the command concerns and which socket is configured, then run
 * `install/main.ts` with flags that let it write that scope's `.claude` folder
 * and the installer's record folder, nothing else (`installPermissionFlags`), or, for `status`, reach only
 * the configured socket (`statusPermissionFlags`). A named set in `deno.json`
 * could only say `write: true` or name the default socket, since both depend
 * on the command line and the environment. `--help` and a bad command line
 * are answered here, before anything is resolved.
 *
 * Usage: `install/start.ts install|uninstall|status <project> [--local] | --user [options]`
 * (`install/_commands.ts` has each command's usage).
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
import { type CommandLine, errorLine, EXIT, runCommand, writeLines } from "../lib/cli.ts";
import { resolveTarget, UserError } from "./_files.ts";
import { INSTALL_SPEC, scopeArgs, STATUS_SPEC, UNINSTALL_SPEC } from "./_commands.ts";
import { recordDir } from "./_created.ts";

const MAIN = fileUrlToPath(new URL("./main.ts", import.meta.url));

const SPECS = { install: INSTALL_SPEC, uninstall: UNINSTALL_SPEC, status: STATUS_SPEC };

async function launch(command: keyof typeof SPECS, line: CommandLine): Promise<number> {
  const env = (name: string) => Deno.env.get(name);
  const scope = scopeArgs(line);
  let target;
  let flags;
  try {
    target = resolveTarget(scope.project, { user: scope.user, local: scope.local, env });
    const paths = resolvePaths(env);
    if (scope.denoPath !== undefined) checkExecutable(scope.denoPath);
    // The hook command that install writes carries the socket and trace dir in its own flags.
    if (command === "install") hookPermissionFlags(paths);
    flags = command === "status" ? statusPermissionFlags(paths) : installPermissionFlags({
      claudeDir: target.claudeDir,
      recordDir: recordDir(env),
      ...(target.project === undefined ? {} : { project: target.project }),
    });
  } catch (error) {
    if (!(error instanceof UserError) && !(error instanceof TypeError)) throw error;
    writeLines(Deno.stderr, [errorLine(command, (error as Error).message)]);
    return EXIT.failed;
  }
  const childArgs = [
    ...(scope.user || target.project === undefined ? [] : [target.project]),
    ...(scope.user ? ["--user"] : []),
    ...(scope.local ? ["--local"] : []),
    ...scope.allowEmailDomains.flatMap((domain) => ["--allow-email-domain", domain]),
    ...(scope.toolDetail === "subject" ? ["--tool-detail", "subject"] : []),
    ...(scope.scriptPath === undefined ? [] : ["--hook-script", scope.scriptPath]),
    ...(scope.denoPath === undefined ? [] : ["--deno", scope.denoPath]),
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

/** `--deno PATH` must name an executable file: the hooks run it. */
function checkExecutable(path: string): void {
  let info;
  try {
    info = Deno.statSync(path);
  } catch {
    throw new UserError(`--deno ${path}: no such file; give the path of a deno binary`);
  }
  if (!info.isFile || ((info.mode ?? 0o755) & 0o111) === 0) {
    throw new UserError(`--deno ${path}: not an executable file; give the path of a deno binary`);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [command = "", ...args] = argv;
  if (!Object.hasOwn(SPECS, command)) {
    writeLines(Deno.stderr, [
      errorLine("install", `install/start.ts runs install, uninstall or status, not "${command}"`),
    ]);
    return EXIT.usage;
  }
  const name = command as keyof typeof SPECS;
  return await runCommand(SPECS[name], args, (line) => launch(name, line));
}

if (import.meta.main) Deno.exit(await main(Deno.args));
