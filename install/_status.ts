/**
 * `status <project> [--local] | --user`: whether capture works end to end
 * for that scope, each check on its own line with what to do when it fails:
 * our hooks installed (first line: `installed`, `partly installed: <missing
 * events>` or `not installed`), no settings file that applies switching
 * hooks off (`"disableAllHooks": true`), the installed command's deno binary
 * and hook script present, the daemon answering on the socket (when it does
 * not, how many frames wait in the spool). Then the last row captured and a
 * warning when two scopes hold our hooks. The last line says whether capture
 * works; `works` is the exit code's answer.
 *
 * Every field shown passes through `printable`: a settings file or a row may
 * hold escape sequences.
 *
 * @module
 */

import { parse } from "jsonc-parser";
import { isOurCommand, parseHookCommand } from "../lib/hook_command.ts";
import { HOOK_EVENTS } from "../lib/kinds.ts";
import { resolvePaths, spoolDir } from "../lib/paths.ts";
import { openStore } from "../lib/store.ts";
import { printable } from "../lib/terminal.ts";
import { findOurHooks, type FoundHook } from "./_settings.ts";
import { readSettings, resolveTarget, type Target, UserError } from "./_files.ts";
import { npxCacheNote, ourHooks, withFile } from "./_install.ts";
import type { ScopeArgs } from "./_commands.ts";
import { formatTime, shortKind, summary } from "./_tail.ts";

/** Claude Code's managed (administrator) settings on Linux: they override every other file. */
export const MANAGED_SETTINGS_FILE = "/etc/claude-code/managed-settings.json";

/** What `status` found. */
export interface StatusReport {
  /** The lines to print. */
  lines: string[];
  /** Capture works end to end for the scope asked (exit 0). */
  works: boolean;
}

/**
 * The first line of `status` for the entries found in one settings file.
 */
export function installState(found: readonly FoundHook[]): string {
  const present = new Set(found.map((hook) => hook.event));
  const missing = Object.values(HOOK_EVENTS).filter((event) => !present.has(event));
  if (missing.length === 0) return "installed";
  if (missing.length === Object.values(HOOK_EVENTS).length) return "not installed";
  return `partly installed: ${missing.join(", ")}`;
}

/**
 * The settings files that apply to a scope, least specific first: the user's
 * for `--user`; the user's, the project's and its local one for a project;
 * then the managed file, which overrides them all.
 */
export function applicableSettings(target: Target, home: string | undefined): string[] {
  const user = home?.startsWith("/") ? [`${home.replace(/\/$/, "")}/.claude/settings.json`] : [];
  const project = target.scope === "user" || target.project === undefined
    ? []
    : [`${target.project}/.claude/settings.json`, `${target.project}/.claude/settings.local.json`];
  return [...user, ...project, MANAGED_SETTINGS_FILE];
}

/**
 * The file whose `"disableAllHooks": true` switches hooks off for the scope
 * (the most specific file that sets the key decides); `undefined` when hooks
 * run. `read` returns a file's text, `undefined` when it does not exist.
 */
export function hooksSwitchedOffBy(
  files: readonly string[],
  read: (file: string) => string | undefined,
): string | undefined {
  let decidedBy: string | undefined;
  let off = false;
  for (const file of files) {
    let text: string | undefined;
    try {
      text = read(file);
    } catch {
      continue;
    }
    if (text === undefined) continue;
    const value = parse(text.replace(/^\uFEFF/, ""), [], { allowTrailingComma: true }) as unknown;
    if (typeof value !== "object" || value === null) continue;
    const setting = (value as Record<string, unknown>).disableAllHooks;
    if (typeof setting !== "boolean") continue;
    off = setting;
    decidedBy = file;
  }
  return off ? decidedBy : undefined;
}

/**
 * Runs `status`.
 *
 * @throws {UserError} for a missing project or a malformed settings file.
 */
export async function runStatus(
  scope: ScopeArgs,
  env: (name: string) => string | undefined,
): Promise<StatusReport> {
  const target = resolveTarget(scope.project, { user: scope.user, local: scope.local, env });
  const found = ourHooksIn(target);
  const lines = [installState(found), `settings: ${target.settingsFile}`];
  const problems: string[] = [];
  const fail = (line: string, problem: string) => {
    lines.push(line);
    problems.push(problem);
  };
  if (found.length < Object.keys(HOOK_EVENTS).length) {
    const how = target.scope === "user"
      ? "--user"
      : `${target.project}${target.scope === "local" ? " --local" : ""}`;
    fail(`to install: deno task install ${how}`, "not installed");
  }
  const switchedOffBy = hooksSwitchedOffBy(
    applicableSettings(target, env("HOME")),
    (file) => readSettingsFollowing(file),
  );
  if (switchedOffBy !== undefined) {
    fail(
      `hooks: switched off by "disableAllHooks": true in ${switchedOffBy}; remove it (or set it to false) to capture`,
      "hooks switched off",
    );
  }

  // The allowlist and the tool detail are the user's choices at install time: compare without them.
  const withoutAllowlist = (command: string) =>
    command.replace(/ --allow-email-domain '[^']*'/g, "").replace(/ --tool-detail subject/g, "");
  const first = found[0] && parseHookCommand(found[0].command);
  if (found.length > 0 && first) {
    const current = new Set(
      ourHooks({ env, denoPath: first.denoPath }).map((hook) => hook.command),
    );
    const stale = found.filter((hook) => !current.has(withoutAllowlist(hook.command))).length;
    lines.push(
      stale === 0
        ? "command: as install would write it now"
        : `command: ${stale} of ${found.length} entries differ from what install would write now (other checkout or paths); run install again to update them`,
    );
  }
  if (first) {
    lines.push(
      first.toolDetail === "subject"
        ? "tool detail: subject (tool rows carry a short redacted subject: command, path, URL)"
        : "tool detail: hash (tool rows keep only a hash of the arguments)",
    );
    if (isFile(first.denoPath)) {
      lines.push(`deno: ${first.denoPath} (exists)`);
      const note = npxCacheNote(first.denoPath);
      if (note !== undefined) lines.push(note);
    } else {
      fail(
        `deno: ${first.denoPath} (MISSING): every hook fails; install again, with --deno PATH naming a deno that stays`,
        "deno missing",
      );
    }
    if (isFile(first.scriptPath)) lines.push(`hook script: ${first.scriptPath} (exists)`);
    else {
      fail(
        `hook script: ${first.scriptPath} (MISSING): every hook fails; run install again from this checkout`,
        "hook script missing",
      );
    }
  }
  let paths;
  try {
    paths = resolvePaths(env);
  } catch (error) {
    throw new UserError((error as Error).message);
  }
  const daemon = await daemonCheck(
    first?.socket ?? paths.socket,
    first?.traceDir ?? paths.traceDir,
  );
  if (daemon.answers) lines.push(daemon.line);
  else fail(daemon.line, "daemon not answering");
  lines.push(lastCaptureLine(paths.db, target.scope === "user" ? undefined : target.project));
  lines.push(...scopeWarning(target, env));
  lines.push(
    problems.length === 0
      ? "capture works"
      : `capture does NOT work: ${problems.join(", ")} (see above)`,
  );
  return { lines: lines.map(printable), works: problems.length === 0 };
}

