/**
 * Stored rows: the payload of each kind with its fields in the order of
 * DESIGN.md, completed by the daemon from the hook's draft. Here the hashes
 * are taken (of data the hook already redacted) and the redacted tool
 * arguments are dropped, so the store never keeps them.
 *
 * @module
 */

import type { Frame } from "./frame.ts";
import { ROW_KINDS, type RowKind } from "./kinds.ts";
import { blake3Hex, canonicalJson } from "./hash.ts";
import { LIFECYCLE_EVENTS, lifecycleRowFields } from "./lifecycle.ts";

/** One row as the store holds it and `tail --json` shows it. */
export interface StoredRow {
  /** Position in the chain, from 1. */
  seq: number;
  /** The row kind. */
  kind: RowKind;
  /** The payload, fields in DESIGN.md order. */
  payload: Record<string, unknown>;
  /** The previous row's hash (64 zeros for the first). */
  prev_hash: string;
  /** BLAKE3 of `prev_hash` and this row's canonical bytes. */
  hash: string;
}

/** What the daemon knows about a session when a Stop row arrives. */
export interface SessionCounts {
  /** Prompts typed by a person (task notifications left out). */
  promptCount: number;
  /** Tool uses, successes and failures. */
  toolUseCount: number;
  /** The session's first row, ns since the epoch; `undefined` when none yet. */
  firstCapturedAtNs: number | undefined;
}

/** The payload field order of each kind (optional fields last). */
export const PAYLOAD_FIELDS: Record<RowKind, readonly string[]> = {
  [ROW_KINDS.prompt]: [
    "session_id",
    "prompt_hash",
    "prompt_redacted",
    "cwd",
    "trace_id",
    "captured_at_ns",
    "redaction_match_count",
    "prompt_id",
    "prompt_source",
  ],
  [ROW_KINDS.toolUse]: [
    "session_id",
    "tool_name",
    "tool_args_hash",
    "outcome",
    "duration_ms",
    "trace_id",
    "captured_at_ns",
    "cwd",
    "tool_use_id",
    "agent_id",
    "agent_type",
    "error",
    "subject",
  ],
  [ROW_KINDS.sessionCompleted]: [
    "session_id",
    "prompt_count",
    "tool_use_count",
    "duration_ms",
    "last_assistant_message_redacted",
    "trace_id",
    "captured_at_ns",
    "cwd",
    "stop_hook_active",
  ],
  [ROW_KINDS.redactionFailed]: ["session_id", "error", "trace_id", "captured_at_ns"],
  ...Object.fromEntries(
    Object.values(LIFECYCLE_EVENTS).map((spec) => [spec.kind, lifecycleRowFields(spec)]),
  ),
} as unknown as Record<RowKind, readonly string[]>;

/** Row kinds that name a tool call, whose redacted arguments the daemon hashes and drops. */
const TOOL_KINDS: ReadonlySet<RowKind> = new Set([
  ROW_KINDS.toolUse,
  ...Object.values(LIFECYCLE_EVENTS).filter((spec) => spec.tool).map((spec) => spec.kind),
]);

/** Row kinds that carry the session's counts so far (Stop, and the session's end). */
export const COUNTED_KINDS: ReadonlySet<RowKind> = new Set([
  ROW_KINDS.sessionCompleted,
  ...Object.values(LIFECYCLE_EVENTS).filter((spec) => spec.totals).map((spec) => spec.kind),
]);

/**
 * Completes a frame's draft into the stored payload: hashes, Stop counts,
 * field order. Fields of the draft that the kind does not list are dropped.
 *
 * @throws {TypeError} when a field the kind needs is missing from the draft.
 */
export function completePayload(
  frame: Frame,
  session: SessionCounts,
): Record<string, unknown> {
  const draft = { ...frame.payload };
  if (frame.kind === ROW_KINDS.prompt) {
    if (typeof draft.prompt_redacted !== "string") {
      throw new TypeError("Cannot complete row: prompt_redacted is not a string");
    }
    draft.prompt_hash = blake3Hex(draft.prompt_redacted);
  }
  if (TOOL_KINDS.has(frame.kind)) {
    if (!("tool_args_redacted" in draft)) {
      throw new TypeError("Cannot complete row: tool_args_redacted is missing");
    }
    draft.tool_args_hash = blake3Hex(canonicalJson(draft.tool_args_redacted));
  }
  if (COUNTED_KINDS.has(frame.kind)) {
    const capturedAtNs = Number(draft.captured_at_ns);
    draft.prompt_count = session.promptCount;
    draft.tool_use_count = session.toolUseCount;
    draft.duration_ms = session.firstCapturedAtNs === undefined
      ? 0
      : Math.max(0, Math.round((capturedAtNs - session.firstCapturedAtNs) / 1e6));
  }
  const out: Record<string, unknown> = {};
  for (const field of PAYLOAD_FIELDS[frame.kind]) {
    if (field in draft) out[field] = draft[field];
  }
  for (const field of ["session_id", "trace_id", "captured_at_ns"]) {
    if (!(field in out)) throw new TypeError(`Cannot complete row: ${field} is missing`);
  }
  return out;
}
