/**
 * The session around the turns: Claude Code's lifecycle and security events
 * (session start and end, subagents, compaction, failed turns, permission
 * requests and denials, settings changes, instructions loaded, `cd`), as
 * data. Each event names its row kind and its fields with their type; one
 * parser, one draft builder and one row layout read this table, so adding an
 * event is one entry here and one line in `kinds.ts`.
 *
 * Every string that reaches a row is redacted, labels included (a label is
 * Claude Code's own word, but nothing proves a future version keeps it so).
 *
 * @module
 */

import { type ClaudeHookEvent, ROW_KINDS, type RowKind } from "./kinds.ts";

/**
 * How a field is kept. `label`: a short word of Claude Code's (`startup`,
 * `manual`), redacted and cut at {@linkcode MAX_LABEL_LENGTH}; `text`: free
 * text, redacted, stored under `<name>_redacted`; `path`: a file or folder,
 * redacted.
 */
export type LifecycleFieldType = "label" | "text" | "path";

/** One lifecycle event's row. */
export interface LifecycleSpec {
  /** The row kind it becomes. */
  kind: RowKind;
  /** The payload fields kept, by Claude Code's name. */
  fields: Readonly<Record<string, LifecycleFieldType>>;
  /** Whether it names a tool call (`tool_name`, `tool_input` hashed, `tool_use_id`). */
  tool: boolean;
  /** Fields Claude Code sends that are left out on purpose (not reported as unknown). */
  ignored: readonly string[];
  /**
   * Whether the daemon adds the session's totals so far (`prompt_count`,
   * `tool_use_count`, `duration_ms`), as it does for Stop rows.
   */
  totals?: true;
}

/** The longest label kept; a longer one is cut (labels are words, not text). */
export const MAX_LABEL_LENGTH = 64;

/** The lifecycle events, by Claude Code's name. */
export const LIFECYCLE_EVENTS: Readonly<Record<string, LifecycleSpec>> = {
  SessionStart: {
    kind: ROW_KINDS.sessionStarted,
    fields: { source: "label", model: "label" },
    tool: false,
    ignored: [
      "seconds_since_last_response",
      "context_tokens",
      "prompt_cache_likely_expired",
      "estimated_cache_write_usd",
    ],
  },
  SessionEnd: {
    kind: ROW_KINDS.sessionEnded,
    fields: { reason: "label" },
    tool: false,
    ignored: [],
    totals: true,
  },
  SubagentStart: {
    kind: ROW_KINDS.subagentStarted,
    fields: {},
    tool: false,
    ignored: [],
  },
  SubagentStop: {
    kind: ROW_KINDS.subagentStopped,
    fields: { last_assistant_message: "text" },
    tool: false,
    ignored: ["stop_hook_active", "agent_transcript_path", "background_tasks", "session_crons"],
  },
  PreCompact: {
    kind: ROW_KINDS.compactStarted,
    fields: { trigger: "label", custom_instructions: "text" },
    tool: false,
    ignored: [],
  },
  PostCompact: {
    kind: ROW_KINDS.compactCompleted,
    fields: { trigger: "label", compact_summary: "text" },
    tool: false,
    ignored: [],
  },
  StopFailure: {
    kind: ROW_KINDS.turnFailed,
    fields: { error: "label", error_details: "text", last_assistant_message: "text" },
    tool: false,
    ignored: [],
  },
  PermissionRequest: {
    kind: ROW_KINDS.permissionRequested,
    fields: { permission_mode: "label" },
    tool: true,
    ignored: ["permission_suggestions"],
  },
  PermissionDenied: {
    kind: ROW_KINDS.permissionDenied,
    fields: { permission_mode: "label", reason: "text" },
    tool: true,
    ignored: [],
  },
  ConfigChange: {
    kind: ROW_KINDS.configChanged,
    fields: { source: "label", file_path: "path" },
    tool: false,
    ignored: [],
  },
  InstructionsLoaded: {
    kind: ROW_KINDS.instructionsLoaded,
    fields: {
      file_path: "path",
      memory_type: "label",
      load_reason: "label",
      trigger_file_path: "path",
      parent_file_path: "path",
    },
    tool: false,
    ignored: ["globs"],
  },
  CwdChanged: {
    kind: ROW_KINDS.cwdChanged,
    fields: { old_cwd: "path", new_cwd: "path" },
    tool: false,
    ignored: [],
  },
};

/** The spec of a lifecycle event. */
export function lifecycleSpec(event: ClaudeHookEvent | string): LifecycleSpec | undefined {
  return Object.hasOwn(LIFECYCLE_EVENTS, event) ? LIFECYCLE_EVENTS[event] : undefined;
}

