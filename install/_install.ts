/**
 * `install` and `uninstall`: read the scope's settings file, edit it with
 * {@linkcode installHooks} / {@linkcode uninstallHooks}, write it atomically
 * when something changed, and say what changed.
 *
 * @module
 */

import { buildHookCommand, isOurCommand } from "../lib/hook_command.ts";
import { HOOK_EVENTS, type HookEvent } from "../lib/kinds.ts";
import type { ToolDetail } from "../lib/subject.ts";
import { resolvePaths } from "../lib/paths.ts";
import { installHooks, type OurHook, SettingsError, uninstallHooks } from "./_settings.ts";
import {
  readSettings,
  removeSettingsFile,
  resolveTarget,
  UserError,
  writeSettingsAtomic,
} from "./_files.ts";
import type { ScopeArgs } from "./_commands.ts";
import {
  entryFor,
  holdsNothing,
  isAsWritten,
  readRecord,
  recordDir,
  writeRecord,
} from "./_created.ts";

/** Seconds Claude Code lets one hook run: caps a hang, never a normal run (tens of ms). */
export const HOOK_TIMEOUT_SECONDS = 5;

/** The events that take a matcher (`*`: every tool). */
const MATCHED_EVENTS: ReadonlySet<HookEvent> = new Set(["posttooluse", "posttoolusefailure"]);

/** Options for {@linkcode ourHooks}. */
export interface OurHooksOptions {
  /** Reads an environment variable (the `CYBEROS_MEMORY_*` paths). */
  env: (name: string) => string | undefined;
  /** E-mail domains the redactor leaves readable. */
  allowEmailDomains?: readonly string[];
  /** The hook script, when not this checkout's `hook/main.ts`. */
  scriptPath?: string;
  /** The deno binary; default `Deno.execPath()`. */
  denoPath?: string;
  /** How much of a tool call rows keep; default `hash`. */
  toolDetail?: ToolDetail;
}

/** The four entries install writes, with the paths of the environment baked in. */
export function ourHooks(options: OurHooksOptions): OurHook[] {
  const {
    env,
    allowEmailDomains = [],
    scriptPath,
    denoPath = Deno.execPath(),
    toolDetail = "hash",
  } = options;
  let paths;
  try {
    paths = resolvePaths(env);
  } catch (error) {
    throw new UserError((error as Error).message);
  }
  return (Object.keys(HOOK_EVENTS) as HookEvent[]).map((event) => ({
    event: HOOK_EVENTS[event],
    command: buildHookCommand(event, {
      denoPath,
      socket: paths.socket,
      traceDir: paths.traceDir,
      allowEmailDomains,
      toolDetail,
      ...(scriptPath === undefined ? {} : { scriptPath }),
    }),
    timeout: HOOK_TIMEOUT_SECONDS,
    ...(MATCHED_EVENTS.has(event) ? { matcher: "*" } : {}),
  }));
}

/** What a settings-editing command reports. */
export interface CommandOutput {
  /** Lines for stdout. */
  lines: string[];
}

/**
 * A note when the hooks would run a deno binary inside npx's cache, which
 * npm may clean at any time (every hook then fails and Claude Code shows
 * nothing); `undefined` for any other path.
 */
export function npxCacheNote(denoPath: string): string | undefined {
  if (!denoPath.includes("/_npx/")) return undefined;
  return `note: the hooks run ${denoPath}, inside npx's cache, which npm may clean; then every hook fails (status says so). Pin a stable deno: install again with --deno PATH (docs/cli.md)`;
}

/**
 * `install`: adds or updates our four entries in the scope's settings file,
 * and records it in the installer's record (`_created.ts`) when it created
 * the file or found it holding nothing, so that `uninstall` can give that back.
 *
 * @throws {UserError} for anything the user can fix; nothing is written then.
 */
