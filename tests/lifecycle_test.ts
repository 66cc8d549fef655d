/**
 * The lifecycle events as data: each real payload the pinned CLI sent
 * (`tests/claude/observed/`) parses, drafts and completes into its row kind,
 * with every string redacted and nothing unknown left over.
 *
 * @module
 */

import assert from "node:assert/strict";
import { HOOK_EVENTS, ROW_KINDS } from "../lib/kinds.ts";
import { LIFECYCLE_EVENTS, lifecycleSpec, MAX_LABEL_LENGTH } from "../lib/lifecycle.ts";
import { parseHookPayload } from "../lib/payload.ts";
import { buildDraft } from "../lib/draft.ts";
import { completePayload, PAYLOAD_FIELDS } from "../lib/rows.ts";
import type { Frame } from "../lib/frame.ts";
import { blake3Hex, canonicalJson } from "../lib/hash.ts";

const OBSERVED: Array<[file: string, kind: string]> = [
  ["session_start_startup", ROW_KINDS.sessionStarted],
  ["session_start_resume", ROW_KINDS.sessionStarted],
  ["session_start_compact", ROW_KINDS.sessionStarted],
  ["session_end", ROW_KINDS.sessionEnded],
  ["subagent_start", ROW_KINDS.subagentStarted],
  ["subagent_stop", ROW_KINDS.subagentStopped],
  ["pre_compact", ROW_KINDS.compactStarted],
  ["post_compact", ROW_KINDS.compactCompleted],
  ["stop_failure", ROW_KINDS.turnFailed],
  ["permission_request", ROW_KINDS.permissionRequested],
  ["permission_denied", ROW_KINDS.permissionDenied],
  ["config_change", ROW_KINDS.configChanged],
  ["instructions_loaded", ROW_KINDS.instructionsLoaded],
  ["cwd_changed", ROW_KINDS.cwdChanged],
];

const AWS_KEY = "AKIAZ7QH3KX2M4PLW9RT";
const GITHUB_TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";
const CONTEXT = { traceId: "0123456789abcdef0123456789abcdef", capturedAtNs: 1_700_000_000_000 };

async function observed(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(
    await Deno.readTextFile(new URL(`./claude/observed/${name}.json`, import.meta.url)),
  );
}

function frameOf(kind: string, payload: Record<string, unknown>): Frame {
  return {
    v: 1,
    id: "0123456789abcdef0123456789abcdef",
    kind: kind as Frame["kind"],
    payload,
    telemetry: { hook_kind: "x", started_at_ns: 1, ended_at_ns: 2, outcome: "ok", redactions: {} },
  };
}

/** Puts a secret into every string of a payload but its ids, at any depth. */
function seeded(value: unknown, key = ""): unknown {
  if (typeof value === "string") {
    return ["session_id", "hook_event_name", "transcript_path"].includes(key)
      ? value
      : `${value} ${AWS_KEY}`;
  }
  if (Array.isArray(value)) return value.map((item) => seeded(item));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, seeded(v, k)]));
  }
  return value;
}

Deno.test("every lifecycle event has a command-line name and a row layout", {
  permissions: "none",
}, () => {
  const names = Object.values(HOOK_EVENTS) as string[];
  for (const [event, spec] of Object.entries(LIFECYCLE_EVENTS)) {
    assert.ok(names.includes(event), `${event} is a hook event`);
    assert.ok(PAYLOAD_FIELDS[spec.kind], `${spec.kind} has fields`);
  }
  assert.equal(Object.keys(LIFECYCLE_EVENTS).length, 12);
  assert.equal(lifecycleSpec("Stop"), undefined);
});

Deno.test("lifecycle payloads Claude Code really sent become their rows, no field unknown", {
  permissions: { read: true },
}, async (t) => {
  for (const [file, kind] of OBSERVED) {
    await t.step(file, async () => {
      const raw = await observed(file);
      const parsed = parseHookPayload(raw, raw.hook_event_name as never);
      assert.deepEqual(parsed.unknownKeys, []);
      const draft = buildDraft(parsed.payload, CONTEXT);
      assert.equal(draft.kind, kind);
      const row = completePayload(frameOf(draft.kind, draft.payload), {
        promptCount: 2,
        toolUseCount: 3,
        firstCapturedAtNs: CONTEXT.capturedAtNs - 5_000_000,
      });
      assert.equal(row.session_id, raw.session_id);
      assert.equal(row.cwd, raw.cwd);
      assert.equal(row.trace_id, CONTEXT.traceId);
      assert.ok(!("tool_args_redacted" in row), "redacted arguments never stored");
      assert.deepEqual(Object.keys(row), PAYLOAD_FIELDS[draft.kind].filter((f) => f in row));
    });
  }
});

