/**
 * The operator's command: `install | uninstall | status | tail | verify`.
 *
 * ```
 * install/main.ts install <project> [--local] | --user [--allow-email-domain D]... [--tool-detail hash|subject] [--deno PATH] [--hook-script PATH]
 * install/main.ts uninstall <project> [--local] | --user
 * install/main.ts status <project> [--local] | --user
 * install/main.ts tail [-n N] [--session ID] [--project DIR] [--kind KIND] [--since TIME] [--json] [--follow]
 * install/main.ts verify [--checkpoint FILE] [--vkey VKEY] | verify --proof FILE [--vkey VKEY]
 * install/main.ts checkpoint | key | prove SEQ | prove --from OLD_CHECKPOINT_FILE
 * ```
 *
 * Each command's usage is in `_commands.ts` (`--help` prints it). A relative
 * `<project>` is taken from where `deno task` was started (`INIT_CWD`). A
 * mistake the user can fix prints one line,
 * `cyberos-memory <command>: <file>:<line>:<col>: <what is wrong>; <the fix>`,
 * on stderr, exits 1 and changes nothing; a bad command line exits 2.
 *
 * How each sub-command runs, each grant and why (`deno.json` and
 * `lib/permissions.ts`):
 *
 * | command | runs as | grants | why |
 * | --- | --- | --- | --- |
 * | install, uninstall | set `installer` starts `install/start.ts`, which runs this file with `installPermissionFlags` | launcher: read, env (paths), `run=deno`; editor: read the project and its `.claude`, write only that `.claude` folder (or `~/.claude`) and the installer's record folder (`<runtime dir>/installer`), env: the path variables | the folders depend on the command line, `$HOME` and `$XDG_STATE_HOME`, which a named set cannot spell; writes go only through `writeSettingsAtomic` |
 * | status | the same launcher, with `statusPermissionFlags` | read anywhere, env (paths), read + write + `net=unix:` on the configured socket only | it checks that the binary and script a settings file names exist, reads the store read-only, asks the daemon whether it answers; nothing else reachable, so nothing read can leave the machine |
 * | tail, verify, checkpoint, key, prove | set `reader` | read anywhere, env (paths) | the store can be anywhere `CYBEROS_MEMORY_DB`, `$XDG_DATA_HOME` or `$HOME` put it |
 *
 * @module
 */

import {
  type CommandSpec,
  errorLine,
  EXIT,
  runCommand,
  UsageError,
  writeLines,
} from "../lib/cli.ts";
import { INSTALL_SPEC, scopeArgs, STATUS_SPEC, TAIL_SPEC, UNINSTALL_SPEC } from "./_commands.ts";
import { UserError } from "./_files.ts";

const SPECS: Record<string, CommandSpec> = {
  install: INSTALL_SPEC,
  uninstall: UNINSTALL_SPEC,
  status: STATUS_SPEC,
  tail: TAIL_SPEC,
};

/** Commands that parse their own arguments the same way (`_tlog.ts`): help, exit 2, the prefix. */
const TRANSPARENCY_LOG_COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  verify: async (args) => (await import("./verify.ts")).runVerify(args),
  checkpoint: async (args) => (await import("./checkpoint.ts")).runCheckpoint(args),
  key: async (args) => (await import("./checkpoint.ts")).runKey(args),
  prove: async (args) => (await import("./checkpoint.ts")).runProve(args),
};

/** Runs one sub-command with its arguments; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command = "", ...args] = argv;
  const own = TRANSPARENCY_LOG_COMMANDS[command];
  if (own !== undefined) return await own(args);
  const spec = SPECS[command];
  if (spec === undefined) {
    writeLines(Deno.stderr, [
      errorLine(
        "install",
        `unknown command "${command}"; give install, uninstall, status, tail, verify, checkpoint, key or prove`,
      ),
    ]);
    return EXIT.usage;
  }
  const env = (name: string) => Deno.env.get(name);
  return await runCommand(spec, args, async (line) => {
    try {
      switch (command) {
        case "install": {
          const { runInstall } = await import("./_install.ts");
          writeLines(Deno.stdout, runInstall(scopeArgs(line), env).lines);
          return EXIT.done;
        }
        case "uninstall": {
          const { runUninstall } = await import("./_install.ts");
          writeLines(Deno.stdout, runUninstall(scopeArgs(line), env).lines);
          return EXIT.done;
        }
        case "status": {
          const { runStatus } = await import("./_status.ts");
          const status = await runStatus(scopeArgs(line), env);
          writeLines(Deno.stdout, status.lines);
          return status.works ? EXIT.done : EXIT.failed;
        }
        default: {
          const { runTail } = await import("./_tail.ts");
          return await runTail(line, env);
        }
      }
    } catch (error) {
      if (error instanceof UserError) {
        writeLines(Deno.stderr, [errorLine(command, error.message)]);
        return EXIT.failed;
      }
      if (error instanceof UsageError) throw error;
      const message = (error as Error)?.message?.split("\n", 1)[0];
      writeLines(Deno.stderr, [errorLine(command, `unexpected error: ${message}`)]);
      return EXIT.failed;
    }
  });
}

if (import.meta.main) Deno.exit(await main(Deno.args));
