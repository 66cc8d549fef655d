/**
 * The session around the turns, under the real Claude Code CLI: a scripted session with a subagent,
 * a denied tool, a settings change, a resume and a compaction gives the expected lifecycle rows in
 * one trace, with no secret in them, and leaves Claude Code's answers as they are without capture.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ROW_KINDS } from "../lib/kinds.ts";
import type { StoredRow } from "../lib/rows.ts";
import { scriptBlock } from "./claude/model_server.ts";
import { ensureClaudeCli } from "./claude/run_turn.ts";
import { runScenario, type ScenarioOptions } from "./claude/scenario.ts";

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
function randomFrom(alphabet: string, length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** Fresh each run, so a hit in the store can only come from this run. */
const SECRETS = {
  github: `ghp_${randomFrom(ALNUM, 36)}`,
  anthropic: `sk-ant-api03-${randomFrom(ALNUM, 48)}`,
};

/**
 * A script the Bash tool runs: it widens the project's permissions while the session is open,
 * keeping the rest of the file (our hooks live there).
 */
const TOUCH_SETTINGS = `sleep 1
node -e '
const fs = require("fs");
const path = ".claude/settings.json";
const settings = fs.existsSync(path) ? JSON.parse(fs.readFileSync(path, "utf8")) : {};
settings.permissions = { allow: ["Read"] };
fs.writeFileSync(path, JSON.stringify(settings, null, 2) + "\\n");
'
sleep 2
`;

function session(capture: boolean): ScenarioOptions {
  const sessionId = crypto.randomUUID();
  const subagent = scriptBlock([[{ text: `Subagent saw ${SECRETS.anthropic}.` }]]);
  return {
    capture,
    expectedRows: capture ? 20 : 0,
    files: { "CLAUDE.md": "# Rules\nBe brief.\n", "touch-settings.sh": TOUCH_SETTINGS },
    turns: () => [
      {
        sessionId,
        extraArgs: ["--permission-mode", "auto"],
        allowedTools: ["Read", "Bash(sh touch-settings.sh)"],
        prompt: `Deploy with ${SECRETS.github}.\n${
          scriptBlock([
            [{ tool: "Bash", input: { command: "sh touch-settings.sh" } }],
            [{ tool: "Bash", input: { command: `rm -rf /tmp/cyberos-nothing-${SECRETS.github}` } }],
            [{ text: "First done." }],
          ])
        }`,
      },
      {
        resume: sessionId,
        allowedTools: ["Read", "Agent"],
        prompt: `Again.\n${
          scriptBlock([
            [{
              tool: "Agent",
              input: { description: "look", subagent_type: "general-purpose", prompt: subagent },
            }],
            [{ text: "Second done." }],
          ])
        }`,
      },
      { resume: sessionId, prompt: "/compact" },
    ],
  };
}

function kinds(rows: StoredRow[]): string[] {
  return rows.map((row) => row.kind.replace("memory.claude_", ""));
}

Deno.test("claude -p session with a subagent, a denied tool, a settings change, a resume and a compaction: its lifecycle rows, one trace, no secret", async () => {
  await ensureClaudeCli();
  const result = await runScenario(session(true));
  const baseline = await runScenario(session(false));
  // First lines only: a subagent's completion may arrive before `claude -p` exits and add a
  // "Done." turn, with or without our hooks.
  const answers = (turns: { stdout: string }[]) => turns.map((t) => t.stdout.split("\n", 1)[0]);
  assert.deepEqual(
    answers(result.turns),
    answers(baseline.turns),
    "Claude Code's answers are the same without capture",
  );
  assert.equal(result.verify.code, 0, result.verify.stdout + result.verify.stderr);
  assert.equal(result.rows.length, result.payloads.length, "one row per hook run");
  const rows = result.rows;
  const all = kinds(rows);
  const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.payload);

  assert.deepEqual(
    of(ROW_KINDS.sessionStarted).map((p) => p.source).sort(),
    ["compact", "resume", "resume", "startup"],
    all.join(" "),
  );
  assert.ok(
    of(ROW_KINDS.instructionsLoaded).every((p) => String(p.file_path).endsWith("CLAUDE.md")),
  );
  assert.ok(of(ROW_KINDS.instructionsLoaded).length >= 1);
  const denied = of(ROW_KINDS.permissionDenied);
  assert.equal(denied.length, 1, all.join(" "));
  assert.equal(denied[0]!.tool_name, "Bash");
  assert.match(String(denied[0]!.tool_args_hash), /^[0-9a-f]{64}$/);
  assert.equal(denied[0]!.permission_mode, "auto");
  const changed = of(ROW_KINDS.configChanged);
  assert.ok(changed.length >= 1, all.join(" "));
  assert.equal(changed[0]!.source, "project_settings");
  assert.equal(of(ROW_KINDS.subagentStarted).length, 1);
  assert.equal(of(ROW_KINDS.subagentStarted)[0]!.agent_type, "general-purpose");
  assert.ok(of(ROW_KINDS.subagentStopped).length >= 1);
  assert.deepEqual(of(ROW_KINDS.compactStarted).map((p) => p.trigger), ["manual"]);
  assert.deepEqual(of(ROW_KINDS.compactCompleted).map((p) => p.trigger), ["manual"]);
  const ended = of(ROW_KINDS.sessionEnded);
  assert.equal(ended.length, 3, "one SessionEnd per claude -p run");
  const last = ended.at(-1)!;
  assert.equal(last.prompt_count, 2, "`/compact` is a command, not a prompt: no UserPromptSubmit");
  assert.ok(Number(last.tool_use_count) >= 2, `tool_use_count ${last.tool_use_count}`);

  const sessions = new Set(rows.map((row) => row.payload.session_id));
  assert.equal(sessions.size, 1, "one session");
  assert.equal(new Set(rows.map((row) => row.payload.trace_id)).size, 1, "one trace");
  for (const [name, secret] of Object.entries(SECRETS)) {
    assert.ok(!result.storeText.includes(secret), `the ${name} secret is in the store`);
  }
});
