/**
 * `coverage`'s printed report. Everything printed that came from a transcript or the store
 * (working directories, tool names) is hostile text: control, bidi and line-separator characters
 * are replaced and lengths bounded, so a crafted name cannot rewrite the terminal or a log line.
 *
 * @module
 */

import type { MissingItem, SessionCoverage, Tally } from "./_compare.ts";

/** What the report says about one session. */
export type SessionReport =
  | { sessionId: string; cwd: string | undefined; coverage: SessionCoverage; inStore: boolean }
  | { sessionId: string; cwd: string | undefined; noTranscript: true };

/** Replaces characters that could steer a terminal and bounds the length. */
export function printable(text: string, max = 200): string {
  const clean = text.replace(
    // deno-lint-ignore no-control-regex
    /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g,
    "?",
  );
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** An ISO time to the second, in UTC. */
export function isoSecond(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

function ratio(tally: Tally): string {
  return `${tally.captured}/${tally.seen}`;
}

function missingLine(item: MissingItem): string {
  const at = isoSecond(item.atMs);
  switch (item.kind) {
    case "prompt":
      return `missing prompt at ${at}`;
    case "turn":
      return `missing turn end (Stop) at ${at}`;
    case "tool":
      return `missing tool call ${printable(item.toolUseId, 80)} (${
        printable(item.toolName, 80)
      }, ${item.outcome}) at ${at}`;
  }
}

/** The lines for one session. */
export function sessionLines(report: SessionReport, projectsDir: string): string[] {
  const where = report.cwd === undefined ? "" : `  ${printable(report.cwd)}`;
  const head = `session ${printable(report.sessionId, 130)}${where}`;
  if ("noTranscript" in report) {
    return [
      `${head}`,
      `  no transcript under ${
        printable(projectsDir)
      }: not compared (Claude Code deletes transcripts after 30 days by default)`,
    ];
  }
  const c = report.coverage;
  const tools: Tally = {
    captured: c.toolSuccesses.captured + c.toolFailures.captured,
    seen: c.toolSuccesses.seen + c.toolFailures.seen,
  };
  const lines = [head];
  if (!report.inStore) lines.push("  the store holds no row of this session");
  lines.push(`  prompts     ${ratio(c.prompts)}`);
  lines.push(
    `  tool calls  ${ratio(tools)} (success ${ratio(c.toolSuccesses)}, error ${
      ratio(c.toolFailures)
    })`,
  );
  const withoutStop = c.turnsWithoutStop === 0
    ? ""
    : ` (and ${c.turnsWithoutStop} that ended without Stop: API error, interrupted or killed)`;
  lines.push(`  turns       ${ratio(c.turns)}${withoutStop}`);
  if (c.unreadableLines > 0) {
    lines.push(`  ${c.unreadableLines} transcript line(s) were not JSON and were skipped`);
  }
  for (const item of c.missing) lines.push(`  ${missingLine(item)}`);
  return lines;
}

/** The closing line over every compared session. */
export function totalLine(reports: readonly SessionReport[]): string {
  let captured = 0;
  let seen = 0;
  let compared = 0;
  let missing = 0;
  for (const report of reports) {
    if ("noTranscript" in report) continue;
    compared++;
    const c = report.coverage;
    for (const tally of [c.prompts, c.toolSuccesses, c.toolFailures, c.turns]) {
      captured += tally.captured;
      seen += tally.seen;
    }
    missing += c.missing.length;
  }
  const sessions = `${compared} session${compared === 1 ? "" : "s"} compared`;
  const percent = seen === 0 ? "" : ` (${formatPercent(captured, seen)})`;
  const verdict = missing === 0 ? "nothing missing" : `${missing} missing`;
  return `coverage: ${sessions}, ${captured}/${seen} captured${percent}, ${verdict}`;
}

function formatPercent(captured: number, seen: number): string {
  const percent = (captured / seen) * 100;
  // Never round a gap up to 100 %.
  const shown = captured < seen ? Math.min(Math.floor(percent * 10) / 10, 99.9) : 100;
  return `${shown} %`;
}
