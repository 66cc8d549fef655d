/**
 * A stored row as the timeline shows it: the same view model is rendered to
 * HTML by the server and, for rows that arrive while the page is open, sent as
 * JSON for the page's script to build with `textContent`. Its text fields are
 * already {@linkcode visible} (no invisible or direction-changing characters)
 * but not escaped: each renderer escapes for its own medium.
 *
 * @module
 */

import { ROW_KINDS } from "../lib/kinds.ts";
import type { ViewRow } from "./_queries.ts";
import { clip, visible } from "./_text.ts";

/** How much of a text field the timeline shows; the row page shows all. */
export const TIMELINE_TEXT_MAX = 2000;

/** One timeline entry. */
export interface RowView {
  /** Position in the chain. */
  seq: number;
  /** The row's hash. */
  hash: string;
  /** The stored kind. */
  kind: string;
  /** A short word for the kind (`prompt`, `tool`, `turn end`, …; unknown kinds by name). */
  label: string;
  /** Local time of capture, `HH:MM:SS.mmm`. */
  time: string;
  /** Time since the session's first row, as people say it (`+3.2 s`). */
  offset: string;
  /** What the row is about in a few words (tool name, outcome, counts). */
  title: string;
  /** The row's text: a prompt, an assistant message, an error line, or an unknown kind's payload. */
  text: string;
  /** Whether {@linkcode text} was cut to {@linkcode TIMELINE_TEXT_MAX}. */
  clipped: boolean;
  /** A tool use's outcome (`success`, `error`). */
  outcome?: string;
  /** A tool use's duration in ms, when Claude Code sent one. */
  durationMs?: number;
  /** That duration as people say it. */
  duration?: string;
  /** What the tool worked on (a file, a command), when captured. */
  subject?: string;
  /** The trace id. */
  traceId: string;
}

/** The view of `row`, timed from the session's first row at `sessionStartMs`. */
export function rowView(row: ViewRow, sessionStartMs: number): RowView {
  const p = row.payload;
  const base = {
    seq: row.seq,
    hash: row.hash,
    kind: row.kind,
    time: clockTime(row.capturedMs),
    offset: `+${humanDuration(Math.max(0, row.capturedMs - sessionStartMs))}`,
    traceId: visible(String(p.trace_id ?? "")),
  };
  const text = (value: unknown) => {
    const cut = clip(typeof value === "string" ? value : "", { max: TIMELINE_TEXT_MAX });
    return { text: visible(cut.text), clipped: cut.clipped };
  };
  const subject = typeof p.subject === "string" ? { subject: text(p.subject).text } : {};
  switch (row.kind) {
    case ROW_KINDS.prompt: {
      const source = typeof p.prompt_source === "string" ? ` (${p.prompt_source})` : "";
      const redactions = Number(p.redaction_match_count ?? 0);
      return {
        ...base,
        label: "prompt",
        title: visible(
          `prompt${source}${redactions > 0 ? `, ${redactions} redacted` : ""}`,
        ),
        ...text(p.prompt_redacted),
        ...subject,
      };
    }
    case ROW_KINDS.toolUse: {
      const duration = typeof p.duration_ms === "number" && Number.isFinite(p.duration_ms)
        ? { durationMs: p.duration_ms, duration: humanDuration(p.duration_ms) }
        : {};
      return {
        ...base,
        label: "tool",
        title: visible(String(p.tool_name ?? "?")),
        outcome: visible(String(p.outcome ?? "?")),
        ...duration,
        ...text(p.error),
        ...subject,
      };
    }
    case ROW_KINDS.sessionCompleted:
      return {
        ...base,
        label: "turn end",
        title: `turn end: ${Number(p.prompt_count)} prompts, ${
          Number(p.tool_use_count)
        } tool uses so far`,
        ...text(p.last_assistant_message_redacted),
        ...subject,
      };
    case ROW_KINDS.redactionFailed:
      return {
        ...base,
        label: "redaction failed",
        title: "redaction failed: nothing of this event was stored",
        ...text(p.error),
      };
    default: {
      // A kind newer than this view (lifecycle events, say): its payload as it is.
      const label = row.kind.replace(/^memory\.claude_/, "");
      return {
        ...base,
        label: visible(label),
        title: visible(label),
        ...text(JSON.stringify(p)),
        ...subject,
      };
    }
  }
}

/** `ms` since the epoch as local `HH:MM:SS.mmm`. */
export function clockTime(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${
    String(d.getMilliseconds()).padStart(3, "0")
  }`;
}

/** `ms` since the epoch as local `YYYY-MM-DD HH:MM`. */
export function dateTime(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${
    two(d.getMinutes())
  }`;
}

/** A duration in ms as people say it (`850 ms`, `3.2 s`, `4 min 05 s`, `2 h 10 min`). */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) {
    return `${Math.floor(ms / 60_000)} min ${
      String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")
    } s`;
  }
  return `${Math.floor(ms / 3_600_000)} h ${Math.floor((ms % 3_600_000) / 60_000)} min`;
}
