/**
 * Claude Code's payloads: every fixture parses; unknown keys are reported,
 * not fatal; wrong required fields are.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseHookPayload } from "../lib/payload.ts";

const FIXTURES = new URL("./fixtures/claude-code/", import.meta.url);

async function load(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, FIXTURES)));
}

Deno.test("parseHookPayload() accepts every fixture with no unknown keys", async () => {
  const cases = [
    ["user_prompt_submit", "UserPromptSubmit"],
    ["post_tool_use_bash", "PostToolUse"],
    ["post_tool_use_edit", "PostToolUse"],
    ["post_tool_use_mcp", "PostToolUse"],
    ["post_tool_use_failure_bash", "PostToolUseFailure"],
    ["stop_with_last_assistant_message", "Stop"],
    ["stop_without_last_assistant_message", "Stop"],
  ] as const;
  for (const [name, event] of cases) {
    const parsed = parseHookPayload(await load(name), event);
    assert.equal(parsed.payload.hook_event_name, event);
    assert.deepEqual(parsed.unknownKeys, [], name);
  }
});

/** Each fixture and the payload the pinned Claude Code CLI really sent for the same event and tool. */
const RECORDED_AS: Array<[fixture: string, observed: string]> = [
  ["user_prompt_submit", "user_prompt_submit"],
  ["post_tool_use_bash", "post_tool_use_bash"],
  ["post_tool_use_edit", "post_tool_use_edit"],
  ["post_tool_use_mcp", "post_tool_use_mcp"],
  ["post_tool_use_failure_bash", "post_tool_use_failure_bash"],
  ["stop_with_last_assistant_message", "stop"],
  ["stop_without_last_assistant_message", "stop"],
];

/** What a Stop from a Claude Code older than 2.1.47 lacks (the fixture of that shape). */
const OLDER_STOP_LACKS = [
  "prompt_id",
  "effort",
  "last_assistant_message",
  "background_tasks",
  "session_crons",
];

/** A value's shape: JSON type per key, one level into objects (tool_response, effort, …). */
function shapeOf(value: Record<string, unknown>): string[] {
  const typeOf = (v: unknown) => Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
  return Object.entries(value).flatMap(([key, v]) => [
    `${key}: ${typeOf(v)}`,
    ...(typeOf(v) === "object"
      ? Object.entries(v as object).map(([inner, w]) => `${key}.${inner}: ${typeOf(w)}`)
      : []),
  ]).filter((line) => !/^tool_input\./.test(line));
}

Deno.test("every fixture has the fields, order and types the pinned Claude Code CLI sends", async () => {
  for (const [name, observedName] of RECORDED_AS) {
    const observed: Record<string, unknown> = JSON.parse(
      await Deno.readTextFile(new URL(`./claude/observed/${observedName}.json`, import.meta.url)),
    );
    if (name === "stop_without_last_assistant_message") {
      for (const key of OLDER_STOP_LACKS) delete observed[key];
    }
    assert.deepEqual(shapeOf(await load(name)), shapeOf(observed), name);
  }
});

Deno.test("parseHookPayload() lists unknown top-level keys, sorted, and keeps going", async () => {
  const payload = { ...(await load("user_prompt_submit")), zz_new: 1, aa_new: {} };
  const parsed = parseHookPayload(payload, "UserPromptSubmit");
  assert.deepEqual(parsed.unknownKeys, ["aa_new", "zz_new"]);
});

Deno.test("parseHookPayload() rejects wrong required fields with a TypeError naming them", async (t) => {
  const prompt = await load("user_prompt_submit");
  const tool = await load("post_tool_use_failure_bash");
  const stop = await load("stop_with_last_assistant_message");
  const cases: Array<[string, unknown, string, RegExp]> = [
    ["not an object", [], "UserPromptSubmit", /not a JSON object/],
    [
      "no session_id",
      { ...prompt, session_id: undefined },
      "UserPromptSubmit",
      /session_id is missing/,
    ],
    [
      "a path as session_id",
      { ...prompt, session_id: "../../x" },
      "UserPromptSubmit",
      /not a UUID/,
    ],
    ["a numeric prompt", { ...prompt, prompt: 1 }, "UserPromptSubmit", /prompt is not a string/],
    ["the wrong event", prompt, "Stop", /hook_event_name is not "Stop"/],
    ["tool_input a string", { ...tool, tool_input: "x" }, "PostToolUseFailure", /tool_input/],
    [
      "no error on failure",
      { ...tool, error: undefined },
      "PostToolUseFailure",
      /error is missing/,
    ],
    ["negative duration", { ...tool, duration_ms: -1 }, "PostToolUseFailure", /duration_ms/],
    ["stop_hook_active a string", { ...stop, stop_hook_active: "no" }, "Stop", /stop_hook_active/],
  ];
  for (const [name, value, event, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => parseHookPayload(value, event as "Stop"),
        (error: unknown) => error instanceof TypeError && message.test(error.message),
      );
    });
  }
});

Deno.test("parseHookPayload() keeps subagent fields and rounds duration_ms", async () => {
  const payload = {
    ...(await load("post_tool_use_bash")),
    agent_id: "a0123456789abcdef",
    agent_type: "Explore",
    duration_ms: 12.6,
  };
  const parsed = parseHookPayload(payload, "PostToolUse");
  assert.equal(parsed.payload.agent_id, "a0123456789abcdef");
  assert.equal(parsed.payload.agent_type, "Explore");
  assert.equal("duration_ms" in parsed.payload && parsed.payload.duration_ms, 13);
});
