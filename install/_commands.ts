/**
 * The command lines of `install`, `uninstall`, `status` and `tail` (`verify`,
 * `checkpoint`, `key` and `prove` parse theirs in `_tlog.ts`): each one's usage (what `--help` prints) and options, parsed with
 * `lib/cli.ts`, and the scope rules the settings commands share. The
 * launcher (`install/start.ts`) and `install/main.ts` parse with the same
 * specs, so they cannot disagree.
 *
 * @module
 */

import { allowedEmailDomains, type CommandLine, type CommandSpec, UsageError } from "../lib/cli.ts";
import { isToolDetail, TOOL_DETAILS, type ToolDetail } from "../lib/subject.ts";

const SCOPES = `Scopes (Claude Code reads all three; the more specific wins):
  <project>          <project>/.claude/settings.json, shared through git
  <project> --local  <project>/.claude/settings.local.json, yours only (git ignores it)
  --user             ~/.claude/settings.json, every project of this user`;

const EXIT_CODES = "Exit codes: 0 done, 1 failed, 2 bad usage (docs/cli.md).";

/** `deno task install`. */
export const INSTALL_SPEC: CommandSpec = {
  command: "install",
  usage: `usage: deno task install <project> [--local] [options]
       deno task install --user [options]

Adds our capture hooks to one settings file (nothing else is changed).

${SCOPES}

Options:
  --allow-email-domain D  keep e-mail addresses at domain D readable (repeat for more)
  --tool-detail MODE      hash (default): tool rows keep a hash of the input; subject: also
                          a short redacted subject (command, file path, URL; docs/rows.md)
  --deno PATH             the deno binary the hooks run (default: this one); pin a stable
                          one when this deno lives in npx's cache, which npm may clean
  --hook-script PATH      the hook script (default: this checkout's hook/dist/hook.js)

${EXIT_CODES}`,
  options: [
    { name: "--user" },
    { name: "--local" },
    { name: "--allow-email-domain", value: "D", repeat: true },
    { name: "--tool-detail", value: "MODE" },
    { name: "--deno", value: "PATH" },
    { name: "--hook-script", value: "PATH" },
  ],
  maxPositionals: 1,
};

/** `deno task uninstall`. */
export const UNINSTALL_SPEC: CommandSpec = {
  command: "uninstall",
  usage: `usage: deno task uninstall <project> [--local]
       deno task uninstall --user

Removes exactly the entries install added; the rest of the file stays byte for byte.
A settings file install created is deleted again (and the .claude folder, when install
created it and it is left empty), unless you have edited it since; a file you had,
even an empty one or {}, is given back as it was (docs/cli.md).

${SCOPES}

${EXIT_CODES}`,
  options: [{ name: "--user" }, { name: "--local" }],
  maxPositionals: 1,
};

/** `deno task status`. */
export const STATUS_SPEC: CommandSpec = {
  command: "status",
  usage: `usage: deno task status <project> [--local]
       deno task status --user

Checks that capture works end to end for one scope: our hooks are installed there,
no settings file that applies switches hooks off ("disableAllHooks": true), the deno
binary and hook script the hooks run exist, and the daemon answers on its socket.
Also shows the last row captured and frames waiting in the spool.

${SCOPES}

Exit codes: 0 capture works, 1 it does not (each line says what to do), 2 bad usage.`,
  options: [{ name: "--user" }, { name: "--local" }],
  maxPositionals: 1,
};

/** `deno task tail`. */
export const TAIL_SPEC: CommandSpec = {
  command: "tail",
  usage: `usage: deno task tail [-n N] [filters] [--json] [--follow]

Shows the newest rows of the store, oldest first: date and time, kind, session,
project, summary.

  -n N            how many rows (default 20)
  --session ID    one session: its full id or a prefix of it (the 8 characters shown)
  --project DIR   rows captured in DIR or below it
  --kind KIND     prompt, tool, turn or redaction
  --since TIME    rows captured since TIME: 2026-12-01, 2026-12-01T14:30, or 10m, 2h, 1d ago
  --json          one row object a line ({seq, kind, payload, prev_hash, hash})
  --follow        keep printing new rows as the daemon commits them, until Ctrl-C

${EXIT_CODES}`,
  options: [
    { name: "-n", value: "N" },
    { name: "--session", value: "ID" },
    { name: "--project", value: "DIR" },
    { name: "--kind", value: "KIND" },
    { name: "--since", value: "TIME" },
    { name: "--json" },
    { name: "--follow" },
  ],
};

/** Which settings file a settings command works on, as the command line says. */
export interface ScopeArgs {
  /** The project folder as given. */
  project: string | undefined;
  /** `--user`. */
  user: boolean;
  /** `--local`. */
  local: boolean;
  /** `--allow-email-domain D`, repeatable (install only). */
  allowEmailDomains: string[];
  /** `--hook-script PATH` (install only). */
  scriptPath: string | undefined;
  /** `--deno PATH` (install only). */
  denoPath: string | undefined;
  /** `--tool-detail hash|subject` (install only). */
  toolDetail: ToolDetail;
}

/**
 * The scope and install options of a parsed command line.
 *
 * @throws {UsageError} for `--user` with a project or with `--local`, no
 * scope at all, a bad domain or tool detail, or a relative path.
 */
export function scopeArgs(line: CommandLine): ScopeArgs {
  const project = line.positionals[0];
  const user = line.options.has("--user");
  const local = line.options.has("--local");
  if (user && project !== undefined) {
    throw new UsageError(
      `--user takes no project ("${project}"): the user scope is every project; drop one of them`,
    );
  }
  if (user && local) throw new UsageError("--user and --local are two scopes; give one");
  if (!user && project === undefined) {
    throw new UsageError("no project given; name the project folder, or pass --user");
  }
  const allowEmailDomains = allowedEmailDomains(line);
  const absolute = (name: string) => {
    const value = line.options.get(name)?.[0];
    if (value !== undefined && !value.startsWith("/")) {
      throw new UsageError(`${name} needs an absolute path, got "${value}"`);
    }
    return value;
  };
  const toolDetail = line.options.get("--tool-detail")?.[0] ?? "hash";
  if (!isToolDetail(toolDetail)) {
    throw new UsageError(`--tool-detail takes ${TOOL_DETAILS.join(" or ")}, got "${toolDetail}"`);
  }
  return {
    project,
    user,
    local,
    toolDetail,
    allowEmailDomains,
    scriptPath: absolute("--hook-script"),
    denoPath: absolute("--deno"),
  };
}
