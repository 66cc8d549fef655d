/**
 * Tool subjects, opt-in: `toolSubject()` says what a call touched, the draft
 * redacts it whole before bounding it, the installed command carries the mode,
 * and under the real CLI the subjects appear redacted with
 * `install --tool-detail subject` and nowhere without it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { boundSubject, MAX_SUBJECT_LENGTH, toolSubject } from "../lib/subject.ts";
import { buildDraft } from "../lib/draft.ts";
import { parseHookPayload } from "../lib/payload.ts";
import { buildHookCommand, parseHookCommand } from "../lib/hook_command.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { scriptBlock } from "./claude/model_server.ts";
import { ensureClaudeCli } from "./claude/run_turn.ts";
import { runScenario } from "./claude/scenario.ts";

const CWD = "/home/ana/src/shop";
const TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";

const CASES: Array<[tool: string, input: Record<string, unknown>, subject: string | undefined]> = [
  ["Bash", { command: "npm test -- --watch=false" }, "npm test -- --watch=false"],
  ["Bash", { command: "cd api\nmake build" }, "cd api ⏎ make build"],
  ["Read", { file_path: `${CWD}/src/app.ts` }, "src/app.ts"],
  ["Edit", { file_path: "/etc/hosts", old_string: "a", new_string: "b" }, "/etc/hosts"],
  ["Write", { file_path: `${CWD}-other/x.ts`, content: "x" }, `${CWD}-other/x.ts`],
  ["NotebookEdit", { notebook_path: `${CWD}/n.ipynb`, new_source: "" }, "n.ipynb"],
  [
    "WebFetch",
    { url: "https://api.example.com/v1/users?token=abc#top", prompt: "read" },
    "https://api.example.com/v1/users",
  ],
  ["WebSearch", { query: "deno permissions" }, "deno permissions"],
  ["Grep", { pattern: "TODO", path: `${CWD}/lib` }, "TODO in lib"],
  ["Glob", { pattern: "**/*.ts" }, "**/*.ts"],
  ["mcp__github__create_issue", { title: "x" }, "github/create_issue"],
  ["mcp__srv__a__b", {}, "srv/a__b"],
  ["TodoWrite", { todos: [] }, undefined],
  ["Bash", { command: 42 }, undefined],
];

Deno.test(
  "toolSubject() says what each kind of tool touched",
  { permissions: "none" },
  async (t) => {
    for (const [tool, input, subject] of CASES) {
      await t.step(`${tool} ${JSON.stringify(input).slice(0, 40)}`, () => {
        assert.equal(toolSubject(tool, input, CWD), subject);
      });
    }
  },
);

Deno.test("boundSubject() keeps 200 characters, the last one …", { permissions: "none" }, () => {
  assert.equal(boundSubject("a".repeat(200)), "a".repeat(200));
  const cut = boundSubject("é".repeat(500));
  assert.equal([...cut].length, MAX_SUBJECT_LENGTH);
  assert.ok(cut.endsWith("…"));
});

function toolPayload(command: string): ReturnType<typeof parseHookPayload>["payload"] {
  return parseHookPayload({
    session_id: "d653ffa3-fd31-4172-9b32-8b6724c02447",
    cwd: CWD,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_response: {},
    tool_use_id: "toolu_01",
  }, "PostToolUse").payload;
}

const CONTEXT = { traceId: "0123456789abcdef0123456789abcdef", capturedAtNs: 1 };

Deno.test(
  "buildDraft() with toolDetail subject: the command with its token replaced; without: no subject",
  {
    permissions: "none",
  },
  () => {
    const payload = toolPayload(`git push https://x-access-token:${TOKEN}@github.com/a/b.git`);
    const withSubject = buildDraft(payload, CONTEXT, { toolDetail: "subject" });
    const subject = String(withSubject.payload.subject);
    assert.ok(subject.startsWith("git push https://"), subject);
    assert.ok(!subject.includes(TOKEN), subject);
    const without = buildDraft(payload, CONTEXT);
    assert.ok(without.matchCount >= 1);
    assert.equal(
      withSubject.matchCount,
      without.matchCount,
      "the token counts once, not again for the subject",
    );
    assert.deepEqual(withSubject.counts, without.counts);
    assert.ok(!("subject" in without.payload));
    assert.ok(!("subject" in buildDraft(payload, CONTEXT, { toolDetail: "hash" }).payload));
  },
);

Deno.test(
  "buildDraft() redacts a subject whole before cutting it: a token across the cut never leaks a part",
  {
    permissions: "none",
  },
  () => {
    const command = `echo ${"x".repeat(192)} ${TOKEN}`;
    const draft = buildDraft(toolPayload(command), CONTEXT, { toolDetail: "subject" });
    const subject = String(draft.payload.subject);
    assert.equal([...subject].length, MAX_SUBJECT_LENGTH);
    assert.ok(!subject.includes(TOKEN.slice(0, 10)), subject);
  },
);

Deno.test("buildHookCommand() carries --tool-detail subject and parseHookCommand() reads it back", {
  permissions: "none",
}, () => {
  const options = { denoPath: "/usr/bin/deno", socket: "/s/c.sock", traceDir: "/s/t" };
  const plain = buildHookCommand("posttooluse", options);
  const detailed = buildHookCommand("posttooluse", { ...options, toolDetail: "subject" });
  assert.ok(!plain.includes("--tool-detail"));
  assert.ok(detailed.endsWith(" --tool-detail subject posttooluse"), detailed);
  assert.equal(parseHookCommand(plain)?.toolDetail, "hash");
  assert.equal(parseHookCommand(detailed)?.toolDetail, "subject");
});

Deno.test("claude -p with install --tool-detail subject: Bash, Read and MCP rows carry redacted subjects; without it, none anywhere", async () => {
  await ensureClaudeCli();
  for (const detail of [true, false]) {
    const result = await runScenario({
      expectedRows: 5,
      installArgs: detail ? ["--tool-detail", "subject"] : [],
      files: { "notes.txt": "hello\n" },
      turns: (project) => [{
        prompt: `Look.\n${
          scriptBlock([
            [{ tool: "Bash", input: { command: `echo ${TOKEN} > /dev/null` } }],
            [{ tool: "Read", input: { file_path: `${project}/notes.txt` } }],
            [{ text: "Looked." }],
          ])
        }`,
      }],
    });
    const tools = result.rows.filter((row) => row.kind === ROW_KINDS.toolUse);
    assert.equal(tools.length, 2);
    assert.ok(!result.storeText.includes(TOKEN), "no token in the store");
    if (detail) {
      const [bash, read] = tools.map((row) => row.payload.subject);
      assert.match(String(bash), /^echo <[A-Z_]+> > \/dev\/null$/);
      assert.equal(read, "notes.txt");
    } else {
      assert.ok(tools.every((row) => !("subject" in row.payload)));
      assert.ok(!result.storeText.includes('"subject"'), "no subject anywhere in the store");
    }
  }
});

Deno.test("install --tool-detail subject through its task: the commands carry it and status says which mode", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-subject-" });
  try {
    await Deno.mkdir(`${dir}/proj`);
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: dir,
      NO_COLOR: "1",
      DENO_DIR: Deno.env.get("DENO_DIR") ||
        `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`,
      CYBEROS_MEMORY_SOCKET: `${dir}/c.sock`,
      CYBEROS_MEMORY_TRACE_DIR: `${dir}/traces`,
      CYBEROS_MEMORY_DB: `${dir}/c.db`,
    };
    const task = async (...args: string[]) => {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-q", "--no-prompt", "-P=installer", "install/start.ts", ...args],
        cwd: new URL("..", import.meta.url),
        clearEnv: true,
        env,
        stdin: "null",
      }).output();
      return new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    };
    assert.match(await task("install", `${dir}/proj`, "--tool-detail", "nope"), /--tool-detail/);
    await task("install", `${dir}/proj`, "--tool-detail", "subject");
    const settings = await Deno.readTextFile(`${dir}/proj/.claude/settings.json`);
    assert.equal(settings.match(/--tool-detail subject/g)?.length, 16);
    assert.match(await task("status", `${dir}/proj`), /\ntool detail: subject /);
    await task("install", `${dir}/proj`);
    assert.match(await task("status", `${dir}/proj`), /\ntool detail: hash /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
