/**
 * The operator's command: `install | uninstall | status | tail | verify`.
 *
 * ```
 * install/main.ts install <project> [--user] [--allow-email-domain D]... [--tool-detail hash|subject] [--hook-script PATH]
 * install/main.ts uninstall <project> [--user]
 * install/main.ts status <project> [--user]
 * install/main.ts tail [-n N] [--session ID] [--json]
 * install/main.ts verify [--checkpoint FILE] [--vkey VKEY] | verify --proof FILE [--vkey VKEY]
 * install/main.ts checkpoint | key | prove SEQ | prove --from OLD_CHECKPOINT_FILE
 * ```
 *
 * A relative `<project>` is taken from where `deno task` was started
 * (`INIT_CWD`). A mistake the user can fix prints one line,
 * `cyberos-memory <command>: <file>:<line>:<col>: <what is wrong>; <the fix>`,
 * on stderr, exits 1 and changes nothing.
 *
 * How each sub-command runs, each grant and why (`deno.json` and
 * `lib/permissions.ts`):
 *
 * | command | runs as | grants | why |
 * | --- | --- | --- | --- |
 * | install, uninstall | set `installer` starts `install/start.ts`, which runs this file with `installPermissionFlags` | launcher: read, env (paths), `run=deno`; editor: read the project and its `.claude`, write only that `.claude` folder (or `~/.claude`), env: the path variables | the folder depends on the command line and `$HOME`, which a named set cannot spell; writes go only through `writeSettingsAtomic` |
 * | status | the same launcher, with `statusPermissionFlags` | read anywhere, env (paths), read + write + `net=unix:` on the configured socket only | it checks that the binary and script a settings file names exist, reads the store read-only, asks the daemon whether it answers; nothing else reachable, so nothing read can leave the machine |
 * | tail, verify, checkpoint, key, prove | set `reader` | read anywhere, env (paths) | the store can be anywhere `CYBEROS_MEMORY_DB`, `$XDG_DATA_HOME` or `$HOME` put it |
 *
 * @module
 */

import { UserError } from "./_files.ts";

const USAGE =
  "usage: install/main.ts install|uninstall|status|tail|verify|checkpoint|key|prove [arguments]";

/** Runs one sub-command with its arguments; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  const env = (name: string) => Deno.env.get(name);
  try {
    switch (command) {
      case "install": {
        const { runInstall } = await import("./_install.ts");
        print(runInstall(args, env).lines);
        return 0;
      }
      case "uninstall": {
        const { runUninstall } = await import("./_install.ts");
        print(runUninstall(args, env).lines);
        return 0;
      }
      case "status": {
        const { runStatus } = await import("./_status.ts");
        print(await runStatus(args, env));
        return 0;
      }
      case "tail": {
        const { runTail } = await import("./_tail.ts");
        print(runTail(args, env));
        return 0;
      }
      case "verify": {
        const { runVerify } = await import("./verify.ts");
        return await runVerify([...args]);
      }
      case "checkpoint": {
        const { runCheckpoint } = await import("./checkpoint.ts");
        return await runCheckpoint([...args]);
      }
      case "key": {
        const { runKey } = await import("./checkpoint.ts");
        return await runKey([...args]);
      }
      case "prove": {
        const { runProve } = await import("./checkpoint.ts");
        return await runProve([...args]);
      }
      default:
        console.error(`cyberos-memory: unknown command "${command ?? ""}"; ${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof UserError) {
      console.error(`cyberos-memory ${command}: ${error.message}`);
      return 1;
    }
    const message = (error as Error)?.message?.split("\n", 1)[0];
    console.error(`cyberos-memory ${command}: unexpected error: ${message}`);
    return 1;
  }
}

function print(lines: readonly string[]): void {
  if (lines.length === 0) return;
  const bytes = new TextEncoder().encode(lines.join("\n") + "\n");
  for (let written = 0; written < bytes.length;) {
    written += Deno.stdout.writeSync(bytes.subarray(written));
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
