/**
 * `coverage [--session ID] [--since TIME]`: proves, per session, that the store holds every
 * prompt, tool call and turn end that Claude Code's own transcript records, or names what is
 * missing. `deno task coverage` runs this file through `coverage/start.ts`, with read access to the
 * store and Claude Code's projects folder only (`coveragePermissionFlags`).
 *
 * Sessions compared: the one `--session` names; else every session the store holds, plus the
 * sessions of the same projects that the store holds no row of at all (a hook that never got
 * through), once capture had started there; `--since` keeps those active since then.
 *
 * Exit 0 when nothing is missing, 1 when something is (or the store cannot be read), 2 on bad
 * usage.
 *
 * @module
 */

import { compareSession } from "./_compare.ts";
import { type CoverageArgs, parseCoverageArgs, USAGE, UsageError } from "./_args.ts";
import {
  listTranscripts,
  projectFolderName,
  readTranscript,
  SESSION_ID,
  type TranscriptFile,
} from "./_find.ts";
import { resolveCoveragePaths } from "./_paths.ts";
import { printable, sessionLines, type SessionReport, totalLine } from "./_report.ts";
import { type CoverageStore, openCoverageStore, type StoredSession } from "./_store.ts";
import { parseTranscript } from "./_transcript.ts";

const PREFIX = "cyberos-memory coverage: ";

/** A session to compare, from the store, a transcript, or both. */
interface Candidate {
  sessionId: string;
  cwd: string | undefined;
  stored: StoredSession | undefined;
  transcript: TranscriptFile | undefined;
}

/** Runs coverage with these arguments; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let args: CoverageArgs;
  try {
    args = parseCoverageArgs(argv, Date.now());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${PREFIX}${error.message}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  let store: CoverageStore | undefined;
  try {
    const paths = resolveCoveragePaths((name) => Deno.env.get(name));
    try {
      store = openCoverageStore(paths.db);
    } catch (error) {
      const detail = error instanceof Deno.errors.NotFound
        ? "no store there yet; start the daemon (deno task start) and use Claude Code in an installed project"
        : `cannot open the store: ${(error as Error).message}`;
      console.error(`${PREFIX}${printable(paths.db)}: ${detail}`);
      return 1;
    }
    const transcripts = await listTranscripts(paths.projectsDir);
    const candidates = selectCandidates(store.sessions(), transcripts, args);
    if (!Array.isArray(candidates)) {
      console.error(`${PREFIX}${candidates.message}`);
      return candidates.exitCode;
    }
    const reports: SessionReport[] = [];
    for (const candidate of candidates) {
      reports.push(await reportOf(candidate, store, args));
    }
    const lines = reports.flatMap((report) => sessionLines(report, paths.projectsDir));
    lines.push(
      reports.length === 0 ? "coverage: no session to compare" : totalLine(reports),
    );
    console.log(lines.join("\n"));
    const missing = reports.some((report) =>
      !("noTranscript" in report) && report.coverage.missing.length > 0
    );
    return missing ? 1 : 0;
  } catch (error) {
    const message = printable((error as Error)?.message?.split("\n", 1)[0] ?? String(error));
    console.error(`${PREFIX}${message}`);
    return 1;
  } finally {
    store?.close();
  }
}

/** Why `--session` selects nothing: it names no session (exit 1) or several (bad usage, 2). */
interface NoSelection {
  message: string;
  exitCode: 1 | 2;
}

/** The sessions to compare, oldest first. */
function selectCandidates(
  stored: StoredSession[],
  transcripts: Map<string, TranscriptFile>,
  args: CoverageArgs,
): Candidate[] | NoSelection {
  const byId = new Map<string, Candidate>();
  for (const session of stored) {
    byId.set(session.sessionId, {
      sessionId: session.sessionId,
      cwd: session.cwd,
      stored: session,
      transcript: SESSION_ID.test(session.sessionId)
        ? transcripts.get(session.sessionId)
        : undefined,
    });
  }
  if (args.session !== undefined) return namedSession(args.session, byId, transcripts);
  // Sessions of a captured project that left no row at all, since capture started there.
  const captureStart = new Map<string, number>();
  for (const session of stored) {
    if (session.cwd === undefined) continue;
    const folder = projectFolderName(session.cwd);
    captureStart.set(folder, Math.min(captureStart.get(folder) ?? Infinity, session.firstMs));
  }
  for (const file of transcripts.values()) {
    const start = captureStart.get(file.folder);
    if (byId.has(file.sessionId) || start === undefined || file.modifiedMs < start) continue;
    byId.set(file.sessionId, {
      sessionId: file.sessionId,
      cwd: undefined,
      stored: undefined,
      transcript: file,
    });
  }
  const since = args.sinceMs;
  return [...byId.values()].filter((candidate) =>
    since === undefined || (candidate.stored?.lastMs ?? -Infinity) >= since ||
    (candidate.transcript?.modifiedMs ?? -Infinity) >= since
  );
}

function namedSession(
  wanted: string,
  byId: Map<string, Candidate>,
  transcripts: Map<string, TranscriptFile>,
): Candidate[] | NoSelection {
  const exact = byId.get(wanted);
  if (exact !== undefined) return [exact];
  const ids = new Set(
    [...byId.keys(), ...transcripts.keys()].filter((id) => id.startsWith(wanted)),
  );
  if (ids.size === 0) {
    return {
      message: `no session ${wanted} in the store or under Claude Code's projects folder`,
      exitCode: 1,
    };
  }
  if (ids.size > 1) {
    return {
      message: `${ids.size} sessions start with ${wanted}; give more of the id`,
      exitCode: 2,
    };
  }
  const [id] = ids as Set<string>;
  return [
    byId.get(id!) ?? {
      sessionId: id!,
      cwd: undefined,
      stored: undefined,
      transcript: transcripts.get(id!),
    },
  ];
}

async function reportOf(
  candidate: Candidate,
  store: CoverageStore,
  args: CoverageArgs,
): Promise<SessionReport> {
  const { sessionId, cwd, transcript } = candidate;
  if (transcript === undefined) return { sessionId, cwd, noTranscript: true };
  const record = parseTranscript(await readTranscript(transcript));
  const coverage = compareSession(record, store.captured(sessionId), {
    ...(args.sinceMs === undefined ? {} : { sinceMs: args.sinceMs }),
  });
  return { sessionId, cwd, coverage, inStore: candidate.stored !== undefined };
}

if (import.meta.main) Deno.exit(await main(Deno.args));