Deno.test(
  "lifecycle rows keep what an auditor asks for",
  { permissions: { read: true } },
  async () => {
    const row = async (file: string) => {
      const raw = await observed(file);
      const draft = buildDraft(
        parseHookPayload(raw, raw.hook_event_name as never).payload,
        CONTEXT,
      );
      return completePayload(frameOf(draft.kind, draft.payload), {
        promptCount: 2,
        toolUseCount: 3,
        firstCapturedAtNs: CONTEXT.capturedAtNs - 5_000_000,
      });
    };
    assert.equal((await row("session_start_resume")).source, "resume");
    assert.equal((await row("session_start_compact")).model, "claude-opus-5-5");
    const end = await row("session_end");
    assert.deepEqual([end.reason, end.prompt_count, end.tool_use_count, end.duration_ms], [
      "other",
      2,
      3,
      5,
    ]);
    const denied = await row("permission_denied");
    assert.equal(denied.tool_name, "Bash");
    assert.equal(denied.reason_redacted, "Classifier unavailable");
    assert.equal(
      denied.tool_args_hash,
      blake3Hex(canonicalJson({ command: "rm -rf /tmp/nothing-here-zz" })),
    );
    assert.match(String(denied.tool_use_id), /^toolu_/);
    const request = await row("permission_request");
    assert.equal(request.tool_name, "WebFetch");
    assert.equal(request.permission_mode, "default");
    assert.ok(!("permission_suggestions" in request));
    const config = await row("config_change");
    assert.equal(config.source, "project_settings");
    assert.match(String(config.file_path), /\.claude\/settings\.json$/);
    const failed = await row("stop_failure");
    assert.equal(failed.error, "unknown");
    assert.match(String(failed.last_assistant_message_redacted), /^API Error: 400/);
    const cd = await row("cwd_changed");
    assert.match(String(cd.new_cwd), /\/sub$/);
    const loaded = await row("instructions_loaded");
    assert.deepEqual([loaded.memory_type, loaded.load_reason], ["Project", "session_start"]);
  },
);

Deno.test("lifecycle drafts hold no secret from any field, label or tool argument", {
  permissions: { read: true },
}, async (t) => {
  for (const [file] of OBSERVED) {
    await t.step(file, async () => {
      const raw = seeded(await observed(file)) as Record<string, unknown>;
      if (raw.tool_input) {
        (raw.tool_input as Record<string, unknown>).token = GITHUB_TOKEN;
      }
      const parsed = parseHookPayload(raw, raw.hook_event_name as never);
      const draft = buildDraft(parsed.payload, CONTEXT);
      const text = JSON.stringify(draft.payload);
      assert.ok(!text.includes(AWS_KEY), text);
      assert.ok(!text.includes(GITHUB_TOKEN), text);
      assert.ok(draft.matchCount > 0);
    });
  }
});

Deno.test(
  "a lifecycle label longer than 64 characters is cut, a field of the wrong type left out",
  {
    permissions: "none",
  },
  () => {
    const payload = {
      session_id: "d653ffa3-fd31-4172-9b32-8b6724c02447",
      cwd: "/p",
      hook_event_name: "SessionStart",
      source: "x".repeat(500),
      model: { not: "a string" },
    };
    const draft = buildDraft(parseHookPayload(payload, "SessionStart").payload, CONTEXT);
    assert.equal(String(draft.payload.source).length, MAX_LABEL_LENGTH);
    assert.ok(!("model" in draft.payload));
  },
);

Deno.test("a permission event without its tool is refused", { permissions: "none" }, () => {
  const payload = {
    session_id: "d653ffa3-fd31-4172-9b32-8b6724c02447",
    cwd: "/p",
    hook_event_name: "PermissionDenied",
    reason: "no",
  };
  assert.throws(() => parseHookPayload(payload, "PermissionDenied"), /tool_name/);
});
