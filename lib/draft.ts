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
import { lifecycleSpec, MAX_LABEL_LENGTH, storedFieldName } from "./lifecycle.ts";
import { boundSubject, type ToolDetail, toolSubject } from "./subject.ts";
import { redactLines, type RedactOptions, redactText, redactValue } from "./redact/mod.ts";

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

/** Options for {@linkcode buildDraft}: the redactor's, and how much of a tool call to keep. */
export interface DraftOptions extends RedactOptions {
  /**
   * `subject`: tool and permission rows also carry a short redacted subject
   * (`lib/subject.ts`); `hash`: only the argument hash.
   *
   * @default {"hash"}
   */
  toolDetail?: ToolDetail;
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
  options: DraftOptions = {},
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

/** A short field to redact: its text, and the separator between its parts when it has any. */
type ShortField = string | { text: string; parts: string };

/**
 * Redacts the short free-text fields every row carries (`cwd` may name a
 * cloud folder after an e-mail address, `tool_name` an MCP server's token),
 * summing what redaction did into one tally. Made by {@linkcode fieldRedactor}:
 * functions, not a class's methods, which V8 would compile at their first
 * call in each hook run rather than ahead, from Deno's code cache.
 */
interface FieldRedactor {
  /** Redacts one long text (a prompt, a message) and tallies it. */
  text(text: string): string;
  /**
   * Redacts a text made from fields already tallied (a tool's subject comes
   * from its input) without tallying it: each secret counts once in the
   * metric, however many stored fields show it.
   */
  retold(text: string): string;
  /**
   * Redacts short fields in one pass ({@linkcode redactLines}). A field with
   * `parts` has each part (between separators) redacted as its own line: a
   * rule that wants a word boundary, or reads a `/` before an address as a
   * URL, would miss a secret glued into a path or a name
   * (`/GoogleDrive-ana@mail.vn/`, `mcp__srv__<token>`).
   */
  short<K extends string>(fields: Record<K, ShortField | undefined>): Partial<Record<K, string>>;
  /**
   * Redacts a tool's input ({@linkcode redactValue}) and short fields, as
   * {@linkcode FieldRedactor.short} does, in the same pass as the input's
   * keys and short strings: each pass costs the hook's cold process 0.15 ms
   * or more.
   */
  value<K extends string>(
    value: unknown,
    fields: Record<K, ShortField | undefined>,
  ): { value: unknown; short: Partial<Record<K, string>> };
  /** The summed tally, as a {@linkcode Draft} carries it. */
  tally(): { matchCount: number; counts: Record<string, number> };
}

function fieldRedactor(options: RedactOptions): FieldRedactor {
  let matchCount = 0;
  const counts: Record<string, number> = {};
  const add = (result: { matchCount: number; counts: Record<string, number> }) => {
    matchCount += result.matchCount;
    for (const [id, n] of Object.entries(result.counts)) counts[id] = (counts[id] ?? 0) + n;
  };
  return {
    text: (text) => {
      const result = redactText(text, options);
      add(result);
      return result.text;
    },
    retold: (text) => redactText(text, options).text,
    short: <K extends string>(fields: Record<K, ShortField | undefined>) => {
      const lines = shortLines(fields);
      const result = redactLines(lines.texts, options);
      add(result);
      return lines.join(result.texts);
    },
    value: <K extends string>(value: unknown, fields: Record<K, ShortField | undefined>) => {
      const lines = shortLines(fields);
      const result = redactValue(value, { ...options, alongside: lines.texts });
      add(result);
      return { value: result.value, short: lines.join(result.alongside) };
    },
    tally: () => ({ matchCount, counts }),
  };
}

/**
 * Short fields as lines to redact (a field with `parts`, a line per part),
 * and how to put the redacted lines back into fields.
 */
function shortLines<K extends string>(
  fields: Record<K, ShortField | undefined>,
): { texts: string[]; join(redacted: readonly string[]): Partial<Record<K, string>> } {
  const texts: string[] = [];
  const layout: Array<[name: K, separator: string | undefined, count: number]> = [];
  for (const [name, field] of Object.entries(fields) as Array<[K, ShortField | undefined]>) {
    if (field === undefined) continue;
    const pieces = typeof field === "string" ? [field] : field.text.split(field.parts);
    layout.push([name, typeof field === "string" ? undefined : field.parts, pieces.length]);
    texts.push(...pieces);
  }
  return {
    texts,
    join: (redacted) => {
      const out: Partial<Record<K, string>> = {};
      let at = 0;
      for (const [name, separator, count] of layout) {
        out[name] = redacted.slice(at, at + count).join(separator ?? "");
        at += count;
      }
      return out;
    },
  };
}

/** Copies the fields that were sent into `out`, leaving out the others. */
function copyPresent(
  out: Record<string, unknown>,
  fields: Record<string, string | undefined>,
): void {
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) out[name] = value;
}

