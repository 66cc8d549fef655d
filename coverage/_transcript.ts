/**
 * What Claude Code's own transcript of a session says happened, reduced to the events our hooks
 * should have captured: prompts, finished tool calls and turn ends. The transcript is JSON lines
 * (`<projects>/<folder>/<session_id>.jsonl`, subagents in `<session_id>/subagents/*.jsonl`), written
 * by Claude Code 2.1.328 as observed under the real CLI:
 *
 * - A **prompt** is a `user` entry of the main thread with a `promptSource` (`sdk` for a prompt
 *   given to `claude -p`, `system` for a background task's `<task-notification>`, which fires
 *   `UserPromptSubmit` and `Stop` too), keyed by its `promptId`, the same id the `UserPromptSubmit`
 *   payload carries. Local commands (`/compact`), their caveats, compaction
 *   summaries and tool results carry no `promptSource` and fire no `UserPromptSubmit`.
 * - A **tool call** is a `tool_use` block (main thread or subagent) with its `tool_result`. It fires
 *   `PostToolUse` (or `PostToolUseFailure` when `is_error`) only when it ran: its permission decision
 *   is `accept`. A refused call (`reject`), an unknown tool or invalid input (`<tool_use_error>`)
 *   fires neither, and a call without a result never finished.
 * - A **turn** runs from a prompt to the last main-thread assistant message before the next prompt.
 *   It fires `Stop` unless it ended in an API error (`isApiErrorMessage`, Claude Code fires
 *   `StopFailure` instead), was interrupted by the user, or stopped while waiting for a tool (the
 *   process was killed). Subagent messages (`isSidechain`) never end a turn.
 * - A **forked** session (`--fork-session`) starts with a copy of the history it forked from, each
 *   copied entry given the new session id and the fork's first `promptId`; those events happened
 *   (and were captured) in the other session. So when a prompt's `promptId` comes back after an
 *   assistant message, the turns before that carried it are copies, and are left out with their
 *   tool calls.
 *
 * Tool inputs, results and prompt texts are read to classify entries only; nothing of them leaves
 * this module but ids, tool names, outcomes and times.
 *
 * @module
 */

/** A prompt the transcript records. */
export interface TranscriptPrompt {
  /** Claude Code's `promptId` (the entry's `uuid` when it has none). */
  promptId: string;
  /** When it was submitted, ms since the epoch. */
  atMs: number;
}

/** A finished tool call that fired `PostToolUse` or `PostToolUseFailure`. */
export interface TranscriptToolCall {
  /** The `toolu_…` id. */
  toolUseId: string;
  /** The tool's name. */
  toolName: string;
  /** `error` when the result is an error (`PostToolUseFailure`), else `success`. */
  outcome: "success" | "error";
  /** When its result was recorded, ms since the epoch. */
  atMs: number;
}

/** A turn: from a prompt to its last assistant message. */
export interface TranscriptTurn {
  /** The time of its last assistant message, ms since the epoch. */
  endMs: number;
  /** Whether Claude Code fires `Stop` for it (see the module comment for when it does not). */
  firesStop: boolean;
}

/** One session's transcript, reduced. */
export interface TranscriptRecord {
  /** Prompts, in order. */
  prompts: TranscriptPrompt[];
  /** Tool calls that ran, in order of their results. */
  toolCalls: TranscriptToolCall[];
  /** Turns, in order (every one, whether it fires `Stop` or not). */
  turns: TranscriptTurn[];
  /** Lines that were not a JSON object (a transcript cut short by a crash ends in one). */
  unreadableLines: number;
}

type Entry = Record<string, unknown>;

interface ToolUse {
  name: string;
  /** The main-thread turn it was called in (undefined in a subagent's own file). */
  turn: number | undefined;
}

interface ToolResult {
  isError: boolean;
  ran: boolean;
  atMs: number;
}

interface OpenTurn {
  promptId: string;
  copied: boolean;
  endMs: number | undefined;
  apiError: boolean;
  waitingForTool: boolean;
  interrupted: boolean;
}

const INTERRUPTED = "[Request interrupted by user";
const TOOL_USE_ERROR = "<tool_use_error>";

/**
 * Reduces a session's transcript: the main file's text, then its subagents' files' texts.
 *
 * @example
 * ```ts
 * const record = parseTranscript({ main: await Deno.readTextFile(path), subagents: [] });
 * ```
 */
