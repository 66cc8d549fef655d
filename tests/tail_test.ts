/**
 * `tail` against a real daemon fed by real subprocess hooks: date and time
 * on every line, the project shown, session id prefixes (an ambiguous one
 * exits 2 naming the candidates), the `--project`, `--kind` and `--since`
 * filters, `--follow` printing rows as they commit until SIGINT, and no
 * control character from any field reaching the terminal.
 *
 * @module
 */

import assert from "node:assert/strict";
import { encodeFrame } from "../lib/frame.ts";
import { parseSince } from "../install/_tail.ts";
import {
  ROOT,
  runHook,
  sendRaw,
  startTestDaemon,
  type TestDaemon,
  testFrame,
  waitForRows,
} from "./_daemon.ts";
import { cli, cliCommand, observedPayload } from "./_cli.ts";

const A = "aaaa1111-0000-4000-8000-000000000001";
const A2 = "aaaa2222-0000-4000-8000-000000000002";
const B = "bbbb3333-0000-4000-8000-000000000003";
const HOSTILE = "mcp__srv__\x1b[2J\x1b]0;pwned\x07\x9b31m\u202ex";

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} {2}/;

async function fill(daemon: TestDaemon): Promise<{ one: string; two: string }> {
  const one = `${daemon.dir}/one`;
  const two = `${daemon.dir}/two`;
  await Deno.mkdir(`${two}/sub`, { recursive: true });
  await Deno.mkdir(one);
  const runs: Array<[string, string, Parameters<typeof observedPayload>[1]]> = [
    ["userpromptsubmit", "user_prompt_submit", { session: A, cwd: one, prompt: "first" }],
    ["posttooluse", "post_tool_use_bash", { session: A, cwd: one }],
    ["userpromptsubmit", "user_prompt_submit", { session: A2, cwd: two, prompt: "second" }],
    ["posttooluse", "post_tool_use_bash", { session: B, cwd: `${two}/sub`, toolName: HOSTILE }],
    ["stop", "stop", { session: A, cwd: one }],
  ];
  for (const [event, name, fields] of runs) {
    const run = await runHook(daemon, event, await observedPayload(name, fields));
    assert.equal(run.stderr, "", run.stderr);
  }
  await waitForRows(daemon.db, runs.length);
  return { one, two };
}

function lines(text: string): string[] {
  return text.trimEnd().split("\n").filter((line) => line !== "");
}

