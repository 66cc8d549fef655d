/**
 * The end-to-end harness's pure parts: the model server's script parsing and step choice, the MCP
 * server's JSON-RPC answers, and the OTLP log flattening. All run with no permissions.
 *
 * @module
 */

import assert from "node:assert/strict";
import { chooseReply, DEFAULT_FINAL_TEXT, parseScript, scriptBlock } from "./model_server.ts";
import { handleMessage, MCP_TOOL_NAME } from "./mcp_server.ts";
import { parseLogsRequest } from "../_otlp_receiver.ts";

const none = { permissions: "none" } as const;

Deno.test(
  "parseScript() reads the outermost script, keeping a nested one inside its strings",
  none,
  () => {
    const inner = scriptBlock([[{ text: "inner" }]]);
    const outer = `Go.\n${
      scriptBlock([[{ tool: "Agent", input: { prompt: inner } }], [{ text: "outer" }]])
    }`;
    const steps = parseScript(outer);
    assert.equal(steps?.length, 2);
    const first = steps?.[0]?.[0];
    assert.ok(first !== undefined && "tool" in first);
    const prompt = String(first.input.prompt);
    assert.deepEqual(parseScript(prompt), [[{ text: "inner" }]]);
    assert.equal(parseScript("no script here"), undefined);
  },
);

Deno.test("parseScript() rejects a script that is not an array of steps", none, () => {
  assert.throws(() => parseScript("<<<SCRIPT {} SCRIPT>>>"), SyntaxError);
  assert.throws(() => parseScript("<<<SCRIPT [1] SCRIPT>>>"), {
    name: "SyntaxError",
    message: /^Cannot parse script: not an array of steps/,
  });
});

Deno.test(
  "chooseReply() answers the step after the assistant replies since the last scripted prompt",
  none,
  () => {
    const script = scriptBlock([[{ tool: "Bash", input: { command: "true" } }], [{ text: "end" }]]);
    const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
    const result = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t", content: "" }],
    };
    const assistant = { role: "assistant", content: [{ type: "tool_use", id: "t" }] };
    const cases: [string, unknown[], unknown][] = [
      ["first request", [user(script), { role: "system", content: "x" }], [{
        tool: "Bash",
        input: { command: "true" },
      }]],
      ["after one tool round", [user(script), assistant, result], [{ text: "end" }]],
      ["past the end", [user(script), assistant, result, assistant, result], [{
        text: DEFAULT_FINAL_TEXT,
      }]],
      ["a later prompt restarts", [user(script), assistant, result, user(script)], [{
        tool: "Bash",
        input: { command: "true" },
      }]],
      ["no script", [user("hello")], [{ text: DEFAULT_FINAL_TEXT }]],
    ];
    for (const [name, messages, expected] of cases) {
      assert.deepEqual(chooseReply({ messages }), expected, name);
    }
  },
);

Deno.test(
  "handleMessage() answers initialize, tools/list and tools/call, and ignores notifications",
  none,
  () => {
    const init = handleMessage({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26" },
    });
    assert.equal((init?.result as { protocolVersion: string }).protocolVersion, "2025-03-26");
    assert.equal(handleMessage({ jsonrpc: "2.0", method: "notifications/initialized" }), undefined);
    const list = handleMessage({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    assert.deepEqual((list?.result as { tools: { name: string }[] }).tools.map((t) => t.name), [
      MCP_TOOL_NAME,
    ]);
    const call = (text: string) =>
      handleMessage({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: MCP_TOOL_NAME, arguments: { text } },
      })?.result;
    assert.deepEqual(call("hi"), { content: [{ type: "text", text: "echo: hi" }], isError: false });
    assert.deepEqual(call("fail"), {
      content: [{ type: "text", text: "echo failed" }],
      isError: true,
    });
    const unknown = handleMessage({ jsonrpc: "2.0", id: 4, method: "nope" });
    assert.equal((unknown?.error as { code: number }).code, -32601);
  },
);

Deno.test(
  "parseLogsRequest() flattens resource and record attributes into plain values",
  none,
  () => {
    const records = parseLogsRequest({
      resourceLogs: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "claude-code" } }] },
        scopeLogs: [{
          logRecords: [{
            body: { stringValue: "claude_code.hook_execution_complete" },
            attributes: [
              { key: "event.name", value: { stringValue: "hook_execution_complete" } },
              { key: "total_duration_ms", value: { stringValue: "12" } },
              { key: "n", value: { intValue: "3" } },
            ],
          }],
        }],
      }],
    });
    assert.deepEqual(records, [{
      body: "claude_code.hook_execution_complete",
      attributes: {
        "service.name": "claude-code",
        "event.name": "hook_execution_complete",
        total_duration_ms: "12",
        n: 3,
      },
    }]);
  },
);
