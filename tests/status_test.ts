/**
 * `status` that scripts can trust: exit 0 only when capture works end to end
 * for the scope asked (installed, hooks not switched off by
 * `"disableAllHooks": true` in a file that applies, the command's deno and
 * hook script present, the daemon answering), otherwise exit 1 with what to
 * do; a down daemon's line counts the frames waiting in the spool; `--user`
 * shows the last capture of any project; no control character reaches the
 * terminal. Real daemon, real installed commands run through `sh -c`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runHook, startTestDaemon, type TestDaemon, waitForRows } from "./_daemon.ts";
import { cli, observedPayload } from "./_cli.ts";

const SESSION = "5a1e0c2d-3b4f-4a6e-9c8d-7e6f5a4b3c2d";

/** Runs one installed hook command the way Claude Code does (`sh -c`), payload on stdin. */
async function runInstalled(command: string, payload: string, cwd: string): Promise<void> {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(payload));
  await writer.close();
  assert.equal((await child.status).code, 0);
}

async function setUp(): Promise<
  { daemon: TestDaemon; project: string; env: Record<string, string> }
> {
  const daemon = await startTestDaemon();
  const project = `${daemon.dir}/project`;
  await Deno.mkdir(project);
  await Deno.mkdir(`${daemon.dir}/home`);
  return { daemon, project, env: { ...daemon.env, HOME: `${daemon.dir}/home` } };
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}

Deno.test("status exits 0 only when capture works end to end, 1 with what to do otherwise", async (t) => {
  const { daemon, project, env } = await setUp();
  try {
    await t.step("not installed → 1, says how to install", async () => {
      const run = await cli(["status", project], env);
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stdout, new RegExp(`\\nto install: deno task install ${project}\\n`));
      assert.equal(lastLine(run.stdout), "capture does NOT work: not installed (see above)");
    });

    await t.step("installed, daemon answering → 0", async () => {
      assert.equal((await cli(["install", project], env)).code, 0);
      const run = await cli(["status", project], env);
      assert.equal(run.code, 0, run.stdout);
      assert.ok(run.stdout.includes(`\ndaemon: answering on ${daemon.socket}\n`), run.stdout);
      assert.equal(lastLine(run.stdout), "capture works");
    });

    const userSettings = `${env.HOME}/.claude/settings.json`;
    const localSettings = `${project}/.claude/settings.local.json`;
    await t.step('"disableAllHooks": true in the user settings → 1, naming the file', async () => {
      await Deno.mkdir(`${env.HOME}/.claude`, { recursive: true });
      await Deno.writeTextFile(userSettings, '{ "disableAllHooks": true }\n');
      const run = await cli(["status", project], env);
      assert.equal(run.code, 1);
      assert.ok(
        run.stdout.includes(
          `hooks: switched off by "disableAllHooks": true in ${userSettings}; remove it`,
        ),
        run.stdout,
      );
      assert.match(lastLine(run.stdout), /capture does NOT work: hooks switched off/);
    });

    await t.step("… and false in the more specific settings.local.json wins → 0", async () => {
      await Deno.writeTextFile(localSettings, '{\n  "disableAllHooks": false\n}\n');
      const run = await cli(["status", project], env);
      assert.equal(run.code, 0, run.stdout);
      await Deno.writeTextFile(localSettings, '{ "disableAllHooks": true }');
      const off = await cli(["status", project], env);
      assert.equal(off.code, 1);
      assert.ok(off.stdout.includes(`true in ${localSettings};`), off.stdout);
      await Deno.remove(localSettings);
      await Deno.remove(userSettings);
    });

    await t.step("daemon down → 1, and the frames the hooks spooled are counted", async () => {
      const settings = JSON.parse(await Deno.readTextFile(`${project}/.claude/settings.json`));
      await daemon.stop({ keep: true });
      const runs: Array<[string, string]> = [
        ["UserPromptSubmit", "user_prompt_submit"],
        ["Stop", "stop"],
      ];
      for (const [event, name] of runs) {
        await runInstalled(
          settings.hooks[event][0].hooks[0].command,
          await observedPayload(name, { session: SESSION, cwd: project }),
          project,
        );
      }
      const run = await cli(["status", project], env);
      assert.equal(run.code, 1);
      assert.ok(
        run.stdout.includes(
          `2 captured frames wait in the spool ${daemon.traceDir}/spool and will be stored when it runs; start it with deno task start`,
        ),
        run.stdout,
      );
      assert.ok(!run.stdout.includes("nothing is captured"), "no untrue sentence");
      await daemon.restart();
      await waitForRows(daemon.db, 2, { timeoutMs: 15_000 });
      assert.equal((await cli(["status", project], env)).code, 0, "the spool drained");
    });

    await t.step("the command's deno binary gone → 1, says to pin one with --deno", async () => {
      const pinned = `${daemon.dir}/bin/deno`;
      await Deno.mkdir(`${daemon.dir}/bin`);
      await Deno.symlink(Deno.execPath(), pinned);
      const install = await cli(["install", project, "--deno", pinned], env);
      assert.equal(install.code, 0, install.stderr);
      assert.ok(!install.stdout.includes("npx's cache"), "a pinned deno draws no warning");
      assert.equal((await cli(["status", project], env)).code, 0);
      await Deno.remove(pinned);
      const run = await cli(["status", project], env);
      assert.equal(run.code, 1);
      assert.ok(
        run.stdout.includes(
          `deno: ${pinned} (MISSING): every hook fails; install again, with --deno PATH`,
        ),
        run.stdout,
      );
    });
  } finally {
    await daemon.stop();
  }
});

Deno.test("status --user: the last capture of any project, and no escape sequence reaches the terminal", async () => {
  const { daemon, project, env } = await setUp();
  try {
    assert.equal((await cli(["install", "--user"], env)).code, 0);
    const hostile = "mcp__x__\x1b]0;pwned\x07\x1b[2J\x9b31mevil\u202e";
    const run = await runHook(
      daemon,
      "posttooluse",
      await observedPayload("post_tool_use_bash", {
        session: SESSION,
        cwd: project,
        toolName: hostile,
      }),
    );
    assert.equal(run.code, 0);
    const rows = await waitForRows(daemon.db, 1);
    assert.ok(String(rows[0]!.payload.tool_name).includes("\x1b"), "stored as sent");
    const status = await cli(["status", "--user"], env);
    assert.equal(status.code, 0, status.stdout);
    assert.ok(!status.stdout.includes("no project given"), status.stdout);
    assert.match(
      status.stdout,
      new RegExp(`\\nlast capture: .* tool session ${SESSION} in ${project}: mcp__x__ *evil`),
    );
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(status.stdout, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
  } finally {
    await daemon.stop();
  }
});
