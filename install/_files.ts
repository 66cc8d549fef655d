/**
 * Where a scope's settings file lives, reading it without losing a byte, and
 * writing it atomically (a temporary file in the same folder, then rename)
 * with the file's mode kept. These are the installer's only writes. Nothing
 * here follows a symlink or touches another user's file: a repository is
 * hostile input, and its `.claude` or settings file may be a link planted to
 * make install read a secret into the repository or write anywhere.
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
  /**
   * `user` (`~/.claude/settings.json`), `project` (`.claude/settings.json`)
   * or `local` (`.claude/settings.local.json`).
   */
  scope: "user" | "project" | "local";
  /** The project folder, absolute; `undefined` for `--user`. */
  project: string | undefined;
  /** The `.claude` folder of the scope. */
  claudeDir: string;
  /** The scope's settings file inside `claudeDir`. */
  settingsFile: string;
}

/** Options for {@linkcode resolveTarget}. */
export interface ResolveTargetOptions {
  /** Use the user's settings instead of the project's. */
  user: boolean;
  /** Use the project's `settings.local.json` instead of its `settings.json`. */
  local?: boolean;
  /** Reads an environment variable (`HOME`, `INIT_CWD`). */
  env: (name: string) => string | undefined;
}

/**
 * Resolves the project folder (relative to where `deno task` was started,
 * `INIT_CWD`) and the settings file of the scope, and checks the scope's
 * `.claude` folder ({@linkcode checkClaudeDir}).
 *
 * @throws {UserError} when the project folder is missing, `HOME` is unset,
 * or the `.claude` folder is one we refuse.
 */
export function resolveTarget(project: string | undefined, options: ResolveTargetOptions): Target {
  const { user, local = false, env } = options;
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
  let target: Target;
  if (user) {
    const home = env("HOME");
    if (!home?.startsWith("/")) {
      throw new UserError("HOME is not set to an absolute path; set it to use --user");
    }
    const claudeDir = `${normalize(home)}/.claude`;
    target = {
      scope: "user",
      project: projectDir,
      claudeDir,
      settingsFile: `${claudeDir}/settings.json`,
    };
  } else {
    const claudeDir = `${projectDir}/.claude`;
    target = {
      scope: local ? "local" : "project",
      project: projectDir,
      claudeDir,
      settingsFile: `${claudeDir}/${local ? "settings.local.json" : "settings.json"}`,
    };
  }
  checkClaudeDir(target.claudeDir);
  return target;
}

/** This process's uid, or `undefined` where it may not ask (no `sys=uid` grant). */
export function currentUid(): number | undefined {
  try {
    return Deno.uid() ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a `.claude` that is a symlink (a hostile repository's link would
 * make install write anywhere), that is not a folder, or that belongs to
 * another user. A missing one is fine: install creates it.
 *
 * @throws {UserError} naming the folder and the fix.
 */
export function checkClaudeDir(claudeDir: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(claudeDir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new UserError(`${claudeDir}: cannot inspect: ${firstLine(error)}`);
  }
  if (info.isSymlink) {
    throw new UserError(
      `${claudeDir} is a symlink; install writes only into a real folder: replace the link with a folder`,
    );
  }
  if (!info.isDirectory) {
    throw new UserError(`${claudeDir} is not a folder; move it away and run the command again`);
  }
  refuseForeignOwner(claudeDir, info);
}

/**
 * The file's text, byte for byte (a byte-order mark stays as `\uFEFF`);
 * `undefined` when there is no file. Never follows a symlink: a settings
 * file that is one (a hostile repository's link to
 * `~/.claude/.credentials.json`, say) is refused, so its target's contents
 * are never read into a file of ours.
 *
 * @throws {UserError} when the file is a symlink, not a regular file,
 * another user's, not UTF-8, or cannot be read.
 */
export function readSettings(path: string): string | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new UserError(`${path}: cannot read: ${firstLine(error)}`);
  }
  if (info.isSymlink) {
    throw new UserError(
      `${path} is a symlink; refusing to read or write through it: replace the link with a regular file`,
    );
  }
  if (!info.isFile) {
    throw new UserError(`${path} is not a regular file; move it away and run the command again`);
  }
  refuseForeignOwner(path, info);
  let bytes: Uint8Array;
  try {
    const file = Deno.openSync(path, { read: true });
    try {
      const opened = file.statSync();
      if (opened.ino !== info.ino || opened.dev !== info.dev) {
        throw new UserError(`${path} was replaced while reading it; run the command again`);
      }
      bytes = new Uint8Array(opened.size);
      for (let at = 0; at < bytes.length;) {
        const n = file.readSync(bytes.subarray(at));
        if (n === null) break;
        at += n;
      }
    } finally {
      file.close();
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${path}: cannot read: ${firstLine(error)}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UserError(`${path}:1:1: not UTF-8 text; save the file as UTF-8`);
  }
}

/** What {@linkcode writeSettingsAtomic} created. */
export interface WriteResult {
  /** The `.claude` folder did not exist before. */
  createdDir: boolean;
}

/** Options for {@linkcode writeSettingsAtomic}. */
export interface WriteOptions {
  /**
   * The mode of a new file (an existing file keeps its own).
   *
   * @default {0o644}
   */
  mode?: number;
}

/**
 * Writes `text` to `path` atomically: a new temporary file in the same
 * folder (created exclusively, so never through a planted link), given the
 * old file's mode, then renamed over it. Creates the folder (only the last
 * level, `.claude`) when missing, and checks it again afterwards.
 */
export function writeSettingsAtomic(
  path: string,
  text: string,
  options: WriteOptions = {},
): WriteResult {
  const dir = path.slice(0, path.lastIndexOf("/"));
  const createdDir = ensureDir(dir);
  checkClaudeDir(dir);
  let mode = options.mode ?? 0o644;
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) throw new UserError(`${path} is a symlink; replace it with a regular file`);
    mode = (info.mode ?? mode) & 0o7777;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const temp = `${dir}/.${path.slice(dir.length + 1)}.${crypto.randomUUID().slice(0, 8)}.tmp`;
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
  return { createdDir };
}

/**
 * Makes `dir` exist (one level: the `.claude` folder inside an existing
 * folder); whether it was created now.
 */
export function ensureDir(dir: string): boolean {
  try {
    Deno.mkdirSync(dir, { mode: 0o755 });
    return true;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    return false;
  }
}

/**
 * Deletes a settings file (a regular file, checked again) and then, when
 * `removeEmptyDir` says so, its folder when that leaves the folder empty;
 * whether the folder went too.
 */
export function removeSettingsFile(
  path: string,
  options: { removeEmptyDir: boolean },
): { removedDir: boolean } {
  const info = Deno.lstatSync(path);
  if (!info.isFile) throw new UserError(`${path} is not a regular file; left as it is`);
  Deno.removeSync(path);
  if (!options.removeEmptyDir) return { removedDir: false };
  const dir = path.slice(0, path.lastIndexOf("/"));
  try {
    if ([...Deno.readDirSync(dir)].length > 0) return { removedDir: false };
    Deno.removeSync(dir);
    return { removedDir: true };
  } catch {
    return { removedDir: false };
  }
}

function refuseForeignOwner(path: string, info: Deno.FileInfo): void {
  const uid = currentUid();
  if (uid !== undefined && info.uid !== null && info.uid !== uid) {
    throw new UserError(
      `${path} belongs to uid ${info.uid}, not to you (uid ${uid}); refusing to touch it`,
    );
  }
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n", 1)[0]!;
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
