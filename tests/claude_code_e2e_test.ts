/**
 * The real Claude Code CLI (pinned by `tests/claude/install_cli.sh`) runs offline against the
 * scripted model server, executes real tools and fires its real hooks, which `install` pointed at a
 * daemon on a temporary socket and store. Each scenario asserts the exact rows, derived from the
 * payloads Claude Code really sent (a recorder hook keeps them), plus: one trace id per session,
 * secrets absent from the store's bytes, `verify` passing, and Claude Code's answer unchanged.
 *
 * Needs the CLI: the first scenario runs `tests/claude/install_cli.sh` (a no-op once installed; CI
 * runs it beforehand). If it cannot be installed these tests fail, never skip.
 *
 * @module
 */

import assert from "node:assert/strict";
import { oracleBlake3Hex, oracleCanonicalJson } from "./_oracle.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import {
  LIFECYCLE_EVENTS,
  type LifecycleSpec,
  lifecycleSpec,
  lifecycleSpecOfKind,
} from "../lib/lifecycle.ts";
import { PAYLOAD_FIELDS, type StoredRow } from "../lib/rows.ts";
import { redactText, redactValue } from "../lib/redact/mod.ts";
import { scriptBlock, type ScriptStep } from "./claude/model_server.ts";
import { ensureClaudeCli, MCP_SERVER_NAME } from "./claude/run_turn.ts";
import { runScenario, type ScenarioOptions, type ScenarioResult } from "./claude/scenario.ts";

const MCP_TOOL = `mcp__${MCP_SERVER_NAME}__echo`;
const HEX32 = /^[0-9a-f]{32}$/;
const AGENT_ID = /^a[0-9a-f]{16}$/;

function randomFrom(alphabet: string, length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Fresh secrets each run, so a hit in the store can only come from this run. */
const SECRETS = {
  anthropic: `sk-ant-api03-${randomFrom(ALNUM, 48)}`,
  github: `ghp_${randomFrom(ALNUM, 36)}`,
  aws: `AKIA${randomFrom(UPPER_DIGITS, 16)}`,
  aws2: `AKIA${randomFrom(UPPER_DIGITS, 16)}`,
};

/** A prompt: a line for people, then the script. */
function prompt(text: string, steps: ScriptStep[]): string {
  return `${text}\n${scriptBlock(steps)}`;
}

/** Runs a scenario once the pinned CLI is there (installing it on a clean clone). */
async function scenario(options: ScenarioOptions): Promise<ScenarioResult> {
  await ensureClaudeCli();
  return runScenario(options);
}

function sessionOf(row: StoredRow): string {
  return String(row.payload.session_id);
}

/** The row payload our pipeline must store for one payload, without the fields it makes up. */
function expectedPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const common = { session_id: payload.session_id, cwd: payload.cwd };
  switch (payload.hook_event_name) {
    case "UserPromptSubmit": {
      const redacted = redactText(String(payload.prompt));
      return {
        ...common,
        prompt_hash: oracleBlake3Hex(redacted.text),
        prompt_redacted: redacted.text,
        redaction_match_count: redacted.matchCount,
        ...(payload.prompt_id !== undefined ? { prompt_id: payload.prompt_id } : {}),
      };
    }
    case "PostToolUse":
    case "PostToolUseFailure": {
      const error = typeof payload.error === "string"
        ? { error: redactText(payload.error.split("\n", 1)[0] ?? "").text }
        : {};
      return {
        ...common,
        tool_name: payload.tool_name,
        tool_args_hash: oracleBlake3Hex(oracleCanonicalJson(redactValue(payload.tool_input).value)),
        outcome: payload.hook_event_name === "PostToolUse" ? "success" : "error",
        duration_ms: payload.duration_ms ?? null,
        ...(payload.tool_use_id !== undefined ? { tool_use_id: payload.tool_use_id } : {}),
        ...(payload.agent_id !== undefined ? { agent_id: payload.agent_id } : {}),
        ...(payload.agent_type !== undefined ? { agent_type: payload.agent_type } : {}),
        ...error,
      };
    }
    case "Stop": {
      const message = payload.last_assistant_message;
      return {
        ...common,
        last_assistant_message_redacted: typeof message === "string"
          ? redactText(message).text
          : null,
        ...(payload.stop_hook_active !== undefined
          ? { stop_hook_active: payload.stop_hook_active }
          : {}),
      };
    }
  }
  const spec = lifecycleSpec(String(payload.hook_event_name));
  if (spec === undefined) {
    throw new TypeError(`Cannot expect a row: unknown event ${String(payload.hook_event_name)}`);
  }
  return expectedLifecycle(payload, spec);
}

