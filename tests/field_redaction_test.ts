/**
 * Every free-text field that reaches a row or a spool file is redacted, not
 * only the prompt, message and tool argument values: `cwd`, `tool_name`, the
 * ids, the agent fields, the error line and every object key inside
 * `tool_input`; and a key that names a secret hides its value (M2). Checked
 * on the draft, in the spool file the real hook writes, and in the rows a
 * real daemon stores.
 *
 * @module
 */

import assert from "node:assert/strict";
import { buildDraft } from "../lib/draft.ts";
import { parseHookPayload } from "../lib/payload.ts";
import { spoolDir } from "../lib/paths.ts";
import failureMcp from "./claude/observed/post_tool_use_failure_mcp.json" with { type: "json" };
import userPromptSubmit from "./claude/observed/user_prompt_submit.json" with { type: "json" };
import stopPayload from "./claude/observed/stop.json" with { type: "json" };
import { runHook, startTestDaemon, waitForRows } from "./_daemon.ts";

const EMAIL = "ana.nguyen@mailbox.vn";
const GITHUB = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5";
const AWS = "AKIAZ7QXJ3KD5MNB2PLW";
const PASSWORD = "Pw-OLPK8bDVGD77sfRg";

/** Secrets planted in every field other than the prompt, message and argument values. */
const SECRETS = [
  EMAIL,
  GITHUB,
  AWS,
  PASSWORD,
  "lan@mailbox.vn",
  "hoa@mailbox.vn",
  "binh@mailbox.vn",
];

const OBSERVED: Record<string, Record<string, unknown>> = {
  post_tool_use_failure_mcp: failureMcp,
  user_prompt_submit: userPromptSubmit,
  stop: stopPayload,
};

/** A copy of a payload Claude Code really sent (imported: the pure tests read no file). */
function observed(name: string): Record<string, unknown> {
  return structuredClone(OBSERVED[name]!);
}

/** A real observed tool payload with a secret in each field M2 names. */
function hostileToolPayload(): Record<string, unknown> {
  const base = observed("post_tool_use_failure_mcp");
  return {
    ...base,
    cwd: `/Users/ana/Library/CloudStorage/GoogleDrive-${EMAIL}/My Drive/project`,
    tool_name: `mcp__srv__${GITHUB}`,
    tool_use_id: `toolu_${AWS}`,
    prompt_id: `id of lan@mailbox.vn`,
    agent_id: `a ${GITHUB}`,
    agent_type: "reviewer for hoa@mailbox.vn",
    error: `failed for binh@mailbox.vn\nsecond line`,
    tool_input: {
      [`note ${EMAIL}`]: "plain",
      nested: [{ [GITHUB]: 1, db: { password: PASSWORD } }],
      headers: { "X-Api-Key": PASSWORD },
    },
  };
}

function assertNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds ${secret}`);
}

Deno.test({
  name: "buildDraft() redacts cwd, tool_name, ids, agent fields, error and tool_input keys",
  permissions: "none",
  fn() {
    const payload = hostileToolPayload();
    const parsed = parseHookPayload(
      { ...payload, hook_event_name: "PostToolUseFailure" },
      "PostToolUseFailure",
    );
    const draft = buildDraft(parsed.payload, { traceId: "ab".repeat(16), capturedAtNs: 1 });
    assertNoSecret(JSON.stringify(draft.payload), "the draft");
    const out = draft.payload;
    assert.equal(out.cwd, "/Users/ana/Library/CloudStorage/<EMAIL>/My Drive/project");
    assert.equal(out.tool_name, "mcp__srv__<GH_PAT>");
    assert.deepEqual(out.tool_args_redacted, {
      "note <EMAIL>": "plain",
      nested: [{ "<GH_PAT>": 1, db: { password: "<SECRET>" } }],
      headers: { "X-Api-Key": "<SECRET>" },
    });
    assert.equal(draft.counts.secret_key_name, 2);
  },
});

Deno.test({
  name: "buildDraft() redacts cwd and prompt_id of a prompt and cwd of a Stop",
  permissions: "none",
  fn() {
    const prompt = observed("user_prompt_submit");
    const stop = observed("stop");
    const cwd = `/home/ana/GoogleDrive-${EMAIL}/p`;
    const context = { traceId: "ab".repeat(16), capturedAtNs: 1 };
    const drafts = [
      buildDraft(
        parseHookPayload({ ...prompt, cwd, prompt_id: `x ${AWS}` }, "UserPromptSubmit").payload,
        context,
      ),
      buildDraft(parseHookPayload({ ...stop, cwd }, "Stop").payload, context),
    ];
    for (const draft of drafts) {
      assertNoSecret(JSON.stringify(draft.payload), draft.kind);
      assert.equal(draft.payload.cwd, "/home/ana/<EMAIL>/p");
    }
    assert.equal(drafts[0]!.payload.redaction_match_count, drafts[0]!.matchCount);
  },
});

Deno.test("hook: no field of a hostile tool payload reaches the spool file or the store in clear", async () => {
  const payload = JSON.stringify(hostileToolPayload());
  const daemon = await startTestDaemon();
  try {
    // The daemon down first: the frame waits in the spool, as the hook wrote it.
    const down = { socket: `${daemon.dir}/nobody.sock`, traceDir: daemon.traceDir };
    const run = await runHook(down, "posttoolusefailure", payload);
    assert.equal(run.code, 0);
    assertNoSecret(run.stderr, "stderr");
    const spooled = [...Deno.readDirSync(spoolDir(daemon.traceDir))];
    assert.equal(spooled.length, 1);
    const bytes = await Deno.readFile(`${spoolDir(daemon.traceDir)}/${spooled[0]!.name}`);
    assertNoSecret(new TextDecoder().decode(bytes), "the spool file");
    await runHook(daemon, "posttoolusefailure", payload);
    const rows = await waitForRows(daemon.db, 2);
    for (const row of rows) assertNoSecret(JSON.stringify(row), `row ${row.seq}`);
    const store = new TextDecoder().decode(await Deno.readFile(daemon.db));
    assertNoSecret(store, "the store file");
  } finally {
    await daemon.stop();
  }
});

Deno.test("hook: malformed stdin holding a secret gets a WARN with the position only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const paths = { socket: `${dir}/capture.sock`, traceDir: `${dir}/traces` };
    for (
      const input of [`{"prompt": ${PASSWORD}}`, `{"prompt": "x"} ${PASSWORD}`, `{"k": "${GITHUB}`]
    ) {
      const run = await runHook(paths, "userpromptsubmit", input);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /WARN invalid_payload: Cannot parse stdin: not JSON/);
      for (const secret of [PASSWORD, GITHUB, PASSWORD.slice(0, 6), GITHUB.slice(0, 8)]) {
        assert.ok(!run.stderr.includes(secret), `stderr quotes ${secret}: ${run.stderr}`);
      }
    }
    const wrongEvent = await runHook(
      paths,
      "userpromptsubmit",
      JSON.stringify({ ...(observed("user_prompt_submit")), hook_event_name: PASSWORD }),
    );
    assert.match(wrongEvent.stderr, /hook_event_name is not "UserPromptSubmit"/);
    assert.ok(!wrongEvent.stderr.includes(PASSWORD));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hook: an unknown top-level key is named only in Claude Code's shape, and redacted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const paths = { socket: `${dir}/capture.sock`, traceDir: `${dir}/traces` };
    const payload = {
      ...(observed("user_prompt_submit")),
      new_field: 1,
      [`x ${PASSWORD}`]: 1,
    };
    const run = await runHook(paths, "userpromptsubmit", JSON.stringify(payload));
    assert.match(run.stderr, /WARN unknown_fields: ignored .*new_field.*, 1 other/);
    assert.ok(!run.stderr.includes(PASSWORD));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