/**
 * A settings file read for status only: a symlinked user file (a dotfiles
 * repository) is followed, since nothing read here is written anywhere.
 */
function readSettingsFollowing(path: string): string | undefined {
  try {
    return readSettings(path);
  } catch (error) {
    if (!(error instanceof UserError) || !error.message.includes("is a symlink")) throw error;
    return Deno.readTextFileSync(path);
  }
}

function ourHooksIn(target: Target): FoundHook[] {
  const text = readSettingsFollowing(target.settingsFile);
  if (text === undefined) return [];
  return withFile(target.settingsFile, () => findOurHooks(text, { isOurs: isOurCommand }));
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

async function daemonCheck(
  socket: string,
  traceDir: string,
): Promise<{ answers: boolean; line: string }> {
  try {
    const connection = await Deno.connect({ transport: "unix", path: socket });
    connection.close();
    return { answers: true, line: `daemon: answering on ${socket}` };
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) {
      return {
        answers: false,
        line:
          `daemon: not checked: the hooks send to ${socket}, but CYBEROS_MEMORY_SOCKET names another socket; set it to ${socket}, or install again`,
      };
    }
    const reason = (error as Error).message.split("\n", 1)[0];
    return {
      answers: false,
      line: `daemon: NOT answering on ${socket} (${reason}); ${
        spoolSentence(spoolDir(traceDir))
      }; start it with deno task start`,
    };
  }
}

/** What waits in the spool while the daemon is down: the hooks keep every frame there. */
function spoolSentence(spool: string): string {
  let frames = 0;
  try {
    for (const entry of Deno.readDirSync(spool)) {
      if (entry.isFile && entry.name.endsWith(".frame")) frames++;
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return `no frame waits in the spool ${spool}`;
    }
    return `captured frames wait in the spool ${spool} (not readable here) until it runs`;
  }
  if (frames === 0) return `no frame waits in the spool ${spool}`;
  return `${frames} captured ${
    frames === 1 ? "frame waits" : "frames wait"
  } in the spool ${spool} and will be stored when it runs`;
}

function lastCaptureLine(db: string, project: string | undefined): string {
  const where = project === undefined ? "" : ` for ${project}`;
  let store;
  try {
    store = openStore(db, { readOnly: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return `last capture: none (no store at ${db} yet)`;
    return `last capture: cannot open ${db}: ${(error as Error).message.split("\n", 1)[0]}`;
  }
  try {
    const row = store.lastRows({
      limit: 1,
      ...(project === undefined ? {} : { cwdWithin: project }),
    })[0];
    if (!row) return `last capture: none${where} in ${db}`;
    const inProject = project === undefined ? ` in ${String(row.payload.cwd ?? "?")}` : "";
    return `last capture: ${formatTime(row.payload.captured_at_ns, { date: true })} ${
      shortKind(row.kind)
    } session ${row.payload.session_id}${inProject}: ${summary([row])}`;
  } finally {
    store.close();
  }
}

function scopeWarning(target: Target, env: (name: string) => string | undefined): string[] {
  if (target.project === undefined) return [];
  const found = ourHooksIn(target);
  if (found.length === 0) return [];
  const mine = new Set(found.map((hook) => `${hook.event}\n${hook.command}`));
  const others: Array<{ user: boolean; local?: boolean }> = [
    { user: true },
    { user: false, local: target.scope !== "local" },
  ];
  const warnings: string[] = [];
  for (const scope of others) {
    let other: Target;
    let otherFound: FoundHook[];
    try {
      other = resolveTarget(scope.user ? undefined : target.project, { ...scope, env });
      otherFound = ourHooksIn(other);
    } catch (error) {
      warnings.push(`warning: cannot read another scope's settings: ${(error as Error).message}`);
      continue;
    }
    if (otherFound.length === 0) continue;
    const identical = otherFound.length === found.length &&
      otherFound.every((hook) => mine.has(`${hook.event}\n${hook.command}`));
    warnings.push(
      `warning: our hooks are installed in both ${target.settingsFile} and ${other.settingsFile}; Claude Code merges them: ${
        identical
          ? "the commands are identical, so each runs once"
          : "the commands differ, so every event is captured twice; uninstall one scope"
      }`,
    );
  }
  return warnings;
}
