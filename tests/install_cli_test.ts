/**
 * The installer as users run it: each sub-command with the entry script and
 * permission set its `deno.json` task uses (`install/start.ts` under `installer`
 * for install and uninstall, which then narrows writes to the scope's `.claude`)
 * against temporary projects and a temporary HOME; and end to end with a real
 * daemon, the installed commands run the way Claude Code runs them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixture, ROOT, startTestDaemon, waitForRows } from "./_daemon.ts";
import { formatTime } from "../install/_tail.ts";

const DENO_DIR = Deno.env.get("DENO_DIR") ||
  `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a sub-command exactly as its task does (entry script and permission set), in a clean environment. */
async function cli(
  args: string[],
  options: { env?: Record<string, string> },
): Promise<Run> {
  const [command] = args;
  const [set, script] = command === "install" || command === "uninstall" || command === "status"
    ? ["installer", "install/start.ts"]
    : ["reader", "install/main.ts"];
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--no-prompt", `-P=${set}`, script, ...args],
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

async function withTemp(work: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-install-" });
  try {
    await work(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every file under `dir` with its bytes, for "nothing else changed". */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory) {
        files.set(`${full}/`, "");
        walk(full);
      } else files.set(full, new TextDecoder().decode(Deno.readFileSync(full)));
    }
  };
  walk(dir);
  return files;
}

const USER_STOP = `{
  "hooks": {
    "Stop": [
      {
        "hooks": [{ "type": "command", "command": "say done" }]
      }
    ]
  }
}
`;

function envFor(dir: string): Record<string, string> {
  return {
    HOME: `${dir}/home`,
    CYBEROS_MEMORY_SOCKET: `${dir}/run/capture.sock`,
    CYBEROS_MEMORY_TRACE_DIR: `${dir}/run/traces`,
    CYBEROS_MEMORY_DB: `${dir}/run/capture.db`,
  };
}

Deno.test("install CLI is idempotent, keeps the user's Stop hook first, uninstall restores it", async () => {
  await withTemp(async (dir) => {
    const env = envFor(dir);
    await Deno.mkdir(`${dir}/home`);
    await Deno.mkdir(`${dir}/proj/.claude`, { recursive: true });
    const file = `${dir}/proj/.claude/settings.json`;
    await Deno.writeTextFile(file, USER_STOP, { mode: 0o600 });
    await Deno.chmod(file, 0o600);
    await Deno.writeTextFile(`${dir}/proj/.claude/settings.local.json`, "{ not json");

    const first = await cli(["install", `${dir}/proj`], { env });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^installed in .*settings\.json\n {2}added UserPromptSubmit\n/);
    const installed = await Deno.readTextFile(file);
    const stop = JSON.parse(installed).hooks.Stop;
    assert.equal(stop[0].hooks[0].command, "say done");
    assert.match(stop[1].hooks[0].command, /--socket '.*\/run\/capture\.sock' --trace-dir/);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600, "mode kept");

    const second = await cli(["install", `${dir}/proj`], { env });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^already installed in /);
    assert.equal(await Deno.readTextFile(file), installed, "byte-identical");

    const moved = await cli(["install", `${dir}/proj`, "--allow-email-domain", "example.com"], {
      env,
    });
    assert.match(moved.stdout, /^updated .*: our command changed and was replaced in place\n/);
    assert.match(moved.stdout, /replaced Stop \(the command changed\)/);

    const status = await cli(["status", `${dir}/proj`], { env });
    assert.equal(status.code, 1, "the daemon is down: capture does not work");
    assert.equal(status.stdout.split("\n")[0], "installed");
    assert.match(
      status.stdout,
      /\ndeno: .* \(exists\)\n(?:note: .*\n)?hook script: .*hook\/dist\/hook\.js \(exists\)\n/,
    );
    assert.match(
      status.stdout,
      /\ndaemon: NOT answering on .*capture\.sock .*start it with deno task start/,
    );

    const removed = await cli(["uninstall", `${dir}/proj`], { env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /^uninstalled from .*: removed 16 entries/);
    assert.equal(await Deno.readTextFile(file), USER_STOP);
    assert.equal(await Deno.readTextFile(`${dir}/proj/.claude/settings.local.json`), "{ not json");
    const after = await cli(["status", `${dir}/proj`], { env });
    assert.equal(after.stdout.split("\n")[0], "not installed");
  });
});

