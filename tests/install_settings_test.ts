/**
 * Tests of the installer's pure parts: the hook command, the settings edits
 * (case tables), and the corpus of real settings files.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  findOurHooks,
  installHooks,
  type OurHook,
  SettingsError,
  uninstallHooks,
} from "../install/_settings.ts";
import { HOOK_TIMEOUT_SECONDS, ourHooks } from "../install/_install.ts";
import { installState } from "../install/_status.ts";
import { formatRows, formatTime } from "../install/_tail.ts";
import {
  buildHookCommand,
  DEFAULT_HOOK_SCRIPT,
  HOOK_ENV,
  isOurCommand,
  parseHookCommand,
} from "../lib/hook_command.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import type { StoredRow } from "../lib/rows.ts";

/**
 * The settings files the corpus tests edit: our own, one or more for every shape real files show
 * (`tests/fixtures/settings`, see its README), or the folder `CYBEROS_MEMORY_SETTINGS_CORPUS` names,
 * to run the same round trip on real users' files kept outside the repository (unset in CI).
 */
const OWN_CORPUS = fileUrlToPath(new URL("./fixtures/settings/", import.meta.url));
const CORPUS = Deno.env.get("CYBEROS_MEMORY_SETTINGS_CORPUS")?.replace(/\/?$/, "/") ?? OWN_CORPUS;
/** Our files Claude Code would reject: not strict JSON, or strict JSON off its hooks schema. */
const REFUSED_NAME = /\.(invalid|rejected)\.json$/;
const RECOGNISE = { isOurs: isOurCommand };
const ENV: Record<string, string> = {
  HOME: "/home/alex",
  CYBEROS_MEMORY_SOCKET: "/tmp/x y/capture.sock",
  CYBEROS_MEMORY_TRACE_DIR: "/tmp/x y/traces",
};

function hooksFor(options: { denoPath?: string; scriptPath?: string } = {}): OurHook[] {
  return ourHooks({
    env: (name) => ENV[name],
    denoPath: options.denoPath ?? "/opt/deno/bin/deno",
    ...(options.scriptPath === undefined ? {} : { scriptPath: options.scriptPath }),
  });
}

const HOOKS = hooksFor();

function install(text: string | undefined, hooks: OurHook[] = HOOKS) {
  return installHooks(text, hooks, RECOGNISE);
}

function uninstall(text: string) {
  return uninstallHooks(text, RECOGNISE);
}

Deno.test(
  "ourHooks() installs exactly the capture and lifecycle events with a timeout in seconds",
  {
    permissions: "none",
  },
  () => {
    assert.deepEqual(HOOKS.map((hook) => hook.event), [
      "UserPromptSubmit",
      "PostToolUse",
      "PostToolUseFailure",
      "Stop",
      "SessionStart",
      "SessionEnd",
      "SubagentStart",
      "SubagentStop",
      "PreCompact",
      "PostCompact",
      "StopFailure",
      "PermissionRequest",
      "PermissionDenied",
      "ConfigChange",
      "InstructionsLoaded",
      "CwdChanged",
    ]);
    assert.deepEqual(
      HOOKS.map((hook) => hook.matcher),
      [undefined, "*", "*", ...Array(13).fill(undefined)],
    );
    for (const hook of HOOKS) {
      assert.equal(hook.timeout, HOOK_TIMEOUT_SECONDS);
      assert.ok(hook.timeout >= 1 && hook.timeout <= 10, "seconds, not milliseconds");
      assert.ok(isOurCommand(hook.command));
    }
  },
);

