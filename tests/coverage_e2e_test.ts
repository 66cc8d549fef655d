/**
 * `deno task coverage` as a user runs it (the launcher, its own permission set), against the store
 * a real daemon filled from the real Claude Code CLI's hooks and the transcripts that CLI wrote:
 * 100 % on a clean session; exactly the missing items when rows are deleted from a copy of the
 * store, or when the hook of one event never sends; and what it says about a session without a
 * transcript, a session without rows, and bad usage.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { blake3Hex } from "../lib/hash.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { lifecycleSpecOfKind } from "../lib/lifecycle.ts";
import type { StoredRow } from "../lib/rows.ts";
import { fixture, readRows, ROOT, runHook, startTestDaemon, waitForRows } from "./_daemon.ts";
import { runTask, type TaskResult } from "./_launcher.ts";
import { scriptBlock, type ScriptStep } from "./claude/model_server.ts";
import { ensureClaudeCli, type TempProject } from "./claude/run_turn.ts";
import { type KeptScenario, runScenario, type ScenarioOptions } from "./claude/scenario.ts";

const ISO_SECOND = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

function prompt(text: string, steps: ScriptStep[]): string {
  return `${text}\n${scriptBlock(steps)}`;
}

function coverage(args: string[], home: string, db: string): Promise<TaskResult> {
  return runTask(["coverage", ...args], { root: ROOT, home, env: { CYBEROS_MEMORY_DB: db } });
}

/** An ISO time to the second, as coverage prints it. */
function isoSecond(timestamp: string): string {
  return new Date(Math.floor(Date.parse(timestamp) / 1000) * 1000).toISOString().replace(
    ".000Z",
    "Z",
  );
}

/** The session's transcript entries, as Claude Code wrote them. */
async function transcript(home: string, sessionId: string): Promise<Record<string, unknown>[]> {
  const projects = `${home}/.claude/projects`;
  for await (const folder of Deno.readDir(projects)) {
    const path = `${projects}/${folder.name}/${sessionId}.jsonl`;
    const text = await Deno.readTextFile(path).catch(() => undefined);
    if (text !== undefined) return text.trim().split("\n").map((line) => JSON.parse(line));
  }
  throw new Error(`no transcript of ${sessionId} under ${projects}`);
}

/** The payloads the recorder hook kept (Claude Code's own account of the hooks it ran). */
async function recorded(project: TempProject): Promise<Record<string, unknown>[]> {
  const payloads: Record<string, unknown>[] = [];
  for await (const entry of Deno.readDir(`${project.root}/payloads`)) {
    payloads.push(JSON.parse(await Deno.readTextFile(`${project.root}/payloads/${entry.name}`)));
  }
  return payloads;
}

async function filesIn(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    files[entry.name] = blake3Hex(await Deno.readFile(`${dir}/${entry.name}`));
  }
  return files;
}

async function scenario(options: ScenarioOptions): Promise<void> {
  await ensureClaudeCli();
  const result = await runScenario(options);
  const turnRows = result.rows.filter((row) => lifecycleSpecOfKind(row.kind) === undefined);
  assert.equal(turnRows.length, options.expectedRows, "prompt, tool and Stop rows stored");
  for (const turn of result.turns) assert.equal(turn.code, 0, turn.stderr);
}

function rowOf(rows: StoredRow[], test: (row: StoredRow) => boolean): StoredRow {
  const row = rows.find(test);
  assert.ok(row !== undefined, "row to delete");
  return row;
}

