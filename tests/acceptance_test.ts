/**
 * The spec's (TASK-MEMORY-109) acceptance criteria and §1 MUSTs, one test
 * each, named `AC n: …` and `MUST n: …`, through the entry points users run:
 * `deno task install | uninstall | status | verify | tail | redact | start`,
 * and our hook command from the project's `settings.json` run the way Claude
 * Code runs it, with the daemon exporting to a real OTLP receiver. The
 * numbering is our reading of the spec (docs/conformance.md says which
 * numbers our materials confirm). A test whose name says `(departure)` checks
 * what we do instead of the spec, on purpose.
 *
 * @module
 */

import assert from "node:assert/strict";
import { blake3 } from "@noble/hashes/blake3";
import { canonicalJson } from "../lib/hash.ts";
import { shellQuote } from "../lib/hook_command.ts";
import { tamper } from "./_tamper.ts";
import { readRows, ROOT } from "./_daemon.ts";
import { startTask } from "./_launcher.ts";
import { formatTime } from "../install/_tail.ts";
import { HOOK_GATE_RUNS, hookGateFails } from "../bench/_gates.ts";
import { summarise } from "../bench/_stats.ts";
import {
  AWS_KEY,
  capturePrompt,
  checkSpecPattern,
  type ClaudeEvent,
  freshMetrics,
  GITHUB_PAT,
  installedCommand,
  metric,
  payload,
  redactByTask,
  runInstalledHook,
  SECOND_AWS_KEY,
  sessionRows,
  SHARED,
  type SpecPattern,
  task,
  tearDown,
  until,
  USER_SETTINGS,
  withSocket,
  world,
} from "./_acceptance.ts";

