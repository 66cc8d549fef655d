/**
 * The operator's command: `install | uninstall | status | tail | verify`.
 *
 * ```
 * install/main.ts install <project> [--user] [--allow-email-domain D]... [--hook-script PATH]
 * install/main.ts uninstall <project> [--user]
 * install/main.ts status <project> [--user]
 * install/main.ts tail [-n N] [--session ID] [--json]
 * install/main.ts verify
 * ```
 *
 * A relative `<project>` is taken from where `deno task` was started
 * (`INIT_CWD`). A mistake the user can fix prints one line,
 * `cyberos-memory <command>: <file>:<line>:<col>: <what is wrong>; <the fix>`,
 * on stderr, exits 1 and changes nothing.
 *
 * Permission sets (`deno.json`), each grant and why:
 *
 * | set | grant | why |
 * | --- | --- | --- |
 * | `install` | `read: true` | the project folder, `~/.claude/settings.json`, the store (`$XDG_DATA_HOME` or `$HOME/.local/share`), the deno binary (`Deno.execPath()`) and the hook script are only known at run time, and a named set cannot expand `~` or `$HOME` |
 * | `install` | `write: true` | `<project>/.claude/settings.json` for any project: Deno cannot say "any `.claude` folder". The code writes only through `writeSettingsAtomic` (that file and its temporary sibling) and creates only `.claude`; a test proves nothing else changes |
 * | `install` | `env`: `HOME`, `INIT_CWD`, `XDG_DATA_HOME`, `CYBEROS_MEMORY_SOCKET`, `CYBEROS_MEMORY_TRACE_DIR`, `CYBEROS_MEMORY_DB` | the user scope, the folder `deno task` started in, and the paths baked into the hook command / read by `status` |
 * | `install` | `net: unix:/tmp/cyberos-memory-capture.sock` | `status` asks whether the daemon answers on the default socket; no other network, so nothing read can leave the machine. Another socket is reported "not checked" |
 * | `reader` | `read: true` | `tail` and `verify` open the store read-only wherever `CYBEROS_MEMORY_DB` / `$XDG_DATA_HOME` / `$HOME` put it |
 * | `reader` | `env`: `HOME`, `XDG_DATA_HOME`, `CYBEROS_MEMORY_DB`, `CYBEROS_MEMORY_SOCKET`, `CYBEROS_MEMORY_TRACE_DIR` | to find the store (`resolvePaths` reads all five and refuses relative overrides); no write, no net, no run |
 *
 * @module
 */

import { UserError } from "./_files.ts";

const USAGE = "usage: install/main.ts install|uninstall|status|tail|verify [arguments]";

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