function promptDraft(payload: PromptPayload, context: DraftContext, options: RedactOptions): Draft {
  const fields = fieldRedactor(options);
  const prompt = fields.text(payload.prompt);
  const short = fields.short({
    cwd: { text: payload.cwd, parts: "/" },
    prompt_id: payload.prompt_id,
  });
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    prompt_redacted: prompt,
    cwd: short.cwd,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    redaction_match_count: fields.tally().matchCount,
  };
  copyPresent(out, { prompt_id: short.prompt_id });
  if (isTaskNotification(payload.prompt)) out.prompt_source = TASK_NOTIFICATION_SOURCE;
  return { kind: ROW_KINDS.prompt, payload: out, ...fields.tally() };
}

/** The redacted, bounded subject of a tool call, when asked for and the tool has one. */
function subjectOf(
  fields: FieldRedactor,
  tool: { name: string; input: Readonly<Record<string, unknown>>; cwd: string },
  options: DraftOptions,
): string | undefined {
  if (options.toolDetail !== "subject") return undefined;
  const subject = toolSubject(tool.name, tool.input, tool.cwd);
  return subject === undefined ? undefined : boundSubject(fields.retold(subject));
}

function toolDraft(payload: ToolPayload, context: DraftContext, options: DraftOptions): Draft {
  const fields = fieldRedactor(options);
  const { value: args, short } = fields.value(payload.tool_input, {
    tool_name: { text: payload.tool_name, parts: "__" },
    cwd: { text: payload.cwd, parts: "/" },
    tool_use_id: payload.tool_use_id,
    agent_id: payload.agent_id,
    agent_type: payload.agent_type,
    error: payload.error?.split("\n", 1)[0],
  });
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    tool_name: short.tool_name,
    tool_args_redacted: args,
    outcome: payload.hook_event_name === "PostToolUse" ? "success" : "error",
    duration_ms: payload.duration_ms ?? null,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    cwd: short.cwd,
  };
  copyPresent(out, {
    tool_use_id: short.tool_use_id,
    agent_id: short.agent_id,
    agent_type: short.agent_type,
    error: short.error,
    subject: subjectOf(
      fields,
      { name: payload.tool_name, input: payload.tool_input, cwd: payload.cwd },
      options,
    ),
  });
  return { kind: ROW_KINDS.toolUse, payload: out, ...fields.tally() };
}

function stopDraft(payload: StopPayload, context: DraftContext, options: RedactOptions): Draft {
  const fields = fieldRedactor(options);
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    last_assistant_message_redacted: payload.last_assistant_message === undefined
      ? null
      : fields.text(payload.last_assistant_message),
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
    cwd: fields.short({ cwd: { text: payload.cwd, parts: "/" } }).cwd,
  };
  if (payload.stop_hook_active !== undefined) out.stop_hook_active = payload.stop_hook_active;
  return { kind: ROW_KINDS.sessionCompleted, payload: out, ...fields.tally() };
}

function lifecycleDraft(
  payload: LifecyclePayload,
  context: DraftContext,
  options: DraftOptions,
): Draft {
  const spec = lifecycleSpec(payload.hook_event_name)!;
  const values = payload.lifecycle;
  const fields = fieldRedactor(options);
  const out: Record<string, unknown> = {
    session_id: payload.session_id,
    trace_id: context.traceId,
    captured_at_ns: context.capturedAtNs,
  };
  const short: Record<string, ShortField | undefined> = {
    tool_name: values.toolName === undefined ? undefined : { text: values.toolName, parts: "__" },
    cwd: { text: payload.cwd, parts: "/" },
    prompt_id: payload.prompt_id,
    tool_use_id: values.toolUseId,
    agent_id: payload.agent_id,
    agent_type: payload.agent_type,
  };
  for (const [name, type] of Object.entries(spec.fields)) {
    const value = values.fields[name];
    if (value === undefined) continue;
    if (type === "text") out[storedFieldName(name, type)] = fields.text(value);
    else short[name] = type === "path" ? { text: value, parts: "/" } : value;
  }
  let redacted: Partial<Record<string, string>>;
  if (values.toolName === undefined) redacted = fields.short(short);
  else {
    const input = values.toolInput ?? {};
    const tool = fields.value(input, short);
    out.tool_args_redacted = tool.value;
    redacted = tool.short;
    const subject = subjectOf(fields, { name: values.toolName, input, cwd: payload.cwd }, options);
    if (subject !== undefined) out.subject = subject;
  }
  for (const [name, value] of Object.entries(redacted)) {
    if (value === undefined) continue;
    out[name] = spec.fields[name] === "label"
      ? [...value].slice(0, MAX_LABEL_LENGTH).join("")
      : value;
  }
  return { kind: spec.kind, payload: out, ...fields.tally() };
}