/** Lowercase hex BLAKE3 of UTF-8 text, computed here independently of the product's helper. */
function blake3Hex(text: string): string {
  return Array.from(blake3(new TextEncoder().encode(text)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

// ---- The spec's ten patterns (AC 3 to AC 12) -------------------------------------------------

const SPEC_PATTERNS: SpecPattern[] = [
  {
    name: "AC 3: an AWS access key id becomes <AWS_KEY>",
    text: `aws s3 ls with ${AWS_KEY}`,
    out: "aws s3 ls with <AWS_KEY>",
  },
  {
    name: "AC 4: an AWS secret access key becomes <AWS_SECRET>",
    text: "aws_secret_access_key=Zk3+Qm9vTr2LwX8pYb4N/cH6sJd1FgA7eVu5RoKi",
    out: "aws_secret_access_key=<AWS_SECRET>",
  },
  {
    name: "AC 5: a Bearer token becomes Bearer <REDACTED>",
    text: "Authorization: Bearer q8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2",
    out: "Authorization: Bearer <REDACTED>",
  },
  {
    name: "AC 6: a GitHub personal access token becomes <GH_PAT>",
    text: `git push https://${GITHUB_PAT}@github.com/o/r`,
    out: "git push https://<GH_PAT>@github.com/o/r",
  },
  {
    name: "AC 7: an OpenAI key becomes <OPENAI_KEY>",
    text: "OPENAI_API_KEY=sk-proj-Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1T3BlbkFJd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1",
    out: "OPENAI_API_KEY=<OPENAI_KEY>",
  },
  {
    name: "AC 8: an Anthropic key becomes <ANTHROPIC_KEY>",
    text: "key sk-ant-api03-Hs5Jd1Fg0Au4Ei6Oc9Qw2Zx7Cv3Bn8Ml1Kj5Hg9Fd2Sa6Pq0Wo4Ie8Ur3-XyZwAA.",
    out: "key <ANTHROPIC_KEY>.",
  },
  {
    name: "AC 9: a JWT becomes <JWT>",
    text:
      "decode eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIn0.Tq7Vz3Lm9Rx2Kp8Wn4Yb5Hc1Jd6Fs0Ga2Ue7Io please",
    out: "decode <JWT> please",
  },
  {
    name:
      "AC 10: a 12-digit CCCD becomes <VN_CCCD> when valid and near id context, other 12-digit numbers stay (departure)",
    text: "Số CCCD của tôi là 001204012345 nhé",
    out: "Số CCCD của tôi là <VN_CCCD> nhé",
    kept: ["tracking 079188001122 shipped", "order 123456789012 paid"],
  },
  {
    name: "AC 11: an e-mail address becomes <EMAIL> unless its domain is allowlisted",
    text: "write to user@example.com",
    out: "write to <EMAIL>",
    kept: ["cc anh@cyberskill.world"],
  },
  {
    name: "AC 12: a phone number becomes <PHONE>",
    text: "call +84 912 345 678 today",
    out: "call <PHONE> today",
  },
];

/** Every text the tests below give `deno task redact`. */
const REDACTED_TEXTS = [
  ...SPEC_PATTERNS.flatMap((pattern) => [pattern.text, ...(pattern.kept ?? [])]),
  "Fixes issue #12345",
];

// ---- AC 1 to AC 24 ---------------------------------------------------------------------------

Deno.test({
  name:
    "AC 1: a prompt becomes one memory.claude_prompt row, its hash taken after redaction (departure)",
  ...SHARED,
  async fn() {
    const w = await world();
    const prompt = `Deploy with ${AWS_KEY} please`;
    const row = await capturePrompt(w, prompt);
    assert.equal(row.kind, "memory.claude_prompt");
    assert.deepEqual(Object.keys(row.payload).slice(0, 7), [
      "session_id",
      "prompt_hash",
      "prompt_redacted",
      "cwd",
      "trace_id",
      "captured_at_ns",
      "redaction_match_count",
    ]);
    assert.equal(row.payload.prompt_redacted, "Deploy with <AWS_KEY> please");
    assert.equal(row.payload.redaction_match_count, 1);
    assert.equal(row.payload.cwd, w.project);
    assert.ok(Number.isInteger(row.payload.captured_at_ns));
    // Departure: the hash of the raw prompt would let anyone confirm a guessed secret.
    assert.equal(row.payload.prompt_hash, blake3Hex("Deploy with <AWS_KEY> please"));
    assert.notEqual(row.payload.prompt_hash, blake3Hex(prompt));
  },
});

Deno.test({
  name:
    "AC 2: a tool run becomes one memory.claude_tool_use row with the arguments as a hash only, taken after redaction (departure)",
  ...SHARED,
  async fn() {
    const w = await world();
    const sessionId = crypto.randomUUID();
    const toolInput = {
      command: `aws configure set aws_access_key_id ${AWS_KEY} # marker-args-7f3a`,
      description: "Configure the CLI",
    };
    const run = await runInstalledHook(
      w,
      "PostToolUse",
      await payload(w, "post_tool_use_bash", sessionId, {
        tool_input: toolInput,
        tool_response: { stdout: "marker-response-91c2", stderr: "", interrupted: false },
      }),
    );
    assert.equal(run.code, 0);
    assert.equal(run.stderr, "");
    const [row] = await sessionRows(w, sessionId, 1);
    assert.equal(row!.kind, "memory.claude_tool_use");
    assert.deepEqual(Object.keys(row!.payload).slice(0, 8), [
      "session_id",
      "tool_name",
      "tool_args_hash",
      "outcome",
      "duration_ms",
      "trace_id",
      "captured_at_ns",
      "cwd",
    ]);
    assert.equal(row!.payload.tool_name, "Bash");
    assert.equal(row!.payload.outcome, "success");
    assert.equal(row!.payload.duration_ms, 6412);
    assert.equal(row!.payload.tool_use_id, "toolu_01Q8mZ3vN4cXbH7tK2pLw9Ry");
    const redacted = {
      ...toolInput,
      command: "aws configure set aws_access_key_id <AWS_KEY> # marker-args-7f3a",
    };
    assert.equal(row!.payload.tool_args_hash, blake3Hex(canonicalJson(redacted)));
    assert.notEqual(row!.payload.tool_args_hash, blake3Hex(canonicalJson(toolInput)));
    const stored = JSON.stringify(row);
    for (const raw of ["marker-args-7f3a", "marker-response-91c2", "tool_input", "tool_response"]) {
      assert.ok(!stored.includes(raw), `${raw} stored`);
    }
  },
});

for (const pattern of SPEC_PATTERNS) {
  Deno.test({
    name: pattern.name,
    ...SHARED,
    fn: async () => checkSpecPattern(await world(), pattern, REDACTED_TEXTS),
  });
}

Deno.test({
  name: "AC 13: issue #12345 is left as it is, with a redaction count of 0",
  ...SHARED,
  async fn() {
    const w = await world();
    const byTask = await redactByTask(w, REDACTED_TEXTS);
    assert.equal(byTask.get("Fixes issue #12345"), "Fixes issue #12345");
    const row = await capturePrompt(w, "Fixes issue #12345");
    assert.equal(row.payload.prompt_redacted, "Fixes issue #12345");
    assert.equal(row.payload.redaction_match_count, 0);
  },
});

Deno.test({
  name:
    "AC 14: a Stop becomes memory.claude_session_completed with prompt_count, tool_use_count and duration_ms, which the daemon computes since Claude Code's Stop payload has none (departure)",
  ...SHARED,
  async fn() {
    const w = await world();
    const sessionId = crypto.randomUUID();
    const events: [ClaudeEvent, Parameters<typeof payload>[1]][] = [
      ["UserPromptSubmit", "user_prompt_submit"],
      ["PostToolUse", "post_tool_use_bash"],
      ["PostToolUseFailure", "post_tool_use_failure_bash"],
      ["PostToolUse", "post_tool_use_bash"],
      ["Stop", "stop_with_last_assistant_message"],
    ];
    for (const [event, name] of events) {
      const run = await runInstalledHook(w, event, await payload(w, name, sessionId));
      assert.equal(run.stderr, "", `${event}: ${run.stderr}`);
    }
    const rows = await sessionRows(w, sessionId, events.length);
    const stop = rows.at(-1)!;
    assert.equal(stop.kind, "memory.claude_session_completed");
    assert.equal(stop.payload.prompt_count, 1);
    assert.equal(stop.payload.tool_use_count, 3, "successes and failures");
    assert.ok(Number.isInteger(stop.payload.duration_ms));
    const sinceFirstMs = (Number(stop.payload.captured_at_ns) -
      Number(rows[0]!.payload.captured_at_ns)) / 1e6;
    assert.ok(
      Math.abs(Number(stop.payload.duration_ms) - sinceFirstMs) <= 1,
      `${stop.payload.duration_ms} vs ${sinceFirstMs}`,
    );
    assert.equal(rows[2]!.payload.outcome, "error");
  },
});

Deno.test({
  name: "AC 15: verify passes on an intact chain and names the seq of the first edited row",
  ...SHARED,
  async fn() {
    const w = await world();
    await capturePrompt(w, "one row at least");
    await capturePrompt(w, "and a second");
    const intact = await task(["verify"], { home: w.home, env: w.env });
    assert.equal(intact.code, 0, intact.stderr);
    assert.match(intact.stdout, /^chain intact: \d+ rows verified/m);

    const copy = `${w.dir}/edited/capture.db`;
    await Deno.mkdir(`${w.dir}/edited`, { mode: 0o700 });
    for (const suffix of ["", "-wal"]) {
      await Deno.copyFile(`${w.db}${suffix}`, `${copy}${suffix}`).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    }
    tamper(copy, (sql) =>
      sql.exec(
        "UPDATE rows SET payload = replace(payload, 'and a second', 'nothing here') WHERE payload LIKE '%and a second%'",
      ));
    const editedSeq = readRows(copy).find((row) => row.payload.prompt_redacted === "nothing here")!
      .seq;
    const edited = await task(["verify"], {
      home: w.home,
      env: { ...w.env, CYBEROS_MEMORY_DB: copy },
    });
    assert.equal(edited.code, 1);
    assert.match(edited.stderr, new RegExp(`Chain broken at seq ${editedSeq}:`));
  },
});

Deno.test({
  name:
    "AC 16: each hook run is one memory.claude.hook span in the session's trace, with hook_kind, session_id, duration_ms, redaction_match_count and outcome",
  ...SHARED,
  async fn() {
    const w = await world();
    const sessionId = crypto.randomUUID();
    const events: [ClaudeEvent, Parameters<typeof payload>[1], Record<string, unknown>][] = [
      ["UserPromptSubmit", "user_prompt_submit", { prompt: `keys ${AWS_KEY} and ${GITHUB_PAT}` }],
      ["PostToolUse", "post_tool_use_bash", {}],
      ["PostToolUseFailure", "post_tool_use_failure_bash", {}],
      ["Stop", "stop_with_last_assistant_message", {}],
    ];
    for (const [event, name, fields] of events) {
      await runInstalledHook(w, event, await payload(w, name, sessionId, fields));
    }
    const rows = await sessionRows(w, sessionId, events.length);
    const spans = await until("four spans of the session", () => {
      const found = w.receiver.spans().filter((s) => s.attributes.session_id === sessionId);
      return found.length >= events.length ? found : undefined;
    });
    assert.equal(spans.length, events.length);
    const traceId = String(rows[0]!.payload.trace_id);
    for (const span of spans) {
      assert.equal(span.name, "memory.claude.hook");
      assert.equal(span.traceId, traceId);
      assert.equal(span.attributes.outcome, "ok");
      assert.equal(typeof span.attributes.duration_ms, "number");
    }
    assert.deepEqual(
      spans.map((s) => s.attributes.hook_kind).sort(),
      ["posttooluse", "posttoolusefailure", "stop", "userpromptsubmit"],
    );
    const prompt = spans.find((s) => s.attributes.hook_kind === "userpromptsubmit")!;
    assert.equal(prompt.attributes.redaction_match_count, 2);
  },
});

Deno.test({
  name:
    "AC 17: memory_claude_hook_total{hook_kind,outcome} and memory_claude_hook_duration_seconds{hook_kind} count every hook run",
  ...SHARED,
  async fn() {
    const w = await world();
    await freshMetrics(w);
    const ok = { hook_kind: "posttooluse", outcome: "ok" };
    const before = metric(w, "memory_claude_hook_total", ok);
    const beforeDuration = metric(w, "memory_claude_hook_duration_seconds", {
      hook_kind: "posttooluse",
    });
    const sessionId = crypto.randomUUID();
    for (let i = 0; i < 3; i++) {
      await runInstalledHook(w, "PostToolUse", await payload(w, "post_tool_use_bash", sessionId));
    }
    await sessionRows(w, sessionId, 3);
    await freshMetrics(w);
    assert.equal(metric(w, "memory_claude_hook_total", ok) - before, 3);
    assert.equal(
      metric(w, "memory_claude_hook_duration_seconds", { hook_kind: "posttooluse" }) -
        beforeDuration,
      3,
    );
    const histogram = w.receiver.points().find((p) =>
      p.name === "memory_claude_hook_duration_seconds"
    )!;
    assert.equal(histogram.type, "histogram");
    assert.equal(histogram.unit, "s");
  },
});

Deno.test({
  name:
    "AC 18: with the daemon down the hook still exits 0 at once, silent on stdout, WARN socket_unavailable (and the row is not lost)",
  ...SHARED,
  async fn() {
    const w = await world();
    // Three runs each way, interleaved; the fastest of each is what load leaves alone.
    const upMs: number[] = [];
    const downMs: number[] = [];
    const sessions: string[] = [];
    for (let i = 0; i < 3; i++) {
      const input = await payload(w, "user_prompt_submit", crypto.randomUUID());
      upMs.push((await runInstalledHook(w, "UserPromptSubmit", input)).ms);
      const sessionId = crypto.randomUUID();
      sessions.push(sessionId);
      const down = await runInstalledHook(
        w,
        "UserPromptSubmit",
        await payload(w, "user_prompt_submit", sessionId),
        { edit: withSocket(w, `${w.dir}/nobody.sock`) },
      );
      assert.equal(down.code, 0);
      assert.equal(down.stdout, "");
      assert.match(down.stderr, /^cyberos-memory hook: WARN socket_unavailable: /);
      downMs.push(down.ms);
    }
    const [up, down] = [Math.min(...upMs), Math.min(...downMs)];
    assert.ok(down < 2 * up, `${down.toFixed(0)} ms down, ${up.toFixed(0)} ms up`);
    // Beyond the spec, which accepted the loss: the spooled rows are stored by the running daemon.
    for (const sessionId of sessions) {
      const [row] = await sessionRows(w, sessionId, 1, { timeoutMs: 15_000 });
      assert.equal(row!.kind, "memory.claude_prompt");
    }
  },
});

Deno.test({
  name: "AC 19: install is idempotent: a second run says already installed, the file unchanged",
  ...SHARED,
  async fn() {
    const w = await world();
    const before = await Deno.readTextFile(w.settingsFile);
    const again = await task(["install", w.project], { home: w.home, env: w.env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^already installed in /);
    assert.equal(await Deno.readTextFile(w.settingsFile), before);
  },
});

Deno.test({
  name: "AC 20: install keeps the user's own Stop hook, first",
  ...SHARED,
  async fn() {
    const w = await world();
    const settings = JSON.parse(await Deno.readTextFile(w.settingsFile));
    assert.equal(settings.hooks.Stop.length, 2);
    assert.equal(settings.hooks.Stop[0].hooks[0].command, "say done");
    assert.equal(settings.hooks.Stop[1].hooks[0].command, await installedCommand(w, "Stop"));
  },
});

Deno.test({
  name: "AC 21: uninstall leaves only the user's hooks, byte for byte",
  ...SHARED,
  async fn() {
    const w = await world();
    const installed = await Deno.readTextFile(w.settingsFile);
    const removed = await task(["uninstall", w.project], { home: w.home, env: w.env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(await Deno.readTextFile(w.settingsFile), USER_SETTINGS);
    // Put it back for the tests after this one: install writes the same bytes again.
    const back = await task(["install", w.project], { home: w.home, env: w.env });
    assert.equal(back.code, 0, back.stderr);
    assert.equal(await Deno.readTextFile(w.settingsFile), installed);
  },
});

Deno.test({
  name:
    "AC 22: status prints installed, the daemon answering, and the time and session of the project's last capture",
  ...SHARED,
  async fn() {
    const w = await world();
    const row = await capturePrompt(w, "the last prompt before status");
    const status = await task(["status", w.project], { home: w.home, env: w.env });
    assert.equal(status.code, 0, status.stderr);
    const lines = status.stdout.split("\n");
    assert.equal(lines[0], "installed");
    assert.ok(lines.includes(`daemon: answering on ${w.socket}`), status.stdout);
    const when = formatTime(row.payload.captured_at_ns, { date: true });
    assert.ok(
      lines.some((line) =>
        line.startsWith(`last capture: ${when} `) &&
        line.includes(` session ${row.payload.session_id}`)
      ),
      status.stdout,
    );
  },
});

Deno.test({
  name:
    "AC 23: a hook run while the daemon was down is counted as outcome socket_unavailable once the daemon sees it",
  ...SHARED,
  async fn() {
    const w = await world();
    await freshMetrics(w);
    const series = { hook_kind: "stop", outcome: "socket_unavailable" };
    const before = metric(w, "memory_claude_hook_total", series);
    const sessionId = crypto.randomUUID();
    const down = await runInstalledHook(
      w,
      "Stop",
      await payload(w, "stop_with_last_assistant_message", sessionId),
      { edit: withSocket(w, `${w.dir}/nobody.sock`) },
    );
    assert.match(down.stderr, /WARN socket_unavailable/);
    await sessionRows(w, sessionId, 1, { timeoutMs: 15_000 });
    await freshMetrics(w);
    assert.equal(metric(w, "memory_claude_hook_total", series) - before, 1);
  },
});

Deno.test({
  name:
    'AC 24: memory_claude_hook_redactions_total{pattern="aws_access_key"} counts each AWS key redacted',
  ...SHARED,
  async fn() {
    const w = await world();
    await freshMetrics(w);
    const before = metric(w, "memory_claude_hook_redactions_total", { pattern: "aws_access_key" });
    await capturePrompt(w, `old ${AWS_KEY}, new ${SECOND_AWS_KEY}`);
    await freshMetrics(w);
    const after = metric(w, "memory_claude_hook_redactions_total", { pattern: "aws_access_key" });
    assert.equal(after - before, 2);
  },
});

// ---- The eight MUSTs of §1 -------------------------------------------------------------------

Deno.test({
  name:
    "MUST 1: the hook always exits 0 and never holds Claude Code up: bad payload, daemon down, daemon not reading",
  ...SHARED,
  async fn() {
    const w = await world();
    const sessionId = crypto.randomUUID();
    const good = await payload(w, "user_prompt_submit", sessionId);
    // A frame larger than the socket's buffer (about 200 KB) waits for a reader.
    const large = await payload(w, "user_prompt_submit", sessionId, {
      prompt: "lorem ipsum ".repeat(30_000),
    });
    // The same inputs with the daemon up: the time a run takes when nothing goes wrong.
    const upMs = new Map<string, number>();
    for (const input of [good, large]) {
      upMs.set(input, (await runInstalledHook(w, "UserPromptSubmit", input)).ms);
    }
    const hung = Deno.listen({ transport: "unix", path: `${w.dir}/hung.sock` });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of hung) held.push(conn); // Accepts, never reads.
    })();
    try {
      const cases: [string, string, ((command: string) => string) | undefined, string][] = [
        ["not JSON", "{not json", undefined, "invalid_payload"],
        [
          "a session id that climbs out of the trace dir",
          await payload(w, "user_prompt_submit", "../../x"),
          undefined,
          "invalid_payload",
        ],
        ["daemon down", good, withSocket(w, `${w.dir}/nobody.sock`), "socket_unavailable"],
        ["daemon not reading", large, withSocket(w, `${w.dir}/hung.sock`), "emit_timeout"],
      ];
      for (const [what, input, edit, word] of cases) {
        const run = await runInstalledHook(w, "UserPromptSubmit", input, edit ? { edit } : {});
        assert.equal(run.code, 0, what);
        assert.equal(run.stdout, "", what);
        assert.match(run.stderr, new RegExp(`WARN ${word}`), `${what}: ${run.stderr}`);
        const usual = upMs.get(input) ?? upMs.get(good)!;
        assert.ok(
          run.ms < 3 * usual + 500,
          `${what}: ${run.ms.toFixed(0)} ms, ${usual.toFixed(0)} ms with the daemon up`,
        );
      }
      assert.deepEqual([...Deno.readDirSync(w.dir)].filter((e) => e.name === "x"), []);
    } finally {
      hung.close();
      await accepting.catch(() => {});
      for (const conn of held) conn.close();
    }
  },
});

Deno.test({
  name: "MUST 2: the hook prints nothing on stdout for any of the four events",
  ...SHARED,
  async fn() {
    const w = await world();
    const sessionId = crypto.randomUUID();
    const events: [ClaudeEvent, Parameters<typeof payload>[1]][] = [
      ["UserPromptSubmit", "user_prompt_submit"],
      ["PostToolUse", "post_tool_use_bash"],
      ["PostToolUseFailure", "post_tool_use_failure_bash"],
      ["Stop", "stop_with_last_assistant_message"],
    ];
    for (const [event, name] of events) {
      const run = await runInstalledHook(w, event, await payload(w, name, sessionId));
      assert.equal(run.code, 0, event);
      assert.equal(run.stdout, "", `${event} wrote on stdout`);
      assert.equal(run.stderr, "", `${event}: ${run.stderr}`);
    }
    assert.equal((await sessionRows(w, sessionId, 4)).length, 4);
  },
});

Deno.test({
  name:
    "MUST 3: the whole hook process stays within 50 ms p95, or within 1.25× an empty deno run's p95 measured side by side",
  ...SHARED,
  async fn() {
    const w = await world();
    const empty = `${w.dir}/empty.ts`;
    await Deno.writeTextFile(empty, "");
    const input = await payload(w, "user_prompt_submit", crypto.randomUUID(), {
      prompt: `A 4 KB prompt with ${AWS_KEY} and ${GITHUB_PAT}. `.padEnd(4096, "lorem ipsum "),
    });
    // The floor starts the way the hook does (through sh -c, its stdin written), as the bench does.
    const floorCommand = `exec ${shellQuote(Deno.execPath())} run -q ${shellQuote(empty)}`;
    const floorRun = async () =>
      (await runInstalledHook(w, "UserPromptSubmit", input, { edit: () => floorCommand })).ms;
    // As many runs as the bench's: the p95 of 40 was their second slowest, one stall away
    // from a failure on a shared machine. Each pair in turn starts with the other, as there.
    const measure = async () => {
      const hook: number[] = [];
      const floor: number[] = [];
      for (let i = 0; i < HOOK_GATE_RUNS; i++) {
        if (i % 2 === 0) {
          hook.push((await runInstalledHook(w, "UserPromptSubmit", input)).ms);
          floor.push(await floorRun());
        } else {
          floor.push(await floorRun());
          hook.push((await runInstalledHook(w, "UserPromptSubmit", input)).ms);
        }
      }
      return { hook: summarise(hook), baseline: summarise(floor) };
    };
    await runInstalledHook(w, "UserPromptSubmit", input); // Warm the caches.
    let timings = await measure();
    if (hookGateFails(timings)) timings = await measure(); // Once more, as the CI gate does.
    console.log(
      `hook p95 ${timings.hook.p95.toFixed(1)} ms (median ${timings.hook.median.toFixed(1)}), ` +
        `empty deno run p95 ${timings.baseline.p95.toFixed(1)} ms (median ${
          timings.baseline.median.toFixed(1)
        })`,
    );
    assert.ok(!hookGateFails(timings), JSON.stringify(timings));
  },
});

Deno.test({
  name:
    "MUST 4: no secret and no raw tool argument or response leaves the hook: not in the store, the spool or the telemetry",
  ...SHARED,
  async fn() {
    const w = await world();
    const sessionId = crypto.randomUUID();
    const secrets = [AWS_KEY, GITHUB_PAT, "Pw-OLPK8bDVGD77sfRg"];
    const raw = ["marker-input-5d1e", "marker-output-0b7c"];
    const events: [ClaudeEvent, Parameters<typeof payload>[1], Record<string, unknown>][] = [
      ["UserPromptSubmit", "user_prompt_submit", { prompt: `use ${AWS_KEY} and ${GITHUB_PAT}` }],
      ["PostToolUse", "post_tool_use_bash", {
        tool_input: { command: `deploy --password=Pw-OLPK8bDVGD77sfRg ${raw[0]}` },
        tool_response: { stdout: `${raw[1]} ${GITHUB_PAT}`, stderr: "" },
      }],
      ["PostToolUseFailure", "post_tool_use_failure_bash", {
        tool_input: { command: `${raw[0]} ${AWS_KEY}` },
        error: `Exit code 1\ntoken ${GITHUB_PAT} refused`,
      }],
      ["Stop", "stop_with_last_assistant_message", {
        last_assistant_message: `Pushed with ${GITHUB_PAT}.`,
      }],
    ];
    for (const [event, name, fields] of events) {
      await runInstalledHook(w, event, await payload(w, name, sessionId, fields));
    }
    await sessionRows(w, sessionId, events.length);
    await until(
      "the session's spans",
      () =>
        w.receiver.spans().filter((s) => s.attributes.session_id === sessionId).length >=
            events.length
          ? true
          : undefined,
    );
    const places: [string, Uint8Array][] = [];
    const walk = (dir: string) => {
      for (const entry of Deno.readDirSync(dir)) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory) walk(path);
        else if (entry.isFile) places.push([path, Deno.readFileSync(path)]);
      }
    };
    walk(w.traceDir);
    walk(`${w.db.slice(0, w.db.lastIndexOf("/"))}`);
    w.receiver.requests.forEach((r, i) => places.push([`OTLP request ${i} ${r.path}`, r.body]));
    const latin1 = new TextDecoder("latin1");
    for (const [where, bytes] of places) {
      const text = latin1.decode(bytes);
      for (const needle of [...secrets, ...raw]) {
        assert.ok(!text.includes(needle), `${needle} found in ${where}`);
      }
    }
  },
});

Deno.test({
  name:
    "MUST 5: the store is a hash chain anyone can re-check: hash = BLAKE3(prev_hash ‖ JCS({kind, payload, seq})) from 64 zeros",
  ...SHARED,
  async fn() {
    const w = await world();
    await capturePrompt(w, "a row for the chain");
    const tail = await task(["tail", "--json", "-n", "1000000"], { home: w.home, env: w.env });
    assert.equal(tail.code, 0, tail.stderr);
    const rows = tail.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    assert.ok(rows.length > 0);
    let prev = "0".repeat(64);
    for (const [i, row] of rows.entries()) {
      assert.equal(row.seq, i + 1);
      assert.equal(row.prev_hash, prev, `seq ${row.seq}`);
      const canonical = canonicalJson({ kind: row.kind, payload: row.payload, seq: row.seq });
      assert.equal(row.hash, blake3Hex(prev + canonical), `seq ${row.seq}`);
      prev = row.hash;
    }
  },
});

Deno.test({
  name: "MUST 6: one trace id per session: 32 lowercase hex, the same on every row of a session",
  ...SHARED,
  async fn() {
    const w = await world();
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    for (
      const [sessionId, event, name] of [
        [first, "UserPromptSubmit", "user_prompt_submit"],
        [second, "UserPromptSubmit", "user_prompt_submit"],
        [first, "PostToolUse", "post_tool_use_bash"],
        [first, "Stop", "stop_with_last_assistant_message"],
      ] as const
    ) {
      await runInstalledHook(w, event, await payload(w, name, sessionId));
    }
    const firstRows = await sessionRows(w, first, 3);
    const [secondRow] = await sessionRows(w, second, 1);
    const traceId = String(firstRows[0]!.payload.trace_id);
    assert.match(traceId, /^[0-9a-f]{32}$/);
    assert.ok(firstRows.every((row) => row.payload.trace_id === traceId));
    assert.match(String(secondRow!.payload.trace_id), /^[0-9a-f]{32}$/);
    assert.notEqual(secondRow!.payload.trace_id, traceId);
  },
});

Deno.test({
  name:
    "MUST 7: the socket and trace ids live in a private per-user folder, not the spec's /tmp (departure)",
  ...SHARED,
  async fn() {
    const w = await world();
    const home = `${w.dir}/home7`;
    const project = `${w.dir}/project7`;
    await Deno.mkdir(home);
    await Deno.mkdir(project);
    const env = { CYBEROS_MEMORY_DB: `${w.dir}/store7/capture.db` }; // No socket or trace dir set.
    const install = await task(["install", project], { home, env });
    assert.equal(install.code, 0, install.stderr);
    const settings = await Deno.readTextFile(`${project}/.claude/settings.json`);
    const runtime = `${home}/.local/state/cyberos-memory`;
    assert.ok(settings.includes(`--socket '${runtime}/capture.sock'`), settings);
    assert.ok(settings.includes(`--trace-dir '${runtime}'`), settings);
    assert.ok(!settings.includes("/tmp/cyberos-memory"), settings);
    const daemon = await startTask(`${runtime}/capture.sock`, { root: ROOT, home, env });
    try {
      assert.equal((await Deno.stat(runtime)).mode! & 0o777, 0o700, "private to the user");
      assert.ok((await Deno.stat(`${runtime}/capture.sock`)).isSocket);
    } finally {
      await daemon.stop();
    }
  },
});

Deno.test({
  name:
    "MUST 8: a redactor that fails stores a row without any content (fail closed), and the hook still exits 0",
  ...SHARED,
  async fn() {
    const w = await world();
    const sessionId = crypto.randomUUID();
    const run = await runInstalledHook(
      w,
      "UserPromptSubmit",
      await payload(w, "user_prompt_submit", sessionId, { prompt: `secret ${AWS_KEY}` }),
      {
        edit: (command) =>
          command.replace(/ userpromptsubmit$/, " --fail-redaction userpromptsubmit"),
      },
    );
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /WARN redaction_failed/);
    const [row] = await sessionRows(w, sessionId, 1);
    assert.equal(row!.kind, "memory.claude_capture_redaction_failed");
    assert.deepEqual(Object.keys(row!.payload), [
      "session_id",
      "error",
      "trace_id",
      "captured_at_ns",
    ]);
    assert.ok(!JSON.stringify(row).includes(AWS_KEY));
  },
});

Deno.test({
  name:
    "Acceptance: after every test above, the daemon stops on SIGTERM and verify passes on all they stored",
  ...SHARED,
  async fn() {
    const w = await world();
    const stored = readRows(w.db).length;
    await w.daemon.stop();
    const verify = await task(["verify"], { home: w.home, env: w.env });
    assert.equal(verify.code, 0, verify.stderr);
    const verified = Number(verify.stdout.match(/^chain intact: (\d+) rows verified/m)?.[1]);
    assert.ok(verified >= stored, verify.stdout);
    await tearDown();
  },
});