Deno.test("coverage: 100 % on a clean session (resume, failing Bash, subagent); exactly the rows deleted from a copy are missing", async () => {
  const sessionId = crypto.randomUUID();
  const inner = scriptBlock([
    [{ tool: "Bash", input: { command: "echo from-subagent", description: "inner" } }],
    [{ text: "Subagent finished." }],
  ]);
  let checked = false;
  await scenario({
    expectedRows: 9,
    turns: () => [
      {
        sessionId,
        allowedTools: ["Bash", "Agent"],
        prompt: prompt("First, with a secret-looking word: hunter2-coverage.", [
          [{ tool: "Bash", input: { command: "echo coverage-one" } }],
          [{ tool: "Bash", input: { command: "exit 3" } }],
          [{
            tool: "Agent",
            input: {
              description: "Run one command",
              prompt: `Run it.\n${inner}`,
              subagent_type: "general-purpose",
              run_in_background: false,
            },
          }],
          [{ text: "First done." }],
        ]),
      },
      {
        resume: sessionId,
        prompt: prompt("Second.", [
          [{ tool: "Bash", input: { command: "echo coverage-two" } }],
          [{ text: "Second done." }],
        ]),
      },
    ],
    inspect: async ({ db, project }: KeptScenario) => {
      const storeDir = db.slice(0, db.lastIndexOf("/"));
      const before = await filesIn(storeDir);
      const clean = await coverage([], project.home, db);
      assert.equal(clean.stderr, "");
      assert.equal(clean.code, 0, clean.stdout);
      assert.deepEqual(clean.stdout.trimEnd().split("\n"), [
        `session ${sessionId}  ${project.project}`,
        "  prompts     2/2",
        "  tool calls  5/5 (success 4/4, error 1/1)",
        "  turns       2/2",
        "coverage: 1 session compared, 9/9 captured (100 %), nothing missing",
      ]);
      assert.deepEqual(await filesIn(storeDir), before, "coverage changed the store's files");

      // Delete a prompt, the failing tool call and a Stop from a copy (a folder with a space).
      const rows = readRows(db);
      const prompts = rows.filter((r) => r.kind === ROW_KINDS.prompt);
      const secondPrompt = rowOf(prompts, (r) => r !== prompts[0]);
      const failure = rowOf(rows, (r) => r.payload.outcome === "error");
      const firstStop = rowOf(rows, (r) => r.kind === ROW_KINDS.sessionCompleted);
      const copyDir = `${project.root}/store copy`;
      await Deno.mkdir(copyDir);
      const copy = `${copyDir}/capture.db`;
      await Deno.copyFile(db, copy);
      const sql = new DatabaseSync(copy);
      sql.exec("DROP TRIGGER rows_no_delete");
      sql.prepare("DELETE FROM rows WHERE seq IN (?, ?, ?)").run(
        secondPrompt.seq,
        failure.seq,
        firstStop.seq,
      );
      sql.close();

      const entries = await transcript(project.home, sessionId);
      const promptAt = entries.find((e) =>
        e.promptId === secondPrompt.payload.prompt_id && typeof e.promptSource === "string"
      )?.timestamp;
      const failureAt = entries.find((e) =>
        e.type === "user" &&
        JSON.stringify(e.message).includes(`"tool_use_id":"${failure.payload.tool_use_id}"`)
      )?.timestamp;
      const turnEndAt = entries.find((e) =>
        e.type === "assistant" && JSON.stringify(e.message).includes("First done.")
      )?.timestamp;
      const gaps = await coverage(["--session", sessionId.slice(0, 8)], project.home, copy);
      assert.equal(gaps.code, 1, gaps.stdout + gaps.stderr);
      assert.deepEqual(gaps.stdout.trimEnd().split("\n"), [
        `session ${sessionId}  ${project.project}`,
        "  prompts     1/2",
        "  tool calls  4/5 (success 4/4, error 0/1)",
        "  turns       1/2",
        `  missing tool call ${failure.payload.tool_use_id} (Bash, error) at ${
          isoSecond(String(failureAt))
        }`,
        `  missing turn end (Stop) at ${isoSecond(String(turnEndAt))}`,
        `  missing prompt at ${isoSecond(String(promptAt))}`,
        "coverage: 1 session compared, 6/9 captured (66.6 %), 3 missing",
      ]);
      for (const text of ["hunter2", "coverage-one", "SCRIPT", "First done", "Second."]) {
        assert.ok(!gaps.stdout.includes(text) && !clean.stdout.includes(text), text);
      }
      checked = true;
    },
  });
  assert.ok(checked, "inspect ran");
});

Deno.test("coverage: a hook that exits before sending leaves exactly its tool call missing", async () => {
  const sessionId = crypto.randomUUID();
  let checked = false;
  await scenario({
    expectedRows: 3,
    prepare: async (project: TempProject) => {
      // The PostToolUseFailure command stops before the hook runs, as a hook killed early would.
      const path = `${project.project}/.claude/settings.json`;
      const settings = JSON.parse(await Deno.readTextFile(path));
      const failure = settings.hooks.PostToolUseFailure[0].hooks[0];
      failure.command = `exit 0; ${failure.command}`;
      await Deno.writeTextFile(path, JSON.stringify(settings, null, 2) + "\n");
    },
    turns: () => [{
      sessionId,
      prompt: prompt("Fail once.", [
        [{ tool: "Bash", input: { command: "echo fine" } }],
        [{ tool: "Bash", input: { command: "exit 4" } }],
        [{ text: "Failed once." }],
      ]),
    }],
    inspect: async ({ db, project }: KeptScenario) => {
      const failures = (await recorded(project)).filter((p) =>
        p.hook_event_name === "PostToolUseFailure"
      );
      assert.equal(failures.length, 1, "Claude Code ran the failure hooks once");
      const result = await coverage([], project.home, db);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      const lines = result.stdout.trimEnd().split("\n");
      assert.deepEqual(lines.slice(0, 4), [
        `session ${sessionId}  ${project.project}`,
        "  prompts     1/1",
        "  tool calls  1/2 (success 1/1, error 0/1)",
        "  turns       1/1",
      ]);
      const missing = /^ {2}missing tool call (\S+) \(Bash, error\) at (\S+)$/.exec(lines[4] ?? "");
      assert.ok(missing, lines[4]);
      assert.equal(missing[1], failures[0]!.tool_use_id);
      assert.match(missing[2]!, ISO_SECOND);
      assert.deepEqual(lines.slice(5), [
        "coverage: 1 session compared, 3/4 captured (75 %), 1 missing",
      ]);
      checked = true;
    },
  });
  assert.ok(checked, "inspect ran");
});