Deno.test("buildHookCommand() is absolute, shell-quoted and carries paths and flags", {
  permissions: "none",
}, () => {
  const command = buildHookCommand("posttooluse", {
    denoPath: "/opt/it's/deno",
    socket: "/tmp/a b/s.sock",
    traceDir: "/tmp/a b/traces",
    allowEmailDomains: ["example.com"],
  });
  // Written out word for word, not rebuilt with the helpers that build it; only the checkout's
  // own script path is taken as it is.
  assert.equal(
    command,
    [
      "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=8388608:glibc.malloc.trim_threshold=67108864",
      "exec",
      String.raw`'/opt/it'\''s/deno'`,
      "run",
      "-q",
      "--v8-flags=--no-sparkplug,--no-maglev,--no-regexp-tier-up,--single-threaded,--invocation-count-for-turbofan=10000,--no-icu-timezone-data",
      "--no-config",
      "--no-remote",
      "--no-npm",
      "--no-prompt",
      "'--allow-read=/tmp/a b/traces,/tmp/a b/s.sock'",
      "'--allow-write=/tmp/a b/traces,/tmp/a b/s.sock'",
      "'--allow-net=unix:/tmp/a b/s.sock'",
      "--allow-sys=uid",
      "--allow-env=TRACEPARENT",
      `'${DEFAULT_HOOK_SCRIPT.replaceAll("'", String.raw`'\''`)}'`,
      "--socket",
      "'/tmp/a b/s.sock'",
      "--trace-dir",
      "'/tmp/a b/traces'",
      "--allow-email-domain",
      "'example.com'",
      "posttooluse",
    ].join(" "),
  );
  assert.deepEqual(parseHookCommand(command), {
    denoPath: "/opt/it's/deno",
    scriptPath: DEFAULT_HOOK_SCRIPT,
    socket: "/tmp/a b/s.sock",
    traceDir: "/tmp/a b/traces",
    event: "posttooluse",
    toolDetail: "hash",
  });
  // Installed before the command set the allocator, or began with `exec`: still ours, read the same.
  const withoutEnv = command.slice(command.indexOf("exec "));
  assert.deepEqual(parseHookCommand(withoutEnv), parseHookCommand(command));
  assert.deepEqual(parseHookCommand(withoutEnv.replace(/^exec /, "")), parseHookCommand(command));
  assert.throws(
    () => buildHookCommand("stop", { denoPath: "deno", socket: "/s", traceDir: "/t" }),
    TypeError,
  );
});

Deno.test("buildHookCommand()'s allocator settings reach the program sh runs", {
  permissions: { run: ["sh"] },
}, async () => {
  const command = buildHookCommand("stop", { denoPath: "/d", socket: "/s", traceDir: "/t" });
  // The command up to the program, with env in deno's place: what dash passes on to deno.
  const prefix = command.slice(0, command.indexOf("exec ") + "exec ".length);
  const output = await new Deno.Command("sh", {
    args: ["-c", `${prefix}env`],
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
  }).output();
  assert.equal(output.code, 0);
  const passed = new TextDecoder().decode(output.stdout).split("\n");
  for (const [name, value] of Object.entries(HOOK_ENV)) {
    assert.ok(passed.includes(`${name}=${value}`), `${name} is not in the program's environment`);
  }
});

Deno.test("isOurCommand() recognises our entries from any checkout, never others'", {
  permissions: "none",
}, async (t) => {
  const cases: [string, boolean][] = [
    [HOOKS[0]!.command, true],
    [
      hooksFor({ denoPath: "/elsewhere/deno", scriptPath: "/moved/co/hook/main.ts" })[3]!.command,
      true,
    ],
    [`'/d' run -A '/srv/dist/hook.bundle.js' --socket '/s' --trace-dir '/t' stop`, true],
    [`exec '/d' run -A '/srv/dist/hook.bundle.js' --socket '/s' --trace-dir '/t' stop`, true],
    [
      `A=1 B=x exec '/d' run -A '/srv/dist/hook.bundle.js' --socket '/s' --trace-dir '/t' stop`,
      true,
    ],
    ["echo hook/main.ts --socket --trace-dir", false],
    ["node hook/main.ts", false],
    ["node hook/main.ts --socket /s --trace-dir /t stop", false],
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/skill-eval.sh', false],
    ["deno run hook/main.ts --socket /s --trace-dir /t stop; rm -rf /", false],
    ["python3 .claude/hooks/post_tool_use.py", false],
  ];
  for (const [command, ours] of cases) {
    await t.step(command.slice(0, 60), () => assert.equal(isOurCommand(command), ours));
  }
});

Deno.test("installHooks() creates the file's content when there is none", {
  permissions: "none",
}, () => {
  const { text, changes } = install(undefined);
  assert.equal(changes.length, 16);
  assert.ok(text.endsWith("}\n"));
  const value = JSON.parse(text);
  assert.deepEqual(Object.keys(value.hooks), HOOKS.map((hook) => hook.event));
  assert.deepEqual(value.hooks.PostToolUse, [{
    matcher: "*",
    hooks: [{ type: "command", command: HOOKS[1]!.command, timeout: HOOK_TIMEOUT_SECONDS }],
  }]);
  assert.equal(value.hooks.Stop[0].matcher, undefined);
});

const USER_STOP = `{
  "model": "opus",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "say done" }
        ]
      }
    ]
  }
}
`;

