/**
 * Compares what a transcript records with what the store captured for the same session. Prompts
 * match by `prompt_id`, tool calls by `tool_use_id`; a turn counts as captured when a Stop row was
 * captured after its last assistant message and before the next turn's (Stop rows carry no turn
 * id, and the hook stamps `captured_at_ns` when Claude Code runs it, right after the turn ends).
 *
 * @module
 */

import type { CapturedEvents } from "./_store.ts";
import type { TranscriptRecord } from "./_transcript.ts";

/** Something the transcript records and the store does not hold. */
export type MissingItem =
  | { kind: "prompt"; atMs: number }
  | { kind: "tool"; atMs: number; toolUseId: string; toolName: string; outcome: string }
  | { kind: "turn"; atMs: number };

/** Captured and seen counts of one kind of event. */
export interface Tally {
  /** How many the store holds. */
  captured: number;
  /** How many the transcript records. */
  seen: number;
}

/** One session's coverage. */
export interface SessionCoverage {
  /** Prompts. */
  prompts: Tally;
  /** Tool calls that succeeded. */
  toolSuccesses: Tally;
  /** Tool calls that failed. */
  toolFailures: Tally;
  /** Turns that fired Stop. */
  turns: Tally;
  /** Turns that ended without Stop (API error, interrupted, killed): not expected in the store. */
  turnsWithoutStop: number;
  /** What is missing, in time order. */
  missing: MissingItem[];
  /** Transcript lines that were not JSON (a crash can cut the last one short): skipped. */
  unreadableLines: number;
}

/** Options for {@linkcode compareSession}. */
export interface CompareOptions {
  /**
   * Only events at or after this time (ms since the epoch) count.
   * @default undefined
   */
  sinceMs?: number;
}

/** Compares one session's transcript record with its captured events. */
export function compareSession(
  record: TranscriptRecord,
  captured: CapturedEvents,
  options: CompareOptions = {},
): SessionCoverage {
  const since = options.sinceMs ?? -Infinity;
  const missing: MissingItem[] = [];
  const prompts: Tally = { captured: 0, seen: 0 };
  for (const prompt of record.prompts) {
    if (prompt.atMs < since) continue;
    prompts.seen++;
    if (captured.promptIds.has(prompt.promptId)) prompts.captured++;
    else missing.push({ kind: "prompt", atMs: prompt.atMs });
  }
  const toolSuccesses: Tally = { captured: 0, seen: 0 };
  const toolFailures: Tally = { captured: 0, seen: 0 };
  for (const call of record.toolCalls) {
    if (call.atMs < since) continue;
    const tally = call.outcome === "error" ? toolFailures : toolSuccesses;
    tally.seen++;
    if (captured.toolCalls.has(call.toolUseId)) tally.captured++;
    else {
      missing.push({
        kind: "tool",
        atMs: call.atMs,
        toolUseId: call.toolUseId,
        toolName: call.toolName,
        outcome: call.outcome,
      });
    }
  }
  const stopped = turnsWithStop(record, captured.stopsMs);
  const turns: Tally = { captured: 0, seen: 0 };
  let turnsWithoutStop = 0;
  record.turns.forEach((turn, index) => {
    if (turn.endMs < since) return;
    if (!turn.firesStop) {
      turnsWithoutStop++;
      return;
    }
    turns.seen++;
    if (stopped.has(index)) turns.captured++;
    else missing.push({ kind: "turn", atMs: turn.endMs });
  });
  missing.sort((a, b) => a.atMs - b.atMs);
  return {
    prompts,
    toolSuccesses,
    toolFailures,
    turns,
    turnsWithoutStop,
    missing,
    unreadableLines: record.unreadableLines,
  };
}

/**
 * The indexes of the turns a Stop row belongs to: each Stop goes to the last turn that ended at or
 * before it was captured. A Stop that falls after a turn which fires none (an API error, say)
 * proves nothing about the turn before, so it is dropped rather than credited there.
 */
function turnsWithStop(record: TranscriptRecord, stopsMs: readonly number[]): Set<number> {
  const order = record.turns.map((turn, index) => ({ endMs: turn.endMs, index }))
    .sort((a, b) => a.endMs - b.endMs);
  const stopped = new Set<number>();
  for (const stopMs of stopsMs) {
    let owner: number | undefined;
    for (const turn of order) {
      if (turn.endMs > stopMs) break;
      owner = turn.index;
    }
    if (owner !== undefined && record.turns[owner]!.firesStop) stopped.add(owner);
  }
  return stopped;
}
