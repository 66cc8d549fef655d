/**
 * `install` and `uninstall`: read the scope's settings file, edit it with
 * {@linkcode installHooks} / {@linkcode uninstallHooks}, write it atomically
 * when something changed, and say what changed.
 *
 * @module
 */

import { buildHookCommand, isOurCommand } from "../lib/hook_command.ts";
import { HOOK_EVENTS, type HookEvent } from "../lib/kinds.ts";
import { isToolDetail, TOOL_DETAILS, type ToolDetail } from "../lib/subject.ts";
import { resolvePaths } from "../lib/paths.ts";
import { installHooks, type OurHook, SettingsError, uninstallHooks } from "./_settings.ts";
import { readSettings, resolveTarget, UserError, writeSettingsAtomic } from "./_files.ts";

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

/** Parsed arguments of `install`, `uninstall` and `status`. */
export interface ScopeArgs {
  /** The project folder as given. */
  project: string | undefined;
  /** `--user`. */
  user: boolean;
  /** `--allow-email-domain D`, repeatable (install only). */
  allowEmailDomains: string[];
  /** `--hook-script PATH` (install only). */
  scriptPath: string | undefined;
  /** `--tool-detail hash|subject` (install only). */
  toolDetail: ToolDetail;
}

/**
 * Parses `<project> [--user] [--allow-email-domain D]... [--tool-detail hash|subject]
 * [--hook-script PATH]`.
 *
 * @throws {UserError} on an unknown or incomplete option.
 */
export function parseScopeArgs(args: readonly string[], options: { extra: boolean }): ScopeArgs {
  const parsed: ScopeArgs = {
    project: undefined,
    user: false,
    allowEmailDomains: [],
    scriptPath: undefined,
    toolDetail: "hash",
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--user") parsed.user = true;
    else if (options.extra && arg === "--allow-email-domain") {
      const domain = args[++i];
      if (!domain || !/^[A-Za-z0-9.-]+$/.test(domain)) {
        throw new UserError(`--allow-email-domain needs a domain such as example.com`);
      }
      parsed.allowEmailDomains.push(domain);
    } else if (options.extra && arg === "--tool-detail") {
      const detail = args[++i];
      if (!isToolDetail(detail)) {
        throw new UserError(`--tool-detail takes ${TOOL_DETAILS.join(" or ")}, got "${detail}"`);
      }
      parsed.toolDetail = detail;
    } else if (options.extra && arg === "--hook-script") {
      const path = args[++i];
      if (!path?.startsWith("/")) throw new UserError("--hook-script needs an absolute path");
      parsed.scriptPath = path;
    } else if (!arg.startsWith("-") && parsed.project === undefined) parsed.project = arg;
    else throw new UserError(`unexpected argument "${arg}"; see the usage in install/main.ts`);
  }
  return parsed;
}

/** What a settings-editing command reports. */
export interface CommandOutput {
  /** Lines for stdout. */
  lines: string[];
}

/**
 * `install`: adds or updates our four entries in the scope's settings file.
 *
 * @throws {UserError} for anything the user can fix; nothing is written then.
 */
export function runInstall(
  args: readonly string[],
  env: (name: string) => string | undefined,
): CommandOutput {
  const parsed = parseScopeArgs(args, { extra: true });
  const target = resolveTarget(parsed.project, { user: parsed.user, env });
  const hooks = ourHooks({
    env,
    allowEmailDomains: parsed.allowEmailDomains,
    toolDetail: parsed.toolDetail,
    ...(parsed.scriptPath === undefined ? {} : { scriptPath: parsed.scriptPath }),
  });
  const before = readSettings(target.settingsFile);
  const result = withFile(
    target.settingsFile,
    () => installHooks(before, hooks, { isOurs: isOurCommand }),
  );
  if (result.changes.length === 0) {
    return { lines: [`already installed in ${target.settingsFile}`] };
  }
  writeSettingsAtomic(target.settingsFile, result.text);
  const replaced = result.changes.some((change) => change.startsWith("replaced"));
  const head = before === undefined
    ? `installed: created ${target.settingsFile}`
    : replaced
    ? `updated ${target.settingsFile}: our command changed and was replaced in place`
    : `installed in ${target.settingsFile}`;
  return { lines: [head, ...result.changes.map((change) => `  ${change}`)] };
}

/**
 * `uninstall`: removes exactly our entries from the scope's settings file.
 *
 * @throws {UserError} for anything the user can fix; nothing is written then.
 */
export function runUninstall(
  args: readonly string[],
  env: (name: string) => string | undefined,
): CommandOutput {
  const parsed = parseScopeArgs(args, { extra: false });
  const target = resolveTarget(parsed.project, { user: parsed.user, env });
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
  writeSettingsAtomic(target.settingsFile, result.text);
  return {
    lines: [
      `uninstalled from ${target.settingsFile}: removed ${result.removed.length} entries (${
        result.removed.join(", ")
      })`,
    ],
  };
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