Deno.test("installHooks() is idempotent: the second run changes nothing", {
  permissions: "none",
}, () => {
  const first = install(USER_STOP);
  const second = install(first.text);
  assert.deepEqual(second.changes, []);
  assert.equal(second.text, first.text);
});

Deno.test("installHooks() keeps the user's Stop hook first; uninstall leaves only theirs", {
  permissions: "none",
}, () => {
  const { text } = install(USER_STOP);
  const stop = JSON.parse(text).hooks.Stop;
  assert.equal(stop.length, 2);
  assert.equal(stop[0].hooks[0].command, "say done");
  assert.ok(isOurCommand(stop[1].hooks[0].command));
  const removed = uninstall(text);
  assert.equal(removed.text, USER_STOP);
  assert.deepEqual(removed.removed.sort(), HOOKS.map((hook) => hook.event).sort());
});

Deno.test("installHooks() replaces a changed command in place and says so", {
  permissions: "none",
}, () => {
  const old = install(USER_STOP, hooksFor({ scriptPath: "/old/checkout/hook/main.ts" })).text;
  const updated = install(old);
  assert.deepEqual(
    updated.changes,
    HOOKS.map((hook) => `replaced ${hook.event} (the command changed)`),
  );
  assert.equal(updated.text, install(USER_STOP).text);
  assert.equal(uninstall(updated.text).text, USER_STOP);
});

Deno.test("installHooks() removes our stale entries from events it does not install", {
  permissions: "none",
}, () => {
  const stale = USER_STOP.replace(
    `"Stop": [`,
    `"PreToolUse": [{"hooks": [{"type": "command", "command": ${
      JSON.stringify(HOOKS[0]!.command.replace("userpromptsubmit", "pretooluse"))
    }}]}],\n    "Stop": [`,
  );
  const { text, changes } = install(stale);
  assert.ok(changes.includes("removed a stale entry from PreToolUse"));
  assert.equal(JSON.parse(text).hooks.PreToolUse, undefined);
  assert.equal(uninstall(text).text, USER_STOP);
});

const FOUR_SPACE_CRLF = [
  "{",
  '    "$schema": "https://json.schemastore.org/claude-code-settings.json",',
  '    "permissions": {',
  '        "allow": ["Bash(git status)"]',
  "    },",
  '    "hooks": {',
  '        "UserPromptSubmit": [',
  '            { "hooks": [{ "type": "command", "command": "log-prompt" }] }',
  "        ],",
  '        "PostToolUse": [',
  '            { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "fmt" }] }',
  "        ],",
  '        "PostToolUseFailure": [',
  '            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "notify" }] }',
  "        ],",
  '        "Stop": [',
  '            { "hooks": [{ "type": "command", "command": "say done", "timeout": 3 }] }',
  "        ]",
  "    },",
  '    "model": "sonnet"',
  "}",
  "",
].join("\r\n");

Deno.test("installHooks() then uninstallHooks() gives back a 4-space CRLF file byte for byte", {
  permissions: "none",
}, () => {
  const { text } = install(FOUR_SPACE_CRLF);
  assert.ok(!/[^\r]\n/.test(text), "every line ends with CRLF");
  assert.ok(text.includes('\r\n            {\r\n                "matcher": "*",'), "4-space steps");
  const value = JSON.parse(text);
  for (const event of ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop"]) {
    assert.equal(value.hooks[event].length, 2, event);
    assert.ok(!isOurCommand(value.hooks[event][0].hooks[0].command), `${event}: theirs first`);
  }
  assert.deepEqual(Object.keys(value), ["$schema", "permissions", "hooks", "model"]);
  assert.equal(uninstall(install(text).text).text, FOUR_SPACE_CRLF);
});

Deno.test(
  "installHooks() round-trips formats byte for byte",
  { permissions: "none" },
  async (t) => {
    const cases: [string, string][] = [
      ["empty object", "{}"],
      ["empty object with newline", "{}\n"],
      ["tabs", '{\n\t"model": "x"\n}\n'],
      ["one line", '{"model":"x","hooks":{"Stop":[{"hooks":[{"type":"command","command":"a"}]}]}}'],
      ["byte-order mark", '\uFEFF{\n  "model": "x"\n}\n'],
      [
        "empty hooks list kept by user",
        '{\n  "hooks": {\n    "Stop": [\n      {"hooks": []}\n    ]\n  }\n}',
      ],
      ["two final newlines", '{\n  "a": 1\n}\n\n'],
      [
        "Go style",
        '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [],\n        "matcher": ""\n      }\n    ]\n  }\n}',
      ],
    ];
    for (const [name, original] of cases) {
      await t.step(name, () => {
        const installed = install(original);
        JSON.parse(installed.text.replace(/^\uFEFF/, ""));
        assert.equal(install(installed.text).text, installed.text);
        assert.equal(uninstall(installed.text).text, original);
      });
    }
  },
);