export function parseTranscript(texts: { main: string; subagents: string[] }): TranscriptRecord {
  const uses = new Map<string, ToolUse>();
  const results = new Map<string, ToolResult>();
  const prompts = new Map<string, TranscriptPrompt>();
  const turns: OpenTurn[] = [];
  let unreadableLines = 0;
  const files = [{ text: texts.main, subagent: false }].concat(
    texts.subagents.map((text) => ({ text, subagent: true })),
  );
  for (const file of files) {
    for (const line of file.text.split("\n")) {
      if (line.trim() === "") continue;
      const entry = parseLine(line);
      if (entry === undefined) {
        unreadableLines++;
        continue;
      }
      const turnIndex = file.subagent || turns.length === 0 ? undefined : turns.length - 1;
      collectTools(entry, { uses, results, turn: turnIndex });
      if (file.subagent || entry.isSidechain === true) continue;
      const prompt = promptOf(entry);
      if (prompt !== undefined) {
        const earlier = turns.filter((turn) => turn.promptId === prompt.promptId);
        // The same prompt written in several entries, before any answer: still one turn.
        if (earlier.length > 0 && earlier.at(-1)!.endMs === undefined) continue;
        for (const turn of earlier) turn.copied = true;
        prompts.set(prompt.promptId, prompt);
        turns.push({
          promptId: prompt.promptId,
          copied: false,
          endMs: undefined,
          apiError: false,
          waitingForTool: false,
          interrupted: false,
        });
        continue;
      }
      const turn = turns.at(-1);
      if (turn === undefined) continue;
      if (entry.type === "assistant") {
        const atMs = timeOf(entry);
        if (atMs !== undefined) turn.endMs = atMs;
        turn.apiError = entry.isApiErrorMessage === true;
        turn.waitingForTool = messageOf(entry)?.stop_reason === "tool_use";
        turn.interrupted = false;
      } else if (entry.type === "user" && textOf(entry).startsWith(INTERRUPTED)) {
        turn.interrupted = true;
      }
    }
  }
  const toolCalls: TranscriptToolCall[] = [];
  for (const [toolUseId, result] of results) {
    const use = uses.get(toolUseId);
    if (use === undefined || !result.ran) continue;
    if (use.turn !== undefined && turns[use.turn]?.copied === true) continue;
    toolCalls.push({
      toolUseId,
      toolName: use.name,
      outcome: result.isError ? "error" : "success",
      atMs: result.atMs,
    });
  }
  toolCalls.sort((a, b) => a.atMs - b.atMs);
  return {
    prompts: [...prompts.values()],
    toolCalls,
    turns: turns.filter((turn) => turn.endMs !== undefined && !turn.copied).map((turn) => ({
      endMs: turn.endMs!,
      firesStop: !turn.apiError && !turn.waitingForTool && !turn.interrupted,
    })),
    unreadableLines,
  };
}

function parseLine(line: string): Entry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Entry
      : undefined;
  } catch {
    return undefined;
  }
}

function timeOf(entry: Entry): number | undefined {
  if (typeof entry.timestamp !== "string") return undefined;
  const ms = Date.parse(entry.timestamp);
  return Number.isFinite(ms) ? ms : undefined;
}

function messageOf(entry: Entry): Entry | undefined {
  const message = entry.message;
  return typeof message === "object" && message !== null ? message as Entry : undefined;
}

function blocksOf(entry: Entry): Entry[] {
  const content = messageOf(entry)?.content;
  if (!Array.isArray(content)) return [];
  return content.filter((block): block is Entry => typeof block === "object" && block !== null);
}

/** The entry's own text: a string content, or its text blocks joined. */
function textOf(entry: Entry): string {
  const content = messageOf(entry)?.content;
  if (typeof content === "string") return content;
  return blocksOf(entry)
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n");
}

function promptOf(entry: Entry): TranscriptPrompt | undefined {
  if (entry.type !== "user" || typeof entry.promptSource !== "string") return undefined;
  if (entry.isMeta === true || entry.isCompactSummary === true) return undefined;
  if (blocksOf(entry).some((block) => block.type === "tool_result")) return undefined;
  const atMs = timeOf(entry);
  const id = typeof entry.promptId === "string" ? entry.promptId : entry.uuid;
  if (atMs === undefined || typeof id !== "string") return undefined;
  return { promptId: id, atMs };
}

interface ToolSink {
  uses: Map<string, ToolUse>;
  results: Map<string, ToolResult>;
  /** The main-thread turn under way (undefined in a subagent's own file). */
  turn: number | undefined;
}

function collectTools(entry: Entry, sink: ToolSink): void {
  const { uses, results, turn } = sink;
  if (entry.type === "assistant") {
    for (const block of blocksOf(entry)) {
      if (block.type === "tool_use" && typeof block.id === "string") {
        uses.set(block.id, { name: typeof block.name === "string" ? block.name : "?", turn });
      }
    }
    return;
  }
  if (entry.type !== "user") return;
  const atMs = timeOf(entry);
  if (atMs === undefined) return;
  const decision = (entry.permissionDecision as Entry | undefined)?.decision;
  for (const block of blocksOf(entry)) {
    if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
    results.set(block.tool_use_id, {
      isError: block.is_error === true,
      ran: decision === "accept" || (decision === undefined && !refusedBeforeRunning(block)),
      atMs,
    });
  }
}

/** A result Claude Code made up without running the tool: an unknown tool or invalid input. */
function refusedBeforeRunning(block: Entry): boolean {
  const content = block.content;
  const text = typeof content === "string"
    ? content
    : Array.isArray(content)
    ? content.map((part) => (part as Entry | null)?.text).filter((t) => typeof t === "string")
      .join("")
    : "";
  return text.trimStart().startsWith(TOOL_USE_ERROR);
}
