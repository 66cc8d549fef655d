/**
 * Finds transcripts under Claude Code's projects folder. Claude Code names a project's folder
 * after its working directory with every character other than a letter or digit replaced by `-`
 * (so `/tmp/my.app` becomes `-tmp-my-app`, and two directories can share a folder); a transcript
 * is `<folder>/<session_id>.jsonl` and its subagents' are `<folder>/<session_id>/subagents/*.jsonl`.
 * Sessions are looked up by id in every folder rather than by the folder name alone.
 *
 * @module
 */

/** A session id that is safe as a file name: Claude Code's are UUIDs. */
export const SESSION_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

/** One transcript file. */
export interface TranscriptFile {
  /** The session id (the file name without `.jsonl`). */
  sessionId: string;
  /** The main transcript. */
  path: string;
  /** The project folder it lies in. */
  folder: string;
  /** When it was last written, ms since the epoch. */
  modifiedMs: number;
}

/** Claude Code's folder name for a working directory. */
export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

/**
 * Every transcript under the projects folder, by session id (empty when the folder is missing).
 * Symbolic links are skipped: the folder is Claude Code's, and a link would lead reads elsewhere.
 */
export async function listTranscripts(projectsDir: string): Promise<Map<string, TranscriptFile>> {
  const found = new Map<string, TranscriptFile>();
  for (const folder of await entries(projectsDir)) {
    if (!folder.isDirectory) continue;
    for (const file of await entries(`${projectsDir}/${folder.name}`)) {
      if (!file.isFile || !file.name.endsWith(".jsonl")) continue;
      const sessionId = file.name.slice(0, -".jsonl".length);
      if (!SESSION_ID.test(sessionId)) continue;
      const path = `${projectsDir}/${folder.name}/${file.name}`;
      const stat = await Deno.lstat(path).catch(() => undefined);
      const modifiedMs = stat?.mtime?.getTime() ?? 0;
      const known = found.get(sessionId);
      if (known === undefined || modifiedMs > known.modifiedMs) {
        found.set(sessionId, { sessionId, path, folder: folder.name, modifiedMs });
      }
    }
  }
  return found;
}

/** The texts of a transcript and of its subagents' transcripts. */
export async function readTranscript(
  file: TranscriptFile,
): Promise<{ main: string; subagents: string[] }> {
  const main = await Deno.readTextFile(file.path);
  const sessionDir = file.path.slice(0, -".jsonl".length);
  const subagentDir = `${sessionDir}/subagents`;
  const subagents: string[] = [];
  if (!await isRealDirectory(sessionDir) || !await isRealDirectory(subagentDir)) {
    return { main, subagents };
  }
  for (const entry of await entries(subagentDir)) {
    if (entry.isFile && entry.name.endsWith(".jsonl")) {
      subagents.push(await Deno.readTextFile(`${subagentDir}/${entry.name}`));
    }
  }
  return { main, subagents };
}

/** Whether `path` is a directory and not a symbolic link to one. */
async function isRealDirectory(path: string): Promise<boolean> {
  const stat = await Deno.lstat(path).catch(() => undefined);
  return stat?.isDirectory === true;
}

async function entries(dir: string): Promise<Deno.DirEntry[]> {
  const list: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) list.push(entry);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound) && !(error instanceof Deno.errors.NotADirectory)) {
      throw error;
    }
  }
  return list.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