Deno.test("installHooks() refuses malformed settings naming line and column", {
  permissions: "none",
}, async (t) => {
  const cases: [string, string, RegExp][] = [
    ["comment", '{\n  // mine\n  "a": 1\n}', /^2:3: not valid JSON: a comment; /],
    ["trailing comma", '{\n  "a": 1,\n}', /^3:1: not valid JSON: a trailing comma; /],
    ["missing brace", '{\n  "a": 1\n', /^3:1: not valid JSON: /],
    ["top level array", "[]", /^1:1: the top level is an array, not an object; /],
    ["hooks array", '{\n  "hooks": []\n}', /^2:12: "hooks" is an array, not an object; /],
    ["hooks string", '{"hooks": "x"}', /^1:11: "hooks" is a string, not an object; /],
    [
      "event object",
      '{\n  "hooks": {\n    "Stop": {"hooks": []}\n  }\n}',
      /^3:13: hooks\.Stop is an object, not a list; /,
    ],
    [
      "group without hooks",
      '{"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "x"}]}}',
      /^1:27: hooks\.PreToolUse\[0\] has no "hooks" list; /,
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      for (
        const run of [
          () => install(text),
          () => uninstall(text),
          () => findOurHooks(text, RECOGNISE),
        ]
      ) {
        assert.throws(run, (error) => {
          assert.ok(error instanceof SettingsError);
          assert.match(error.message, message);
          return true;
        });
      }
    });
  }
});

Deno.test("installState() names missing events", { permissions: "none" }, () => {
  const all = findOurHooks(install(USER_STOP).text, RECOGNISE);
  assert.equal(installState(all), "installed");
  assert.equal(installState([]), "not installed");
  assert.equal(
    installState(all.filter((hook) => hook.event !== "Stop")),
    "partly installed: Stop",
  );
});

Deno.test("formatRows() folds identical tool runs and summarises each kind", {
  permissions: "none",
}, () => {
  const base = { session_id: "3f1c2a9e-7b4d", trace_id: "t", captured_at_ns: 1e18, cwd: "/p" };
  const tool = (seq: number, duration: number): StoredRow => ({
    seq,
    kind: ROW_KINDS.toolUse,
    payload: {
      ...base,
      tool_name: "Bash",
      tool_args_hash: "h",
      outcome: "success",
      duration_ms: duration,
    },
    prev_hash: "",
    hash: "",
  });
  const rows: StoredRow[] = [
    {
      seq: 1,
      kind: ROW_KINDS.prompt,
      payload: { ...base, prompt_redacted: "Fix the bug\nsecond line" },
      prev_hash: "",
      hash: "",
    },
    tool(2, 10),
    tool(3, 30),
    {
      seq: 4,
      kind: ROW_KINDS.sessionCompleted,
      payload: { ...base, prompt_count: 1, tool_use_count: 2, duration_ms: 1500 },
      prev_hash: "",
      hash: "",
    },
  ];
  const lines = formatRows(rows, { color: false });
  assert.equal(lines.length, 3);
  const when = formatTime(1e18, { date: true });
  assert.match(when, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.ok(lines.every((line) => line.startsWith(`${when}  `)), "date and time on every line");
  assert.match(lines[0]!, /prompt +3f1c2a9e {2}p {21}Fix the bug \(\+1 line\)$/);
  assert.match(lines[1]!, /tool +3f1c2a9e {2}p {21}Bash success 20 ms ×2$/);
  assert.match(lines[2]!, /turn +3f1c2a9e {2}p {21}turn done: 1 prompt, 2 tool uses, 1\.5 s/);
  assert.ok(!lines.join("").includes("\x1b["));
  assert.ok(formatRows(rows, { color: true }).join("").includes("\x1b["));
});

Deno.test("installHooks() on the settings corpus: refused unchanged or round-trips byte for byte", {
  permissions: { read: [CORPUS] },
}, async (t) => {
  const names = [...Deno.readDirSync(CORPUS)].map((entry) => entry.name).filter((name) =>
    name.endsWith(".json")
  ).sort();
  assert.ok(names.length >= 25, `${CORPUS} holds only ${names.length} settings files`);
  const refused: string[] = [];
  for (const name of names) {
    await t.step(name, () => {
      const original = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
        Deno.readFileSync(`${CORPUS}${name}`),
      );
      let strict = true;
      try {
        JSON.parse(original);
      } catch {
        strict = false;
      }
      let once;
      try {
        once = install(original);
      } catch (error) {
        assert.ok(error instanceof SettingsError, String(error));
        refused.push(name);
        assert.ok(
          !strict || /"hooks"|hooks\./.test(error.message),
          `strict JSON refused for something else: ${error.message}`,
        );
        return;
      }
      assert.ok(strict, "non-strict JSON must be refused");
      const twice = install(once.text);
      assert.deepEqual(twice.changes, []);
      assert.equal(twice.text, once.text);
      const value = JSON.parse(once.text);
      const theirs = JSON.parse(original).hooks ?? {};
      for (const hook of HOOKS) {
        const groups = value.hooks[hook.event];
        const before = theirs[hook.event] ?? [];
        assert.deepEqual(groups.slice(0, before.length), before, "the user's hooks stay first");
        assert.equal(groups.length, before.length + 1);
      }
      assert.equal(uninstall(twice.text).text, original);
    });
  }
  if (CORPUS === OWN_CORPUS) {
    assert.deepEqual(refused, names.filter((name) => REFUSED_NAME.test(name)));
  } else {
    console.log(`${names.length} files from ${CORPUS}, refused: ${refused.join(", ")}`);
  }
});