/** A lifecycle row's expected fields, spelled out here rather than by `lib/lifecycle.ts`. */
function expectedLifecycle(
  payload: Record<string, unknown>,
  spec: LifecycleSpec,
): Record<string, unknown> {
  const redacted = (value: unknown) => redactText(String(value)).text;
  const out: Record<string, unknown> = { session_id: payload.session_id };
  if (spec.tool) {
    out.tool_name = redacted(payload.tool_name);
    out.tool_args_hash = oracleBlake3Hex(
      oracleCanonicalJson(redactValue(payload.tool_input ?? {}).value),
    );
  }
  for (const [name, type] of Object.entries(spec.fields)) {
    if (typeof payload[name] !== "string") continue;
    const text = redacted(payload[name]);
    if (type === "text") out[`${name}_redacted`] = text;
    else out[name] = type === "label" ? [...text].slice(0, 64).join("") : text;
  }
  if (spec.totals) out.prompt_count = out.tool_use_count = out.duration_ms = "made up";
  out.cwd = redacted(payload.cwd);
  for (const name of ["prompt_id", "tool_use_id", "agent_id", "agent_type"]) {
    if (typeof payload[name] === "string") out[name] = redacted(payload[name]);
  }
  for (const field of MADE_UP) delete out[field];
  return out;
}

const KIND_OF_EVENT: Record<string, string> = {
  UserPromptSubmit: ROW_KINDS.prompt,
  PostToolUse: ROW_KINDS.toolUse,
  PostToolUseFailure: ROW_KINDS.toolUse,
  Stop: ROW_KINDS.sessionCompleted,
  ...Object.fromEntries(
    Object.entries(LIFECYCLE_EVENTS).map(([event, spec]) => [event, spec.kind]),
  ),
};

/** The fields our pipeline makes up rather than copies: checked for shape, not value. */
const MADE_UP = ["trace_id", "captured_at_ns", "prompt_count", "tool_use_count", "duration_ms"];

function withoutMadeUp(payload: Record<string, unknown>, kind: string): Record<string, unknown> {
  const out = { ...payload };
  for (const field of MADE_UP) {
    // A tool row's duration_ms is Claude Code's, so it is compared.
    if (field === "duration_ms" && kind === ROW_KINDS.toolUse) continue;
    delete out[field];
  }
  return out;
}

/**
 * The checks every scenario shares: each turn ended as scripted; exactly one row per hook run,
 * each equal to what its payload implies; one trace id per session, the one in the trace dir;
 * fields in DESIGN.md order; the chain verifies; no secret in the store; no unexpected request.
 */