Deno.test("coverage: a stored session without a transcript is not missing; a captured project's session without rows is", async () => {
  const daemon = await startTestDaemon();
  const home = await Deno.makeTempDir({ prefix: "cyberos-coverage-" });
  try {
    const run = await runHook(daemon, "userpromptsubmit", await fixture("user_prompt_submit"));
    assert.equal(run.code, 0);
    const [row] = await waitForRows(daemon.db, 1);
    const stored = String(row!.payload.session_id);
    const noTranscript = await coverage([], home, daemon.db);
    assert.equal(noTranscript.code, 0, noTranscript.stderr);
    assert.deepEqual(noTranscript.stdout.trimEnd().split("\n"), [
      `session ${stored}  ${row!.payload.cwd}`,
      `  no transcript under ${home}/.claude/projects: not compared (Claude Code deletes transcripts after 30 days by default)`,
      "coverage: 0 sessions compared, 0/0 captured, nothing missing",
    ]);

    // A session in the same project that left no row at all.
    const folder = `${home}/.claude/projects/${
      String(row!.payload.cwd).replace(/[^a-zA-Z0-9]/g, "-")
    }`;
    await Deno.mkdir(folder, { recursive: true });
    const unseen = "0e1d2c3b-4a59-4687-9a8b-7c6d5e4f3a21";
    await Deno.copyFile(
      `${ROOT}/tests/fixtures/transcripts/refused_compact_api_error.jsonl`,
      `${folder}/${unseen}.jsonl`,
    );
    const gaps = await coverage([], home, daemon.db);
    assert.equal(gaps.code, 1, gaps.stderr);
    const lines = gaps.stdout.trimEnd().split("\n");
    assert.ok(lines.includes(`session ${unseen}`), gaps.stdout);
    assert.ok(lines.includes("  the store holds no row of this session"), gaps.stdout);
    assert.ok(lines.includes("  prompts     0/3"), gaps.stdout);
    assert.equal(lines.at(-1), "coverage: 1 session compared, 0/7 captured (0 %), 7 missing");
  } finally {
    await daemon.stop();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("coverage: --help, bad usage, an unknown session, a missing store and a path with a comma", async (t) => {
  const home = await Deno.makeTempDir({ prefix: "cyberos-coverage-" });
  const db = `${home}/none/capture.db`;
  try {
    const cases: [args: string[], env: Record<string, string>, code: number, out: RegExp][] = [
      [["--help"], {}, 0, /^usage: deno task coverage \[--session ID\] \[--since TIME\]/],
      [["-h"], {}, 0, /^usage: deno task coverage/],
      [["--json"], {}, 2, /^cyberos-memory coverage: unknown argument "--json"/],
      [["--since", "soon"], {}, 2, /^cyberos-memory coverage: --since needs an ISO time/],
      [[], {}, 1, /^cyberos-memory coverage: .*\/none\/capture\.db: no store there yet/],
      [[], { CYBEROS_MEMORY_DB: `${home}/a,b/capture.db` }, 1, /holding a comma/],
      [
        [],
        { CLAUDE_CONFIG_DIR: "relative" },
        1,
        /CLAUDE_CONFIG_DIR: "relative" is not an absolute path/,
      ],
    ];
    for (const [args, env, code, out] of cases) {
      await t.step(`${JSON.stringify(args)} ${JSON.stringify(env)} → ${code}`, async () => {
        const result = await runTask(["coverage", ...args], {
          root: ROOT,
          home,
          env: { CYBEROS_MEMORY_DB: db, ...env },
        });
        assert.equal(result.code, code, result.stdout + result.stderr);
        assert.match(code === 0 ? result.stdout : result.stderr, out);
      });
    }
    await t.step("an unknown --session exits 1", async () => {
      const daemon = await startTestDaemon();
      try {
        await runHook(daemon, "stop", await fixture("stop_without_last_assistant_message"));
        await waitForRows(daemon.db, 1);
        const result = await coverage(["--session", "ffff"], home, daemon.db);
        assert.equal(result.code, 1);
        assert.match(
          result.stderr,
          /^cyberos-memory coverage: no session ffff in the store or under Claude Code's projects folder\n$/,
        );
      } finally {
        await daemon.stop();
      }
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
