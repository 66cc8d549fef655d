/**
 * Claude Code's hook payloads, parsed loosely on purpose: unknown keys are
 * normal (Claude Code adds fields every few versions), so they are reported
 * once and ignored; a missing or wrongly typed required field is an error.
 *
 * @module
 */

import { isUuid } from "./ids.ts";
import type { ClaudeHookEvent } from "./kinds.ts";
import {
  lifecycleKnownKeys,
  lifecycleSpec,
  type LifecycleValues,
  parseLifecycleValues,
} from "./lifecycle.ts";

/** Fields every event carries. */
export interface CommonPayload {
  /** The session's id: a UUID, since it names a file. */
  session_id: string;
  /** The working directory (follows `cd`). */
  cwd: string;
  /** Joins rows to Claude Code's own telemetry (v2.1.196+). */
  prompt_id?: string;
  /** Set inside subagents only. */
  agent_id?: string;
  /** Set inside subagents only. */
  agent_type?: string;
}

/** A `UserPromptSubmit` payload. */
export interface PromptPayload extends CommonPayload {
  hook_event_name: "UserPromptSubmit";
  /** What the user typed (or a background task's notification). */
  prompt: string;
}

/** A `PostToolUse` or `PostToolUseFailure` payload. */
export interface ToolPayload extends CommonPayload {
  hook_event_name: "PostToolUse" | "PostToolUseFailure";
  /** `Bash`, `Edit`, `mcp__server__tool`, … */
  tool_name: string;
  /** The tool's arguments; never stored, only hashed after redaction. */
  tool_input: Record<string, unknown>;
  /** `toolu_…` */
  tool_use_id?: string;
  /** How long the tool ran, when Claude Code says (v2.1.119+). */
  duration_ms?: number;
  /** The failure text (PostToolUseFailure only). */
  error?: string;
}

/** A `Stop` payload. */
export interface StopPayload extends CommonPayload {
  hook_event_name: "Stop";
  /** Whether a Stop hook already continued this turn. */
  stop_hook_active?: boolean;
  /** The turn's final message (v2.1.47+). */
  last_assistant_message?: string;
}

/** A lifecycle event's payload (`SessionStart`, `PermissionDenied`, …; see `lifecycle.ts`). */
export interface LifecyclePayload extends CommonPayload {
  hook_event_name: Exclude<
    ClaudeHookEvent,
    "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure" | "Stop"
  >;
  /** The event's own fields, unredacted. */
  lifecycle: LifecycleValues;
}

/** Any payload this product captures. */
export type HookPayload = PromptPayload | ToolPayload | StopPayload | LifecyclePayload;

/** What {@linkcode parseHookPayload} returns. */
export interface ParsedPayload {
  /** The typed payload with only the fields this product uses. */
  payload: HookPayload;
  /** Top-level keys this product does not know, sorted. */
  unknownKeys: string[];
}

const COMMON_KEYS = [
  "session_id",
  "transcript_path",
  "cwd",
  "hook_event_name",
  "permission_mode",
  "prompt_id",
  "effort",
  "agent_id",
  "agent_type",
];

const EVENT_KEYS: Partial<Record<ClaudeHookEvent, string[]>> = {
  UserPromptSubmit: ["prompt"],
  PostToolUse: [
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_use_id",
    "duration_ms",
    "mcp_server",
  ],
  PostToolUseFailure: [
    "tool_name",
    "tool_input",
    "tool_use_id",
    "error",
    "is_interrupt",
    "duration_ms",
    "mcp_server",
  ],
  Stop: ["stop_hook_active", "last_assistant_message", "background_tasks", "session_crons"],
};

/**
 * Validates a parsed JSON value as the payload of `event`.
 *
 * @throws {TypeError} naming the first missing or wrongly typed field.
 */
export function parseHookPayload(value: unknown, event: ClaudeHookEvent): ParsedPayload {
  if (!isRecord(value)) throw new TypeError("Invalid payload: not a JSON object");
  const sessionId = requireString(value, "session_id");
  if (!isUuid(sessionId)) throw new TypeError("Invalid payload: session_id is not a UUID");
  const eventName = requireString(value, "hook_event_name");
  if (eventName !== event) {
    // The value itself is not quoted: a WARN line never repeats input.
    throw new TypeError(`Invalid payload: hook_event_name is not "${event}"`);
  }
  const common: CommonPayload = {
    session_id: sessionId.toLowerCase(),
    cwd: requireString(value, "cwd"),
  };
  optionalString(value, "transcript_path");
  copyOptionalString(value, common, "prompt_id");
  copyOptionalString(value, common, "agent_id");
  copyOptionalString(value, common, "agent_type");
  const spec = lifecycleSpec(event);
  const eventKeys = spec ? lifecycleKnownKeys(spec) : EVENT_KEYS[event] ?? [];
  const unknownKeys = Object.keys(value)
    .filter((key) => !COMMON_KEYS.includes(key) && !eventKeys.includes(key))
    .sort();
  return { payload: parseEventFields(value, event, common), unknownKeys };
}

function parseEventFields(
  value: Record<string, unknown>,
  event: ClaudeHookEvent,
  common: CommonPayload,
): HookPayload {
  switch (event) {
    case "UserPromptSubmit":
      return { ...common, hook_event_name: event, prompt: requireString(value, "prompt") };
    case "PostToolUse":
    case "PostToolUseFailure": {
      const toolInput = value.tool_input;
      if (!isRecord(toolInput)) throw new TypeError("Invalid payload: tool_input is not an object");
      const tool: ToolPayload = {
        ...common,
        hook_event_name: event,
        tool_name: requireString(value, "tool_name"),
        tool_input: toolInput,
      };
      copyOptionalString(value, tool, "tool_use_id");
      const duration = value.duration_ms;
      if (duration !== undefined && duration !== null) {
        if (typeof duration !== "number" || !Number.isFinite(duration) || duration < 0) {
          throw new TypeError("Invalid payload: duration_ms is not a non-negative number");
        }
        tool.duration_ms = Math.round(duration);
      }
      if (event === "PostToolUseFailure") tool.error = requireString(value, "error");
      return tool;
    }
    case "Stop": {
      const stop: StopPayload = { ...common, hook_event_name: event };
      const active = value.stop_hook_active;
      if (active !== undefined) {
        if (typeof active !== "boolean") {
          throw new TypeError("Invalid payload: stop_hook_active is not a boolean");
        }
        stop.stop_hook_active = active;
      }
      copyOptionalString(value, stop, "last_assistant_message");
      return stop;
    }
    default:
      return {
        ...common,
        hook_event_name: event,
        lifecycle: parseLifecycleValues(value, lifecycleSpec(event)!),
      };
  }
}

function requireString(value: Record<string, unknown>, key: string): string {
  const field = value[key];
  if (field === undefined) throw new TypeError(`Invalid payload: ${key} is missing`);
  if (typeof field !== "string") throw new TypeError(`Invalid payload: ${key} is not a string`);
  return field;
}

function optionalString(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  if (field === undefined || field === null) return undefined;
  if (typeof field !== "string") throw new TypeError(`Invalid payload: ${key} is not a string`);
  return field;
}

function copyOptionalString<T extends object>(
  value: Record<string, unknown>,
  target: T,
  key: keyof T & string,
): void {
  const field = optionalString(value, key);
  if (field !== undefined) (target as Record<string, unknown>)[key] = field;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