function assertCommon(result: ScenarioResult, finalTexts: string[]): void {
  assert.equal(result.turns.length, finalTexts.length);
  result.turns.forEach((turn, i) => {
    assert.equal(turn.timedOut, false, `turn ${i + 1} timed out`);
    assert.equal(turn.code, 0, `turn ${i + 1} exit code; stderr: ${turn.stderr}`);
    assert.equal(turn.stdout, `${finalTexts[i]}\n`, `turn ${i + 1} answer`);
    assert.equal(turn.stderr, "", `turn ${i + 1} stderr`);
  });
  assert.deepEqual(result.requests.filter((r) => !r.handled), [], "unexpected model requests");

  // One row per hook run, and each row is what its payload implies.
  assert.equal(result.rows.length, result.payloads.length, "one row per hook run");
  const unmatched = [...result.rows];
  for (const payload of result.payloads) {
    const kind = KIND_OF_EVENT[String(payload.hook_event_name)];
    assert.ok(kind !== undefined, `unknown event ${String(payload.hook_event_name)}`);
    const expected = expectedPayload(payload);
    const index = unmatched.findIndex((row) =>
      row.kind === kind && assertEqualSafe(withoutMadeUp(row.payload, kind), expected)
    );
    assert.ok(
      index >= 0,
      `no row for ${String(payload.hook_event_name)} ${String(payload.tool_name ?? "")}: ` +
        `expected ${JSON.stringify(expected)}; rows ${
          JSON.stringify(unmatched.map((r) => withoutMadeUp(r.payload, r.kind)))
        }`,
    );
    unmatched.splice(index, 1);
  }

  // Field order and made-up fields.
  for (const row of result.rows) {
    const order = PAYLOAD_FIELDS[row.kind].filter((field) => field in row.payload);
    assert.deepEqual(Object.keys(row.payload), order, `fields of seq ${row.seq}`);
    assert.match(String(row.payload.trace_id), HEX32);
    const ns = Number(row.payload.captured_at_ns);
    assert.ok(
      Number.isInteger(ns) && Math.abs(ns / 1e6 - Date.now()) < 600_000,
      `captured_at_ns ${String(row.payload.captured_at_ns)} is nanoseconds since the epoch, now`,
    );
  }

  // One trace id per session, the one the trace dir keeps.
  const sessions = new Set(result.rows.map(sessionOf));
  for (const session of sessions) {
    const ids = new Set(
      result.rows.filter((r) => sessionOf(r) === session).map((r) => r.payload.trace_id),
    );
    assert.deepEqual([...ids], [result.traceFiles[session]], `trace ids of session ${session}`);
  }

  assert.equal(result.verify.code, 0, `verify: ${result.verify.stdout}${result.verify.stderr}`);
  for (const session of sessions) {
    assert.ok(result.storeText.includes(session), "the store's bytes were read");
  }
  for (const [name, secret] of Object.entries(SECRETS)) {
    assert.ok(!result.storeText.includes(secret), `the ${name} secret is in the store's bytes`);
  }
}

/** Deep equality as a boolean (for searching). */
function assertEqualSafe(actual: unknown, expected: unknown): boolean {
  try {
    assert.deepEqual(actual, expected);
    return true;
  } catch {
    return false;
  }
}

/** The rows of the turns themselves (prompts, tools, Stop), without the lifecycle rows around them. */
function turnRows(result: ScenarioResult): StoredRow[] {
  return result.rows.filter((row) => lifecycleSpecOfKind(row.kind) === undefined);
}

/** The turn rows (prompts, tools, Stop) in a line each; lifecycle rows have tests of their own. */
function summary(rows: StoredRow[]): string[] {
  return rows.filter((row) => lifecycleSpecOfKind(row.kind) === undefined).map((row) => {
    const p = row.payload;
    if (row.kind === ROW_KINDS.toolUse) return `tool ${String(p.tool_name)} ${String(p.outcome)}`;
    if (row.kind === ROW_KINDS.prompt) return "prompt";
    if (row.kind === ROW_KINDS.sessionCompleted) {
      return `stop prompts=${String(p.prompt_count)} tools=${String(p.tool_use_count)}`;
    }
    return row.kind;
  });
}

/** The tool_use ids the model server handed out, in order. */
function scriptedToolIds(result: ScenarioResult, name: string): string[] {
  const ids = new Set<string>();
  for (const request of result.requests) {
    const messages = (request.body as { messages?: { role: string; content: unknown }[] })
      ?.messages ?? [];
    for (const message of messages) {
      if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
      for (const block of message.content as { type: string; name?: string; id?: string }[]) {
        if (block.type === "tool_use" && block.name === name && block.id) ids.add(block.id);
      }
    }
  }
  return [...ids];
}

Deno.test("claude -p with a prompt holding secrets: one prompt row, one Stop row, no secret stored", async () => {
  const text = `Deploy with ${SECRETS.anthropic} and ${SECRETS.github}; AWS ${SECRETS.aws}.`;
  const result = await scenario({
    expectedRows: 2,
    turns: () => [{ prompt: prompt(text, [[{ text: "Noted." }]]) }],
  });
  assertCommon(result, ["Noted."]);
  assert.deepEqual(summary(result.rows), ["prompt", "stop prompts=1 tools=0"]);
  const promptRow = turnRows(result)[0]!.payload;
  assert.equal(promptRow.redaction_match_count, 3);
  assert.ok(String(promptRow.prompt_redacted).startsWith("Deploy with <ANTHROPIC_KEY> and "));
  assert.equal(promptRow.cwd, result.project);
  assert.equal(turnRows(result)[1]!.payload.last_assistant_message_redacted, "Noted.");
});