Deno.test("install CLI refuses each malformed settings file with file:line:col, bytes unchanged", async (t) => {
  const cases: [string, string, string][] = [
    ["invalid JSON", '{\n  "a": 1,\n}\n', "3:1: not valid JSON: a trailing comma"],
    ["hooks not an object", '{\n  "hooks": ["x"]\n}\n', '2:12: "hooks" is an array, not an object'],
    [
      "event not a list",
      '{\n  "hooks": {\n    "Stop": {"hooks": []}\n  }\n}\n',
      "3:13: hooks.Stop is an object, not a list",
    ],
  ];
  await withTemp(async (dir) => {
    const env = envFor(dir);
    await Deno.mkdir(`${dir}/proj/.claude`, { recursive: true });
    const file = `${dir}/proj/.claude/settings.json`;
    for (const [name, text, where] of cases) {
      await t.step(name, async () => {
        await Deno.writeTextFile(file, text);
        for (const command of ["install", "uninstall", "status"]) {
          const run = await cli([command, `${dir}/proj`], { env });
          assert.equal(run.code, 1, `${command}: ${run.stdout}`);
          const lines = run.stderr.trimEnd().split("\n");
          assert.equal(lines.length, 1, run.stderr);
          assert.ok(
            lines[0]!.startsWith(`cyberos-memory ${command}: ${file}:${where}; `),
            lines[0],
          );
          assert.equal(await Deno.readTextFile(file), text);
        }
        assert.deepEqual([...Deno.readDirSync(`${dir}/proj/.claude`)].map((e) => e.name), [
          "settings.json",
        ]);
      });
    }
  });
});

Deno.test("install CLI creates .claude when missing and refuses a missing project folder", async () => {
  await withTemp(async (dir) => {
    const env = envFor(dir);
    await Deno.mkdir(`${dir}/proj`);
    const missing = await cli(["install", `${dir}/nope`], { env });
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      `cyberos-memory install: ${dir}/nope: no such folder; give the path of an existing project\n`,
    );
    const run = await cli(["install", "proj"], { env: { ...env, INIT_CWD: dir } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^installed: created .*\/proj\/\.claude\/settings\.json/);
    assert.ok(JSON.parse(await Deno.readTextFile(`${dir}/proj/.claude/settings.json`)).hooks.Stop);
  });
});