Deno.test("the settings fixtures hold every shape the real files show", {
  permissions: { read: [OWN_CORPUS] },
}, () => {
  const files = [...Deno.readDirSync(OWN_CORPUS)].filter((entry) => entry.name.endsWith(".json"))
    .map((entry) => {
      const text = new TextDecoder().decode(Deno.readFileSync(`${OWN_CORPUS}${entry.name}`));
      let value: { hooks?: Record<string, unknown> } | undefined;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      return { name: entry.name, text, value };
    });
  const shapes: Record<string, (file: typeof files[number]) => boolean> = {
    "two-space indentation": ({ text }) => /^\{\r?\n {2}"/.test(text),
    "four-space indentation": ({ text }) => /^\{\n {4}"/.test(text),
    "tab indentation": ({ text }) => /^\{\n\t"/.test(text),
    "inconsistent indentation": ({ text }) => /^\{\n {4}"[^]*\n {6}"[^]*\n {2}\}$/.test(text),
    "minified on one line": ({ text }) => text.length > 200 && !text.includes("\n"),
    "CRLF line endings": ({ text }) => text.includes("\r\n"),
    "no final newline": ({ text }) => !text.endsWith("\n"),
    "two final newlines": ({ text }) => text.endsWith("}\n\n"),
    "non-ASCII text": ({ text }) => /[^\p{ASCII}]/u.test(text),
    "emoji": ({ text }) => /\p{Extended_Pictographic}/u.test(text),
    "\\u escapes": ({ text }) => /\\u00[0-9a-f]{2}/.test(text),
    "escaped quotes and backslashes": ({ text }) => text.includes('\\\\\\"'),
    "blank lines inside": ({ text }) => /,\n\n/.test(text),
    "trailing spaces": ({ text }) => / \n/.test(text),
    "an empty object": ({ text }) => text.trim() === "{}",
    "ten or more hook events": ({ value }) => Object.keys(value?.hooks ?? {}).length >= 10,
    "other tools' hooks on all four capture events": ({ value }) =>
      ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop"].every((event) =>
        Object.hasOwn(value?.hooks ?? {}, event)
      ),
    "no hooks key": ({ value }) => value !== undefined && !Object.hasOwn(value, "hooks"),
    "comments (not JSON)": ({ name, text }) => name.endsWith(".invalid.json") && /\/\/ /.test(text),
    "a trailing comma (not JSON)": ({ name, text }) =>
      name.endsWith(".invalid.json") && /,\s*[\]}]/.test(text),
    "groups Claude Code rejects": ({ name, value }) =>
      name.endsWith(".rejected.json") && value !== undefined,
  };
  const missing = Object.entries(shapes).filter(([, has]) => !files.some(has)).map(([shape]) =>
    shape
  );
  assert.deepEqual(missing, []);
  assert.ok(files.filter(({ name }) => name.endsWith(".rejected.json")).length >= 4);
});