Deno.test("tail: date, project, prefixes, filters and no escape sequences", async (t) => {
  const daemon = await startTestDaemon();
  try {
    const { one, two } = await fill(daemon);
    const env = { ...daemon.env, HOME: daemon.dir, INIT_CWD: daemon.dir };

    await t.step("every line has the date and time and the project", async () => {
      const run = await cli(["tail"], env);
      assert.equal(run.code, 0, run.stderr);
      const shown = lines(run.stdout);
      assert.equal(shown.length, 5, run.stdout);
      for (const line of shown) assert.match(line, DATE_TIME);
      assert.match(shown[0]!, /prompt +aaaa1111 {2}one {19}first$/);
      assert.match(shown[3]!, /tool +bbbb3333 {2}sub {19}mcp__srv__/);
      assert.match(shown[4]!, /turn +aaaa1111 {2}one .*turn done: 1 prompt, 1 tool use,/);
    });

    await t.step("no control character from any field reaches the terminal", async () => {
      const run = await cli(["tail"], env);
      // deno-lint-ignore no-control-regex
      assert.doesNotMatch(run.stdout, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
      const json = await cli(["tail", "--json", "--session", "bbbb"], env);
      // deno-lint-ignore no-control-regex
      assert.doesNotMatch(json.stdout, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
      assert.equal(JSON.parse(json.stdout).payload.tool_name, HOSTILE, "--json keeps the value");
    });

    await t.step("--session takes the 8 characters shown, or any unique prefix", async () => {
      for (const prefix of ["aaaa1111", "aaaa1", A]) {
        const run = await cli(["tail", "--session", prefix, "--json"], env);
        assert.equal(run.code, 0, run.stderr);
        const sessions = lines(run.stdout).map((line) => JSON.parse(line).payload.session_id);
        assert.deepEqual([...new Set(sessions)], [A], prefix);
        assert.equal(sessions.length, 3);
      }
    });

    await t.step(
      "an ambiguous prefix exits 2 naming the candidates; an unknown one 1",
      async () => {
        const ambiguous = await cli(["tail", "--session", "aaaa"], env);
        assert.equal(ambiguous.code, 2);
        assert.match(
          ambiguous.stderr,
          /^cyberos-memory tail: --session "aaaa" matches 2 sessions \(aaaa1111-[^,]+, aaaa2222-[^)]+\); give more of the id\n$/,
        );
        const unknown = await cli(["tail", "--session", "zz"], env);
        assert.equal(unknown.code, 1);
        assert.equal(
          unknown.stderr,
          'cyberos-memory tail: no session id starts with "zz" in the store\n',
        );
      },
    );

    await t.step(
      "--project DIR: rows captured there or below, relative to where tail started",
      async () => {
        const below = await cli(["tail", "--project", two, "--json"], env);
        const cwds = lines(below.stdout).map((line) => JSON.parse(line).payload.cwd);
        assert.deepEqual(cwds, [two, `${two}/sub`]);
        const relative = await cli(["tail", "--project", "one", "--json"], env);
        assert.equal(lines(relative.stdout).length, 3);
        assert.ok(lines(relative.stdout).every((line) => JSON.parse(line).payload.cwd === one));
      },
    );

    await t.step("--kind KIND", async () => {
      const prompts = await cli(["tail", "--kind", "prompt"], env);
      assert.deepEqual(lines(prompts.stdout).map((line) => / (first|second)$/.exec(line)?.[1]), [
        "first",
        "second",
      ]);
      const turns = await cli(["tail", "--kind", "turn", "--json"], env);
      assert.equal(lines(turns.stdout).length, 1);
    });

    await t.step("--since TIME: relative or ISO", async () => {
      // A row captured in 2023 comes after the others in the chain.
      await sendRaw(daemon.socket, encodeFrame(testFrame(1, { text: "old prompt" })));
      await waitForRows(daemon.db, 6);
      const all = await cli(["tail", "--json"], env);
      assert.equal(lines(all.stdout).length, 6);
      for (const since of ["10m", "1d", "2h", new Date(Date.now() - 60_000).toISOString()]) {
        const recent = await cli(["tail", "--since", since, "--json"], env);
        assert.equal(recent.code, 0, recent.stderr);
        assert.equal(lines(recent.stdout).length, 5, since);
      }
      const future = await cli(["tail", "--since", "2999-01-01"], env);
      assert.equal(future.code, 0);
      assert.equal(future.stdout, "");
      const old = await cli(["tail", "--since", "2023-01-01", "--kind", "prompt", "--json"], env);
      assert.equal(lines(old.stdout).length, 3);
    });
  } finally {
    await daemon.stop();
  }
});

Deno.test("tail --follow prints rows as the daemon commits them, and stops on SIGINT", async () => {
  const daemon = await startTestDaemon();
  try {
    const project = `${daemon.dir}/proj`;
    await Deno.mkdir(project);
    await runHook(
      daemon,
      "userpromptsubmit",
      await observedPayload("user_prompt_submit", { session: A, cwd: project, prompt: "before" }),
    );
    await waitForRows(daemon.db, 1);
    const command = cliCommand(["tail", "--follow", "--kind", "prompt"], {
      ...daemon.env,
      HOME: daemon.dir,
    });
    const child = new Deno.Command(Deno.execPath(), {
      args: command.args,
      cwd: ROOT,
      clearEnv: true,
      env: command.env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    let seen = "";
    const waitFor = async (text: string) => {
      const deadline = Date.now() + 15_000;
      while (!seen.includes(text)) {
        if (Date.now() > deadline) throw new Error(`tail --follow never printed ${text}: ${seen}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`tail --follow ended: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
    };
    await waitFor("before");
    await runHook(
      daemon,
      "posttooluse",
      await observedPayload("post_tool_use_bash", { session: A, cwd: project }),
    );
    await runHook(
      daemon,
      "userpromptsubmit",
      await observedPayload("user_prompt_submit", { session: A, cwd: project, prompt: "after" }),
    );
    await waitFor("after");
    assert.equal(lines(seen).length, 2, "the tool row is filtered out");
    assert.match(lines(seen)[1]!, DATE_TIME);
    child.kill("SIGINT");
    reader.releaseLock();
    const status = await child.status;
    assert.equal(status.code, 0, "SIGINT ends --follow cleanly");
    await child.stdout.cancel();
    await child.stderr.cancel();
  } finally {
    await daemon.stop();
  }
});

Deno.test("parseSince() reads relative times and ISO dates, refuses the rest", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");
  assert.equal(parseSince("10m", now), now - 600_000);
  assert.equal(parseSince("2h", now), now - 7_200_000);
  assert.equal(parseSince("1d", now), now - 86_400_000);
  assert.equal(parseSince("2026-11-30T10:00:00Z", now), Date.parse("2026-11-30T10:00:00Z"));
  assert.equal(parseSince("2026-11-30", now), new Date(2026, 10, 30).getTime(), "local midnight");
  for (const bad of ["yesterday", "10", "-1h", "0m", "2026-13-45", "1w"]) {
    assert.throws(() => parseSince(bad, now), /--since needs a time/, bad);
  }
});
