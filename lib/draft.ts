/**
 * Row drafts: what the hook builds from one payload and sends in its frame.
 * Everything here is already redacted; the daemon hashes it and completes the
 * row (see `rows.ts`), so the hook needs no hashing library on its hot path.
 *
 * @module
 */

import { ROW_KINDS, type RowKind, TASK_NOTIFICATION_SOURCE } from "./kinds.ts";
import type {
  HookPayload,
  LifecyclePayload,
  PromptPayload,
  StopPayload,
  ToolPayload,
} from "./payload.ts";
import { lifecycleDraftFields, lifecycleSpec } from "./lifecycle.ts";
import { type RedactOptions, redactText, redactValue } from "./redact/mod.ts";

/** The per-run facts a draft needs besides the payload. */
export interface DraftContext {
  /** The session's 32-hex trace id. */
  traceId: string;
  /** When the hook captured the payload, ns since the epoch. */
  capturedAtNs: number;
}

/** A drafted row: its kind, its frame payload and what redaction did. */
export interface Draft {
  /** The row kind. */
  kind: RowKind;
  /** The frame payload. */
  payload: Record<string, unknown>;
  /** Replaced spans over the whole payload. */
  matchCount: number;
  /** Replaced spans per rule id. */
  counts: Record<string, number>;
}

const TASK_NOTIFICATION = /^\s*<task-notification>[\s\S]*<\/task-notification>\s*$/;

/**
 * Whether a prompt is only a `<task-notification>` block: a background task
 * reporting back, not a person typing.
 */
export function isTaskNotification(prompt: string): boolean {
  // The substring test first: most prompts are not notifications, and then the pattern never compiles.
  return prompt.includes("<task-notification>") && TASK_NOTIFICATION.test(prompt) &&
    prompt.indexOf("<task-notification>") === prompt.lastIndexOf("<task-notification>");
}

/**
 * Builds the redacted draft of one payload.
 *
 * @throws whatever the redactor throws; the hook turns that into a
 * content-free {@linkcode redactionFailedDraft}.
 */
export function buildDraft(
  payload: HookPayload,
  context: DraftContext,
  options: RedactOptions = {},
): Draft {
  switch (payload.hook_event_name) {
    case "UserPromptSubmit":
      return promptDraft(payload, context, options);
    case "PostToolUse":
    case "PostToolUseFailure":
      return toolDraft(payload, context, options);
    case "Stop":
      return stopDraft(payload, context, options);
    default:
      return lifecycleDraft(payload, context, options);
  }
}

/** The draft sent when redaction failed: no content at all. */
export function redactionFailedDraft(
  sessionId: string,
  context: DraftContext,
  options: { error: unknown },
): Draft {
  const name = options.error instanceof Error ? options.error.name : typeof options.error;
  return {
    kind: ROW_KINDS.redactionFailed,
    payload: {
      session_id: sessionId,
      error: `redactor threw ${name}`,
      trace_id: context.traceId,
      captured_at_ns: context.capturedAtNs,
    },
    matchCount: 0,
    counts: {},
  };
}

function promptDraft(payload: PromptPayload, context: DraftContext, options: RedactOptions): Draft {
  const redacted = redactText(payload.prompt, options);
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    prompt_redacted: redacted.text,
    cwd: payload.cwd,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    redaction_match_count: redacted.matchCount,
  };
  if (payload.prompt_id !== undefined) out.prompt_id = payload.prompt_id;
  if (isTaskNotification(payload.prompt)) out.prompt_source = TASK_NOTIFICATION_SOURCE;
  return {
    kind: ROW_KINDS.prompt,
    payload: out,
    matchCount: redacted.matchCount,
    counts: redacted.counts,
  };
}

function toolDraft(payload: ToolPayload, context: DraftContext, options: RedactOptions): Draft {
  const args = redactValue(payload.tool_input, options);
  const counts = { ...args.counts };
  let matchCount = args.matchCount;
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    tool_name: payload.tool_name,
    tool_args_redacted: args.value,
    outcome: payload.hook_event_name === "PostToolUse" ? "success" : "error",
    duration_ms: payload.duration_ms ?? null,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    cwd: payload.cwd,
  };
  if (payload.tool_use_id !== undefined) out.tool_use_id = payload.tool_use_id;
  if (payload.agent_id !== undefined) out.agent_id = payload.agent_id;
  if (payload.agent_type !== undefined) out.agent_type = payload.agent_type;
  if (payload.error !== undefined) {
    const firstLine = redactText(payload.error.split("\n", 1)[0] ?? "", options);
    matchCount += firstLine.matchCount;
    for (const [id, n] of Object.entries(firstLine.counts)) counts[id] = (counts[id] ?? 0) + n;
    out.error = firstLine.text;
  }
  return { kind: ROW_KINDS.toolUse, payload: out, matchCount, counts };
}

function stopDraft(payload: StopPayload, context: DraftContext, options: RedactOptions): Draft {
  const message = payload.last_assistant_message === undefined
    ? undefined
    : redactText(payload.last_assistant_message, options);
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    last_assistant_message_redacted: message?.text ?? null,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    cwd: payload.cwd,
  };
  if (payload.stop_hook_active !== undefined) out.stop_hook_active = payload.stop_hook_active;
  return {
    kind: ROW_KINDS.sessionCompleted,
    payload: out,
    matchCount: message?.matchCount ?? 0,
    counts: message?.counts ?? {},
  };
}

function lifecycleDraft(
  payload: LifecyclePayload,
  context: DraftContext,
  options: RedactOptions,
): Draft {
  const spec = lifecycleSpec(payload.hook_event_name)!;
  const fields = lifecycleDraftFields(payload.lifecycle, spec, {
    ...options,
    common: {
      cwd: payload.cwd,
      prompt_id: payload.prompt_id,
      agent_id: payload.agent_id,
      agent_type: payload.agent_type,
    },
  });
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    ...fields.payload,
  };
  return { kind: spec.kind, payload: out, matchCount: fields.matchCount, counts: fields.counts };
}