/** The name a field is stored under: free text carries `_redacted`, as prompts do. */
export function storedFieldName(name: string, type: LifecycleFieldType): string {
  return type === "text" ? `${name}_redacted` : name;
}

/** The payload keys of a lifecycle row kind, in order (for `rows.ts`). */
export function lifecycleRowFields(spec: LifecycleSpec): string[] {
  return [
    "session_id",
    ...(spec.tool ? ["tool_name", "tool_args_hash"] : []),
    ...Object.entries(spec.fields).map(([name, type]) => storedFieldName(name, type)),
    ...(spec.totals ? ["prompt_count", "tool_use_count", "duration_ms"] : []),
    "trace_id",
    "captured_at_ns",
    "cwd",
    "prompt_id",
    "tool_use_id",
    "agent_id",
    "agent_type",
    "subject",
  ];
}

/** A lifecycle payload as parsed: the raw values of the spec's fields, unredacted. */
export interface LifecycleValues {
  /** The spec's fields that Claude Code sent as strings. */
  fields: Record<string, string>;
  /** The tool's name, for tool events. */
  toolName?: string;
  /** The tool's arguments, for tool events. */
  toolInput?: Record<string, unknown>;
  /** `toolu_…`, when sent. */
  toolUseId?: string;
}

/**
 * Reads a lifecycle event's fields. Lenient on purpose: a field of the
 * wrong type is left out rather than losing the row, since these events are
 * newer and less settled than the four the product started with; only a tool
 * event without `tool_name` or with a non-object `tool_input` is refused.
 *
 * @throws {TypeError} for a tool event without its tool.
 */
export function parseLifecycleValues(
  value: Record<string, unknown>,
  spec: LifecycleSpec,
): LifecycleValues {
  const fields: Record<string, string> = {};
  for (const name of Object.keys(spec.fields)) {
    if (typeof value[name] === "string") fields[name] = value[name] as string;
  }
  const out: LifecycleValues = { fields };
  if (typeof value.tool_use_id === "string") out.toolUseId = value.tool_use_id;
  if (!spec.tool) return out;
  if (typeof value.tool_name !== "string") {
    throw new TypeError("Invalid payload: tool_name is not a string");
  }
  const input = value.tool_input ?? {};
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new TypeError("Invalid payload: tool_input is not an object");
  }
  out.toolName = value.tool_name;
  out.toolInput = input as Record<string, unknown>;
  return out;
}

/** The keys a lifecycle event may carry besides the common ones. */
export function lifecycleKnownKeys(spec: LifecycleSpec): string[] {
  return [
    ...Object.keys(spec.fields),
    ...spec.ignored,
    ...(spec.tool ? ["tool_name", "tool_input"] : []),
    "tool_use_id",
  ];
}

/** The lifecycle spec whose row kind is `kind`. */
export function lifecycleSpecOfKind(kind: string): LifecycleSpec | undefined {
  return Object.values(LIFECYCLE_EVENTS).find((spec) => spec.kind === kind);
}

/** A lifecycle kind's short word for listings: `session_started`, `permission_denied`, … */
export function lifecycleShortKind(kind: string): string | undefined {
  return lifecycleSpecOfKind(kind) === undefined ? undefined : kind.replace(/^memory\.claude_/, "");
}

/**
 * A one-line description of a lifecycle row from its stored fields
 * (`Bash reason_redacted=Classifier unavailable`), for `tail` and the view;
 * `undefined` for any other kind. The caller strips control characters.
 */
export function describeLifecycleRow(
  kind: string,
  payload: Readonly<Record<string, unknown>>,
): string | undefined {
  const spec = lifecycleSpecOfKind(kind);
  if (spec === undefined) return undefined;
  const parts: string[] = [];
  if (spec.tool) parts.push(String(payload.tool_name ?? "?"));
  for (const [name, type] of Object.entries(spec.fields)) {
    const stored = storedFieldName(name, type);
    const value = payload[stored];
    if (typeof value !== "string" || value === "") continue;
    const line = value.split("\n", 1)[0]!;
    parts.push(`${name}=${line.length > 80 ? `${line.slice(0, 79)}…` : line}`);
  }
  if (spec.totals) {
    parts.push(`prompts=${payload.prompt_count} tools=${payload.tool_use_count}`);
  }
  if (typeof payload.agent_type === "string" && payload.agent_type !== "") {
    parts.push(`agent=${payload.agent_type}`);
  }
  return parts.join(" ");
}
