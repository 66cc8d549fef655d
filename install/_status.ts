/**
 * `status <project> [--user]`: whether our hooks are installed in the scope
 * (first line: `installed`, `partly installed: <missing events>` or `not
 * installed`), whether the installed command's deno binary and hook script
 * still exist, whether the daemon answers, the last row captured inside the
 * project, and a warning when both the user and the project scope hold our
 * hooks (Claude Code merges them).
 *
 * @module
 */

import { isOurCommand, parseHookCommand } from "../lib/hook_command.ts";
import { HOOK_EVENTS } from "../lib/kinds.ts";
import { resolvePaths } from "../lib/paths.ts";
import { openStore } from "../lib/store.ts";
import { findOurHooks, type FoundHook } from "./_settings.ts";
import { readSettings, resolveTarget, type Target, UserError } from "./_files.ts";
import { ourHooks, parseScopeArgs, withFile } from "./_install.ts";
import { formatTime, shortKind, summary } from "./_tail.ts";

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
 * Runs `status`; returns the lines to print.
 *
 * @throws {UserError} for bad arguments or a malformed settings file.
 */
export async function runStatus(
  args: readonly string[],
  env: (name: string) => string | undefined,
): Promise<string[]> {
  const parsed = parseScopeArgs(args, { extra: false });
  const target = resolveTarget(parsed.project, { user: parsed.user, env });
  const found = ourHooksIn(target);
  const lines = [installState(found), `settings: ${target.settingsFile}`];

  // The allowlist and the tool detail are the user's choices at install time: compare without them.
  const withoutAllowlist = (command: string) =>
    command.replace(/ --allow-email-domain '[^']*'/g, "").replace(/ --tool-detail subject/g, "");
  const current = new Set(ourHooks({ env }).map((hook) => hook.command));
  const first = found[0] && parseHookCommand(found[0].command);
  if (found.length > 0) {
    const stale = found.filter((hook) => !current.has(withoutAllowlist(hook.command))).length;
    lines.push(
      stale === 0
        ? "command: as install would write it now"
        : `command: ${stale} of ${found.length} entries differ from what install would write now (other checkout, deno or paths); run install again to update them`,
    );
  }
  if (first) {
    lines.push(
      first.toolDetail === "subject"
        ? "tool detail: subject (tool rows carry a short redacted subject: command, path, URL)"
        : "tool detail: hash (tool rows keep only a hash of the arguments)",
    );
    lines.push(`deno: ${first.denoPath} (${exists(first.denoPath) ? "exists" : "MISSING"})`);
    lines.push(
      `hook script: ${first.scriptPath} (${exists(first.scriptPath) ? "exists" : "MISSING"})`,
    );
  }
  let paths;
  try {
    paths = resolvePaths(env);
  } catch (error) {
    throw new UserError((error as Error).message);
  }
  lines.push(await daemonLine(first?.socket ?? paths.socket));
  lines.push(lastCaptureLine(paths.db, target.project));
  lines.push(...scopeWarning(target, parsed.project, env));
  return lines;
}

function ourHooksIn(target: Target): FoundHook[] {
  const text = readSettings(target.settingsFile);
  if (text === undefined) return [];
  return withFile(target.settingsFile, () => findOurHooks(text, { isOurs: isOurCommand }));
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

async function daemonLine(socket: string): Promise<string> {
  try {
    const connection = await Deno.connect({ transport: "unix", path: socket });
    connection.close();
    return `daemon: answering on ${socket}`;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) {
      return `daemon: not checked: status may reach only the socket CYBEROS_MEMORY_SOCKET names, not ${socket}`;
    }
    return `daemon: NOT answering on ${socket} (${
      (error as Error).message.split("\n", 1)[0]
    }); start it with deno task start, or nothing is captured`;
  }
}

function lastCaptureLine(db: string, project: string | undefined): string {
  if (project === undefined) return "last capture: no project given";
  let store;
  try {
    store = openStore(db, { readOnly: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return `last capture: none (no store at ${db} yet)`;
    return `last capture: cannot open ${db}: ${(error as Error).message}`;
  }
  try {
    const row = store.lastRows({ limit: 1, cwdWithin: project })[0];
    if (!row) return `last capture: none for ${project} in ${db}`;
    return `last capture: ${formatTime(row.payload.captured_at_ns, { date: true })} ${
      shortKind(row.kind)
    } session ${row.payload.session_id}: ${summary([row])}`;
  } finally {
    store.close();
  }
}

function scopeWarning(
  target: Target,
  project: string | undefined,
  env: (name: string) => string | undefined,
): string[] {
  let other: Target;
  try {
    other = resolveTarget(project, { user: target.scope === "project", env });
  } catch {
    return [];
  }
  if (other.project === undefined && target.scope === "user") return [];
  let otherFound: FoundHook[];
  try {
    otherFound = ourHooksIn(other);
  } catch (error) {
    return [`warning: cannot read the ${other.scope} settings: ${(error as Error).message}`];
  }
  const found = ourHooksIn(target);
  if (found.length === 0 || otherFound.length === 0) return [];
  const mine = new Set(found.map((hook) => `${hook.event}\n${hook.command}`));
  const identical = otherFound.length === found.length &&
    otherFound.every((hook) => mine.has(`${hook.event}\n${hook.command}`));
  return [
    `warning: our hooks are installed in both ${target.settingsFile} and ${other.settingsFile}; Claude Code merges them: ${
      identical
        ? "the commands are identical, so each runs once"
        : "the commands differ, so every event is captured twice; uninstall one scope"
    }`,
  ];
}