Deno.test("claude -p running Bash that succeeds then fails: a success row, an error row with 'Exit code 3'", async () => {
  const result = await scenario({
    expectedRows: 4,
    turns: () => [{
      prompt: prompt("Run two commands.", [
        [{ tool: "Bash", input: { command: "echo captured-ok", description: "succeed" } }],
        [{ tool: "Bash", input: { command: "echo oops >&2; exit 3", description: "fail" } }],
        [{ text: "Ran both." }],
      ]),
    }],
  });
  assertCommon(result, ["Ran both."]);
  assert.deepEqual(summary(result.rows), [
    "prompt",
    "tool Bash success",
    "tool Bash error",
    "stop prompts=1 tools=2",
  ]);
  const [ok, failed] = [turnRows(result)[1]!.payload, turnRows(result)[2]!.payload];
  assert.deepEqual([ok.tool_use_id, failed.tool_use_id], scriptedToolIds(result, "Bash"));
  assert.equal(failed.error, "Exit code 3");
  assert.ok(!("error" in ok));
  assert.equal(typeof ok.duration_ms, "number");
});

Deno.test("claude -p writing then editing a file with secrets: two success rows, secrets on disk, none stored", async () => {
  const result = await scenario({
    expectedRows: 4,
    readBack: ["config.env"],
    turns: (project) => [{
      prompt: prompt("Write the config, then rotate the key.", [
        [{
          tool: "Write",
          input: {
            file_path: `${project}/config.env`,
            content: `AWS_ACCESS_KEY_ID=${SECRETS.aws}\nGITHUB_TOKEN=${SECRETS.github}\n`,
          },
        }],
        [{
          tool: "Edit",
          input: {
            file_path: `${project}/config.env`,
            old_string: SECRETS.aws,
            new_string: SECRETS.aws2,
          },
        }],
        [{ text: "Config written." }],
      ]),
    }],
  });
  assertCommon(result, ["Config written."]);
  assert.deepEqual(summary(result.rows), [
    "prompt",
    "tool Write success",
    "tool Edit success",
    "stop prompts=1 tools=2",
  ]);
  assert.equal(
    result.files["config.env"],
    `AWS_ACCESS_KEY_ID=${SECRETS.aws2}\nGITHUB_TOKEN=${SECRETS.github}\n`,
    "the tools really ran",
  );
});

Deno.test("claude -p reading two files in parallel: two Read rows, in any order, one per tool_use_id", async () => {
  const result = await scenario({
    expectedRows: 4,
    files: { "a.txt": "alpha\n", "b.txt": "beta\n" },
    turns: (project) => [{
      prompt: prompt("Read both.", [
        [
          { tool: "Read", input: { file_path: `${project}/a.txt` } },
          { tool: "Read", input: { file_path: `${project}/b.txt` } },
        ],
        [{ text: "Read both." }],
      ]),
    }],
  });
  assertCommon(result, ["Read both."]);
  assert.deepEqual(summary(result.rows), [
    "prompt",
    "tool Read success",
    "tool Read success",
    "stop prompts=1 tools=2",
  ]);
  assert.deepEqual(
    turnRows(result).slice(1, 3).map((r) => r.payload.tool_use_id).sort(),
    scriptedToolIds(result, "Read").sort(),
  );
});

Deno.test("claude -p running a subagent: its Bash row carries agent_id and agent_type, the Agent row does not", async () => {
  const inner = scriptBlock([
    [{ tool: "Bash", input: { command: "echo from-subagent", description: "inner" } }],
    [{ text: "Subagent finished." }],
  ]);
  const result = await scenario({
    expectedRows: 4,
    turns: () => [{
      allowedTools: ["Bash", "Agent"],
      prompt: prompt("Delegate.", [
        [{
          tool: "Agent",
          input: {
            description: "Run one command",
            prompt: `Run it.\n${inner}`,
            subagent_type: "general-purpose",
            run_in_background: false,
          },
        }],
        [{ text: "Delegated." }],
      ]),
    }],
  });
  assertCommon(result, ["Delegated."]);
  assert.deepEqual(summary(result.rows), [
    "prompt",
    "tool Bash success",
    "tool Agent success",
    "stop prompts=1 tools=2",
  ]);
  const [inSubagent, agent] = [turnRows(result)[1]!.payload, turnRows(result)[2]!.payload];
  assert.match(String(inSubagent.agent_id), AGENT_ID);
  assert.equal(inSubagent.agent_type, "general-purpose");
  assert.ok(!("agent_id" in agent) && !("agent_type" in agent));
  assert.equal(sessionOf(turnRows(result)[1]!), sessionOf(turnRows(result)[0]!), "same session");
});

