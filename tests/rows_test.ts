/**
 * Drafts (hook side) and completed rows (daemon side): redaction happens
 * before anything is hashed, raw tool data never reaches the row, fields come
 * in DESIGN.md order.
 *
 * @module
 */

import assert from "node:assert/strict";
import { buildDraft, isTaskNotification, redactionFailedDraft } from "../lib/draft.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import type { ToolPayload } from "../lib/payload.ts";
import { completePayload, PAYLOAD_FIELDS } from "../lib/rows.ts";
import { oracleBlake3Hex } from "./_oracle.ts";
import type { Frame } from "../lib/frame.ts";

const CONTEXT = { traceId: "ab".repeat(16), capturedAtNs: 1764460800000000000 };
const SESSION = "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17";
const AWS = "AKIAZ7Q3MN4TW8PXR2LD";

function frameFor(draft: ReturnType<typeof buildDraft>): Frame {
  return {
    v: 1,
    id: "0".repeat(32),
    kind: draft.kind,
    payload: draft.payload,
    telemetry: { hook_kind: "x", started_at_ns: 0, ended_at_ns: 0, outcome: "ok", redactions: {} },
  };
}

const NO_SESSION = { promptCount: 0, toolUseCount: 0, firstCapturedAtNs: undefined };

Deno.test({
  name: "buildDraft() redacts the prompt before the daemon hashes it",
  permissions: "none",
  fn() {
    const draft = buildDraft({
      session_id: SESSION,
      cwd: "/p",
      hook_event_name: "UserPromptSubmit",
      prompt: `deploy with ${AWS} please`,
    }, CONTEXT);
    assert.equal(draft.kind, ROW_KINDS.prompt);
    assert.ok(!JSON.stringify(draft.payload).includes(AWS));
    assert.equal(draft.matchCount, 1);
    const row = completePayload(frameFor(draft), NO_SESSION);
    assert.equal(row.prompt_redacted, "deploy with <AWS_KEY> please");
    assert.equal(row.prompt_hash, oracleBlake3Hex("deploy with <AWS_KEY> please"));
    assert.deepEqual(Object.keys(row), PAYLOAD_FIELDS[ROW_KINDS.prompt].filter((f) => f in row));
  },
});

Deno.test({
  name: "completePayload() hashes the redacted tool arguments and drops them",
  permissions: "none",
  fn() {
    const payload: ToolPayload = {
      session_id: SESSION,
      cwd: "/p",
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: `aws s3 ls --key ${AWS}`, flags: ["-r"] },
      error: `Exit code 2\nkey ${AWS} refused`,
      duration_ms: 12,
    };
    const draft = buildDraft(payload, CONTEXT);
    const row = completePayload(frameFor(draft), NO_SESSION);
    assert.ok(!("tool_args_redacted" in row));
    // The expected hash from literal canonical bytes and the independent oracle, not the code under test.
    assert.equal(
      row.tool_args_hash,
      oracleBlake3Hex('{"command":"aws s3 ls --key <AWS_KEY>","flags":["-r"]}'),
    );
    assert.equal(row.outcome, "error");
    assert.equal(row.error, "Exit code 2");
    assert.ok(!JSON.stringify(row).includes(AWS));
    assert.deepEqual(Object.keys(row), [
      "session_id",
      "tool_name",
      "tool_args_hash",
      "outcome",
      "duration_ms",
      "trace_id",
      "captured_at_ns",
      "cwd",
      "error",
    ]);
  },
});

Deno.test({
  name: "completePayload() gives Stop the session's counts and cumulative duration",
  permissions: "none",
  fn() {
    const draft = buildDraft({ session_id: SESSION, cwd: "/p", hook_event_name: "Stop" }, CONTEXT);
    const row = completePayload(frameFor(draft), {
      promptCount: 2,
      toolUseCount: 5,
      firstCapturedAtNs: CONTEXT.capturedAtNs - 1_500_000_000,
    });
    assert.equal(row.prompt_count, 2);
    assert.equal(row.tool_use_count, 5);
    assert.equal(row.duration_ms, 1500);
    assert.equal(row.last_assistant_message_redacted, null);
  },
});

Deno.test({
  name: "redactionFailedDraft() carries no content at all",
  permissions: "none",
  fn() {
    const draft = redactionFailedDraft(SESSION, CONTEXT, { error: new SyntaxError(`bad ${AWS}`) });
    assert.deepEqual(draft.payload, {
      session_id: SESSION,
      error: "redactor threw SyntaxError",
      trace_id: CONTEXT.traceId,
      captured_at_ns: CONTEXT.capturedAtNs,
    });
  },
});

Deno.test({
  name: "isTaskNotification() is true only for a prompt that is one notification block",
  permissions: "none",
  fn() {
    assert.ok(
      isTaskNotification("<task-notification>\n<status>done</status>\n</task-notification>\n"),
    );
    assert.ok(!isTaskNotification("see <task-notification>x</task-notification> above"));
    assert.ok(
      !isTaskNotification(
        "<task-notification>a</task-notification><task-notification>b</task-notification>",
      ),
    );
    assert.ok(!isTaskNotification("plain prompt"));
  },
});
