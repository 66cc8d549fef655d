/**
 * Where a scope's settings file lives, reading it without losing a byte, and
 * writing it atomically (a temporary file in the same folder, then rename)
 * with the file's mode kept. These are the installer's only writes.
 *
 * @module
 */

/** A command-line mistake or a file we refuse: one line for stderr, exit 1. */
export class UserError extends Error {
  /** The one-line message, without the `cyberos-memory <command>:` prefix. */
  constructor(message: string) {
    super(message);
    this.name = "UserError";
  }
}

/** Which settings file a command works on. */
export interface Target {
  /** `user` (`~/.claude/settings.json`) or `project`. */
  scope: "user" | "project";
  /** The project folder, absolute; `undefined` for `--user` without a project. */
  project: string | undefined;
  /** The `.claude` folder of the scope. */
  claudeDir: string;
  /** `<claudeDir>/settings.json`. */
  settingsFile: string;
}

/** Options for {@linkcode resolveTarget}. */
export interface ResolveTargetOptions {
  /** Use the user's settings instead of the project's. */
  user: boolean;
  /** Reads an environment variable (`HOME`, `INIT_CWD`). */
  env: (name: string) => string | undefined;
}

/**
 * Resolves the project folder (relative to where `deno task` was started,
 * `INIT_CWD`) and the settings file of the scope.
 *
 * @throws {UserError} when the project folder is missing or `HOME` is unset.
 */
export function resolveTarget(project: string | undefined, options: ResolveTargetOptions): Target {
  const { user, env } = options;
  let projectDir: string | undefined;
  if (project !== undefined) {
    const base = env("INIT_CWD") || Deno.cwd();
    projectDir = normalize(project.startsWith("/") ? project : `${base}/${project}`);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(projectDir);
    } catch {
      throw new UserError(`${projectDir}: no such folder; give the path of an existing project`);
    }
    if (!info.isDirectory) {
      throw new UserError(`${projectDir}: not a folder; give the path of the project's folder`);
    }
  } else if (!user) {
    throw new UserError("no project given; name the project folder, or pass --user");
  }
  if (user) {
    const home = env("HOME");
    if (!home?.startsWith("/")) {
      throw new UserError("HOME is not set to an absolute path; set it to use --user");
    }
    const claudeDir = `${normalize(home)}/.claude`;
    return {
      scope: "user",
      project: projectDir,
      claudeDir,
      settingsFile: `${claudeDir}/settings.json`,
    };
  }
  const claudeDir = `${projectDir}/.claude`;
  return {
    scope: "project",
    project: projectDir,
    claudeDir,
    settingsFile: `${claudeDir}/settings.json`,
  };
}

/**
 * The file's text, byte for byte (a byte-order mark stays as `\uFEFF`);
 * `undefined` when there is no file.
 *
 * @throws {UserError} when the file is not UTF-8 or cannot be read.
 */
export function readSettings(path: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new UserError(`${path}: cannot read: ${(error as Error).message}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UserError(`${path}:1:1: not UTF-8 text; save the file as UTF-8`);
  }
}

/**
 * Writes `text` to `path` atomically: a temporary file in the same folder,
 * given the old file's mode, then renamed over it. Creates the folder (only
 * the last level, `.claude`) when missing.
 */
export function writeSettingsAtomic(path: string, text: string): void {
  const dir = path.slice(0, path.lastIndexOf("/"));
  ensureDir(dir);
  let mode = 0o644;
  try {
    mode = (Deno.statSync(path).mode ?? mode) & 0o7777;
  } catch {
    // New file.
  }
  const temp = `${dir}/.settings.json.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    Deno.writeTextFileSync(temp, text, { createNew: true, mode });
    Deno.chmodSync(temp, mode);
    Deno.renameSync(temp, path);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch {
      // Never created.
    }
    throw error;
  }
}

/** Makes `dir` exist (one level: the `.claude` folder inside an existing folder). */
export function ensureDir(dir: string): void {
  try {
    Deno.mkdirSync(dir, { mode: 0o755 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}