Deno.test("claude -p calling an MCP tool: a success row and an error row named mcp__probe__echo", async () => {
  const result = await scenario({
    expectedRows: 4,
    mcp: true,
    turns: () => [{
      allowedTools: [MCP_TOOL],
      prompt: prompt("Echo twice.", [
        [{ tool: MCP_TOOL, input: { text: "hello" } }],
        [{ tool: MCP_TOOL, input: { text: "fail" } }],
        [{ text: "Echoed." }],
      ]),
    }],
  });
  assertCommon(result, ["Echoed."]);
  assert.deepEqual(summary(result.rows), [
    "prompt",
    `tool ${MCP_TOOL} success`,
    `tool ${MCP_TOOL} error`,
    "stop prompts=1 tools=2",
  ]);
  assert.equal(turnRows(result)[2]!.payload.error, "echo failed");
});

Deno.test("claude -p over two turns of one session (--session-id, --resume): one trace id, cumulative Stop counts", async () => {
  const sessionId = crypto.randomUUID();
  const result = await scenario({
    expectedRows: 7,
    turns: () => [
      {
        sessionId,
        prompt: prompt("First.", [
          [{ tool: "Bash", input: { command: "echo one" } }],
          [{ text: "First done." }],
        ]),
      },
      {
        resume: sessionId,
        prompt: prompt("Second.", [
          [{ tool: "Bash", input: { command: "echo two" } }],
          [{ tool: "Bash", input: { command: "echo three" } }],
          [{ text: "Second done." }],
        ]),
      },
    ],
  });
  assertCommon(result, ["First done.", "Second done."]);
  assert.deepEqual(summary(result.rows), [
    "prompt",
    "tool Bash success",
    "stop prompts=1 tools=1",
    "prompt",
    "tool Bash success",
    "tool Bash success",
    "stop prompts=2 tools=3",
  ]);
  assert.deepEqual([...new Set(result.rows.map(sessionOf))], [sessionId]);
  assert.equal(new Set(result.rows.map((r) => r.payload.trace_id)).size, 1);
  const [first, second] = [turnRows(result)[2]!.payload, turnRows(result)[6]!.payload];
  assert.ok(Number(second.duration_ms) >= Number(first.duration_ms), "duration grows");
});

/** The model requests' conversation, with run-specific ids and paths replaced. */
function normalisedConversation(result: ScenarioResult): string[] {
  return result.requests
    .filter((r) => r.path.startsWith("/v1/messages"))
    .map((r) => {
      const messages = (r.body as { messages?: { role: string }[] })?.messages ?? [];
      return JSON.stringify(messages.filter((m) => m.role !== "system"))
        .replaceAll(result.root, "<ROOT>")
        .replaceAll(result.root.replaceAll("/", "-"), "<ROOT>")
        .replace(/toolu_[A-Za-z0-9]+/g, "<TOOL_ID>")
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<UUID>")
        .replace(/\ba[0-9a-f]{16}\b/g, "<AGENT_ID>");
    });
}

Deno.test("our hooks leave Claude Code's answer and every model request unchanged", async () => {
  const turns = (project: string) => [{
    prompt: prompt(`Mixed work; key ${SECRETS.anthropic}.`, [
      [{ tool: "Bash", input: { command: "echo mixed" } }],
      [{ tool: "Write", input: { file_path: `${project}/out.txt`, content: "x\n" } }],
      [{ tool: "Read", input: { file_path: `${project}/out.txt` } }],
      [{ tool: "Bash", input: { command: "exit 1" } }],
      [{ text: "Mixed done." }],
    ]),
  }];
  const baseline = await scenario({ expectedRows: 0, capture: false, turns });
  const captured = await scenario({ expectedRows: 6, turns });
  assertCommon(captured, ["Mixed done."]);
  assert.equal(baseline.turns[0]!.stdout, captured.turns[0]!.stdout);
  assert.equal(baseline.turns[0]!.code, captured.turns[0]!.code);
  const conversation = normalisedConversation(captured);
  assert.equal(conversation.length, 5, "one model request per scripted step");
  assert.deepEqual(conversation, normalisedConversation(baseline));
});
