/**
 * Row kinds and hook events: the names on the wire and in the store.
 *
 * @module
 */

/** The row kinds the store holds. */
export const ROW_KINDS = {
  prompt: "memory.claude_prompt",
  toolUse: "memory.claude_tool_use",
  sessionCompleted: "memory.claude_session_completed",
  redactionFailed: "memory.claude_capture_redaction_failed",
  sessionStarted: "memory.claude_session_started",
  sessionEnded: "memory.claude_session_ended",
  subagentStarted: "memory.claude_subagent_started",
  subagentStopped: "memory.claude_subagent_stopped",
  compactStarted: "memory.claude_compact_started",
  compactCompleted: "memory.claude_compact_completed",
  turnFailed: "memory.claude_turn_failed",
  permissionRequested: "memory.claude_permission_requested",
  permissionDenied: "memory.claude_permission_denied",
  configChanged: "memory.claude_config_changed",
  instructionsLoaded: "memory.claude_instructions_loaded",
  cwdChanged: "memory.claude_cwd_changed",
} as const;

/** One row kind. */
export type RowKind = typeof ROW_KINDS[keyof typeof ROW_KINDS];

/** Whether `value` is one of the row kinds. */
export function isRowKind(value: unknown): value is RowKind {
  return typeof value === "string" &&
    (Object.values(ROW_KINDS) as string[]).includes(value);
}

/** The hook's command-line event names, mapped to Claude Code's `hook_event_name`. */
export const HOOK_EVENTS = {
  userpromptsubmit: "UserPromptSubmit",
  posttooluse: "PostToolUse",
  posttoolusefailure: "PostToolUseFailure",
  stop: "Stop",
  sessionstart: "SessionStart",
  sessionend: "SessionEnd",
  subagentstart: "SubagentStart",
  subagentstop: "SubagentStop",
  precompact: "PreCompact",
  postcompact: "PostCompact",
  stopfailure: "StopFailure",
  permissionrequest: "PermissionRequest",
  permissiondenied: "PermissionDenied",
  configchange: "ConfigChange",
  instructionsloaded: "InstructionsLoaded",
  cwdchanged: "CwdChanged",
} as const;

/** A hook event as typed on the command line. */
export type HookEvent = keyof typeof HOOK_EVENTS;

/** A hook event as Claude Code names it. */
export type ClaudeHookEvent = typeof HOOK_EVENTS[HookEvent];

/** Whether `value` is a command-line hook event name. */
export function isHookEvent(value: unknown): value is HookEvent {
  return typeof value === "string" && Object.hasOwn(HOOK_EVENTS, value);
}

/** The `prompt_source` of a background task reporting back: left out of `prompt_count`. */
export const TASK_NOTIFICATION_SOURCE = "task_notification";