Deno.test("install CLI --user with HOME temporary writes there and nowhere else", async () => {
  await withTemp(async (dir) => {
    const env = envFor(dir);
    await Deno.mkdir(`${dir}/home`);
    await Deno.mkdir(`${dir}/proj`);
    await Deno.writeTextFile(`${dir}/proj/README`, "x");
    const before = snapshot(dir);
    const run = await cli(["install", "--user"], { env });
    assert.equal(run.code, 0, run.stderr);
    const after = snapshot(dir);
    const added = [...after.keys()].filter((path) => !before.has(path)).sort();
    const state = `${dir}/home/.local/state/cyberos-memory`;
    assert.deepEqual(added, [
      `${dir}/home/.claude/`,
      `${dir}/home/.claude/settings.json`,
      // The installer's record that it created the file, in the user's private state.
      `${dir}/home/.local/`,
      `${dir}/home/.local/state/`,
      `${state}/`,
      `${state}/installer/`,
      `${state}/installer/created.json`,
    ]);
    for (const [path, bytes] of before) assert.equal(after.get(path), bytes, path);

    await cli(["install", `${dir}/proj`], { env });
    const status = await cli(["status", `${dir}/proj`], { env });
    assert.equal(status.stdout.split("\n")[0], "installed");
    assert.match(
      status.stdout,
      /warning: our hooks are installed in both .*the commands are identical, so each runs once/,
    );
    const removed = await cli(["uninstall", "--user"], { env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(
      [...Deno.readDirSync(`${dir}/home`)].map((entry) => entry.name),
      [".local"],
      "install created ~/.claude: gone",
    );
  });
});

Deno.test("install CLI end to end: installed commands capture, status and tail show the rows", async () => {
  const daemon = await startTestDaemon();
  try {
    const project = `${daemon.dir}/my project`;
    await Deno.mkdir(project);
    const env = { ...daemon.env, HOME: `${daemon.dir}/home` };
    const install = await cli(["install", project], { env });
    assert.equal(install.code, 0, install.stderr);
    const settings = JSON.parse(await Deno.readTextFile(`${project}/.claude/settings.json`));
    const commandOf = (event: string) => settings.hooks[event][0].hooks[0].command as string;

    const sessionId = "0b5e1c7d-2a4f-4e9b-8c3d-6f1a2b3c4d5e";
    const events: [string, string][] = [
      ["UserPromptSubmit", "user_prompt_submit"],
      ["PostToolUse", "post_tool_use_bash"],
      ["PostToolUse", "post_tool_use_bash"],
      ["PostToolUseFailure", "post_tool_use_failure_bash"],
      ["Stop", "stop_with_last_assistant_message"],
    ];
    for (const [event, name] of events) {
      const payload = (await fixture(name, sessionId)).replaceAll(
        "/Users/alex/src/acme-api",
        project,
      );
      const child = new Deno.Command("sh", {
        args: ["-c", commandOf(event)],
        cwd: project,
        clearEnv: true,
        env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", CLAUDE_PROJECT_DIR: project },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(payload));
      await writer.close();
      const output = await child.output();
      assert.equal(output.code, 0);
      assert.equal(output.stdout.length, 0, "nothing on stdout");
      assert.equal(new TextDecoder().decode(output.stderr), "", `${event} warned`);
    }
    const rows = await waitForRows(daemon.db, events.length);
    const last = rows[rows.length - 1]!;

    const status = await cli(["status", project], { env });
    assert.equal(status.code, 0, status.stderr);
    const lines = status.stdout.split("\n");
    assert.equal(lines[0], "installed");
    assert.ok(lines.includes(`daemon: answering on ${daemon.socket}`), status.stdout);
    assert.ok(
      status.stdout.includes(
        `last capture: ${
          formatTime(last.payload.captured_at_ns, { date: true })
        } turn session ${sessionId}`,
      ),
      status.stdout,
    );

    const tail = await cli(["tail", "-n", "10"], { env });
    assert.equal(tail.code, 0, tail.stderr);
    const shown = tail.stdout.trimEnd().split("\n");
    assert.equal(shown.length, 4, tail.stdout);
    assert.match(
      shown[0]!,
      /prompt +0b5e1c7d {2}my project {12}The POST \/orders endpoint returns 500/,
    );
    assert.match(shown[1]!, /tool +0b5e1c7d {2}my project {12}Bash success .*×2/);
    assert.match(shown[2]!, /tool +0b5e1c7d {2}my project {12}Bash error/);
    assert.match(shown[3]!, /turn +0b5e1c7d {2}my project {12}turn done: 1 prompt, 3 tool uses/);
    assert.ok(!tail.stdout.includes("\x1b["), "no colours off a terminal");

    const json = await cli(["tail", "--json", "--session", sessionId], { env });
    const objects = json.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(objects, rows);
    assert.deepEqual(Object.keys(objects[0] ?? {}), [
      "seq",
      "kind",
      "payload",
      "prev_hash",
      "hash",
    ]);
  } finally {
    await daemon.stop();
  }
});
