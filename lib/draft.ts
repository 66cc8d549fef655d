/**
 * Row drafts: what the hook builds from one payload and sends in its frame.
 * Everything here is already redacted; the daemon hashes it and completes the
 * row (see `rows.ts`), so the hook needs no hashing library on its hot path.
 *
 * @module
 */

import { ROW_KINDS, type RowKind, TASK_NOTIFICATION_SOURCE } from "./kinds.ts";
import type { HookPayload, PromptPayload, StopPayload, ToolPayload } from "./payload.ts";
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

/**
 * Redacts the short free-text fields every row carries (`cwd` may name a
 * cloud folder after an e-mail address, `tool_name` an MCP server's token),
 * summing what redaction did into one tally.
 */
class FieldRedactor {
  /** Replaced spans so far. */
  matchCount = 0;
  /** Replaced spans per rule id so far. */
  counts: Record<string, number> = {};
  readonly #options: RedactOptions;

  constructor(options: RedactOptions) {
    this.#options = options;
  }

  /** Redacts one field's text and tallies it. */
  text(text: string): string {
    const result = redactText(text, this.#options);
    this.add(result);
    return result.text;
  }

  /** Adds what another redaction pass did. */
  add(result: { matchCount: number; counts: Record<string, number> }): void {
    this.matchCount += result.matchCount;
    for (const [id, n] of Object.entries(result.counts)) {
      this.counts[id] = (this.counts[id] ?? 0) + n;
    }
  }

  /**
   * Redacts each part of a field between separators on its own, and tallies:
   * a rule that wants a word boundary misses a secret glued to a path or a
   * name (`/GoogleDrive-ana@mail.vn/`, `mcp__srv__<token>`).
   */
  parts(text: string, separator: string): string {
    if (!text.includes(separator)) return this.text(text);
    return text.split(separator).map((part) => part === "" ? part : this.text(part)).join(
      separator,
    );
  }

  /** The summed tally, as a {@linkcode Draft} carries it. */
  tally(): { matchCount: number; counts: Record<string, number> } {
    return { matchCount: this.matchCount, counts: this.counts };
  }
}

function promptDraft(payload: PromptPayload, context: DraftContext, options: RedactOptions): Draft {
  const fields = new FieldRedactor(options);
  const prompt = fields.text(payload.prompt);
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    prompt_redacted: prompt,
    cwd: fields.parts(payload.cwd, "/"),
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    redaction_match_count: 0,
  };
  if (payload.prompt_id !== undefined) out.prompt_id = fields.text(payload.prompt_id);
  if (isTaskNotification(payload.prompt)) out.prompt_source = TASK_NOTIFICATION_SOURCE;
  out.redaction_match_count = fields.matchCount;
  return { kind: ROW_KINDS.prompt, payload: out, ...fields.tally() };
}

function toolDraft(payload: ToolPayload, context: DraftContext, options: RedactOptions): Draft {
  const fields = new FieldRedactor(options);
  const args = redactValue(payload.tool_input, options);
  fields.add(args);
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    tool_name: fields.parts(payload.tool_name, "__"),
    tool_args_redacted: args.value,
    outcome: payload.hook_event_name === "PostToolUse" ? "success" : "error",
    duration_ms: payload.duration_ms ?? null,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    cwd: fields.parts(payload.cwd, "/"),
  };
  if (payload.tool_use_id !== undefined) out.tool_use_id = fields.text(payload.tool_use_id);
  if (payload.agent_id !== undefined) out.agent_id = fields.text(payload.agent_id);
  if (payload.agent_type !== undefined) out.agent_type = fields.text(payload.agent_type);
  if (payload.error !== undefined) out.error = fields.text(payload.error.split("\n", 1)[0] ?? "");
  return { kind: ROW_KINDS.toolUse, payload: out, ...fields.tally() };
}

function stopDraft(payload: StopPayload, context: DraftContext, options: RedactOptions): Draft {
  const fields = new FieldRedactor(options);
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    last_assistant_message_redacted: payload.last_assistant_message === undefined
      ? null
      : fields.text(payload.last_assistant_message),
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    cwd: fields.parts(payload.cwd, "/"),
  };
  if (payload.stop_hook_active !== undefined) out.stop_hook_active = payload.stop_hook_active;
  return { kind: ROW_KINDS.sessionCompleted, payload: out, ...fields.tally() };
}