export function runInstall(
  scope: ScopeArgs,
  env: (name: string) => string | undefined,
): CommandOutput {
  const target = resolveTarget(scope.project, { user: scope.user, local: scope.local, env });
  const denoPath = scope.denoPath ?? Deno.execPath();
  const hooks = ourHooks({
    env,
    allowEmailDomains: scope.allowEmailDomains,
    toolDetail: scope.toolDetail,
    denoPath,
    ...(scope.scriptPath === undefined ? {} : { scriptPath: scope.scriptPath }),
  });
  const before = readSettings(target.settingsFile);
  const result = withFile(
    target.settingsFile,
    () => installHooks(before, hooks, { isOurs: isOurCommand }),
  );
  const note = npxCacheNote(denoPath);
  const notes = note === undefined ? [] : [note];
  if (result.changes.length === 0) {
    return { lines: [`already installed in ${target.settingsFile}`, ...notes] };
  }
  const file = target.settingsFile;
  const folder = recordDir(env);
  // A file that held nothing (or none) uninstall gives back whole; any other loses only our entries.
  const givenBackWhole = before === undefined || holdsNothing(before);
  const record = readRecord(folder, { create: givenBackWhole });
  const previous = record.get(file);
  const ours = previous !== undefined && before !== undefined &&
    isAsWritten(previous, file, before);
  const { createdDir } = writeSettingsAtomic(file, result.text);
  // Still what install first found, when the file is the one install wrote last.
  const origin = ours
    ? { before: previous.before, createdDir: previous.createdDir }
    : givenBackWhole
    ? { before: before ?? null, createdDir }
    : undefined;
  if (origin === undefined) record.delete(file);
  else record.set(file, entryFor(file, result.text, origin));
  if (origin !== undefined || previous !== undefined) writeRecord(folder, record);
  const replaced = result.changes.some((change) => change.startsWith("replaced"));
  const head = before === undefined
    ? `installed: created ${target.settingsFile}`
    : replaced
    ? `updated ${target.settingsFile}: our command changed and was replaced in place`
    : `installed in ${target.settingsFile}`;
  return { lines: [head, ...result.changes.map((change) => `  ${change}`), ...notes] };
}

/**
 * `uninstall`: removes exactly our entries from the scope's settings file.
 * A file the installer's record says install created, still as install last
 * wrote it, is deleted instead (and the `.claude` folder when install created
 * that too and it is left empty); one that held nothing (blank, or `{}` laid
 * out any way) gets its exact text back. Any other file keeps every byte but
 * our entries, even when only `{}` is left.
 *
 * @throws {UserError} for anything the user can fix; nothing is written then.
 */
export function runUninstall(
  scope: ScopeArgs,
  env: (name: string) => string | undefined,
): CommandOutput {
  const target = resolveTarget(scope.project, { user: scope.user, local: scope.local, env });
  const before = readSettings(target.settingsFile);
  if (before === undefined) {
    return { lines: [`not installed: ${target.settingsFile} does not exist; nothing to remove`] };
  }
  const result = withFile(
    target.settingsFile,
    () => uninstallHooks(before, { isOurs: isOurCommand }),
  );
  if (result.removed.length === 0) {
    return { lines: [`not installed in ${target.settingsFile}; nothing to remove`] };
  }
  const file = target.settingsFile;
  const folder = recordDir(env);
  const record = readRecord(folder, { create: false });
  const entry = record.get(file);
  const head = `uninstalled from ${file}: removed ${result.removed.length} entries (${
    result.removed.join(", ")
  })`;
  const lines = [head];
  if (
    entry === undefined || !isAsWritten(entry, file, before) ||
    !holdsNothing(result.text)
  ) {
    writeSettingsAtomic(file, result.text);
  } else if (entry.before !== null) {
    writeSettingsAtomic(file, entry.before);
  } else {
    const { removedDir } = removeSettingsFile(file, { removeEmptyDir: entry.createdDir });
    lines.push(`  deleted ${file}: nothing else was in it`);
    if (removedDir) lines.push(`  deleted ${target.claudeDir}: nothing else was in it`);
  }
  if (entry !== undefined) {
    record.delete(file);
    writeRecord(folder, record);
  }
  return { lines };
}

/** Runs an edit, turning a {@linkcode SettingsError} into a `file:line:col` {@linkcode UserError}. */
export function withFile<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof SettingsError) throw new UserError(`${file}:${error.message}`);
    throw error;
  }
}
