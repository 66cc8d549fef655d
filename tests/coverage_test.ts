/**
 * `coverage`'s pure parts: reading real Claude Code transcripts into the events its hooks fire,
 * comparing them with captured events, the command line and the printed report.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseCoverageArgs, UsageError } from "../coverage/_args.ts";
import { compareSession } from "../coverage/_compare.ts";
import { listTranscripts, projectFolderName, readTranscript } from "../coverage/_find.ts";
import { isoSecond, printable, sessionLines, totalLine } from "../coverage/_report.ts";
import type { CapturedEvents } from "../coverage/_store.ts";
import { parseTranscript } from "../coverage/_transcript.ts";
import { ROOT } from "./_daemon.ts";

const DIR = `${ROOT}/tests/fixtures/transcripts`;
const REFUSED = await Deno.readTextFile(`${DIR}/refused_compact_api_error.jsonl`);
const SUBAGENT = await Deno.readTextFile(`${DIR}/subagent_resume.jsonl`);
const NOTIFIED = await Deno.readTextFile(`${DIR}/task_notification.jsonl`);
const NOTIFIED_INNER = await Deno.readTextFile(`${DIR}/task_notification.subagent.jsonl`);
const KILLED = await Deno.readTextFile(`${DIR}/killed.jsonl`);
const FORK = await Deno.readTextFile(`${DIR}/fork.jsonl`);
const SUBAGENT_INNER = await Deno.readTextFile(`${DIR}/subagent_resume.subagent.jsonl`);

const ms = (iso: string) => Date.parse(iso);

function capturedAll(
  record: ReturnType<typeof parseTranscript>,
  stopsMs: number[],
): CapturedEvents {
  return {
    promptIds: new Set(record.prompts.map((p) => p.promptId)),
    toolCalls: new Map(record.toolCalls.map((c) => [c.toolUseId, c.outcome])),
    stopsMs,
  };
}

Deno.test(
  "parseTranscript() keeps what fired hooks: no refused, unknown or invalid tool call, no /compact prompt, no Stop after an API error",
  {
    permissions: "none",
  },
  () => {
    const record = parseTranscript({ main: REFUSED, subagents: [] });
    assert.deepEqual(record.prompts.map((p) => p.promptId), [
      "5950607b-0d78-4d5e-b644-a89d0a800bee",
      "94dbf3ed-9814-4b34-913d-0d9fbc4abf79",
      "5fc3c634-77fe-4b0f-8dc7-a3d947b0999b",
    ]);
    assert.deepEqual(record.toolCalls, [
      {
        toolUseId: "toolu_01259fade076b748b3b932000b",
        toolName: "Bash",
        outcome: "success",
        atMs: ms("2026-12-01T15:00:19.180Z"),
      },
      {
        toolUseId: "toolu_01d0b509dc095c4c23913d000k",
        toolName: "Bash",
        outcome: "success",
        atMs: ms("2026-12-01T15:00:22.565Z"),
      },
    ]);
    assert.deepEqual(record.turns, [
      { endMs: ms("2026-12-01T15:00:19.286Z"), firesStop: true },
      { endMs: ms("2026-12-01T15:00:22.623Z"), firesStop: true },
      { endMs: ms("2026-12-01T15:00:23.501Z"), firesStop: false },
    ]);
    assert.equal(record.unreadableLines, 0);
  },
);

Deno.test(
  "parseTranscript() counts a subagent's tool calls but never ends a turn on its messages",
  {
    permissions: "none",
  },
  () => {
    const record = parseTranscript({ main: SUBAGENT, subagents: [SUBAGENT_INNER] });
    assert.equal(record.prompts.length, 2);
    assert.deepEqual(
      record.toolCalls.map((c) => `${c.toolName} ${c.outcome} ${c.toolUseId}`),
      [
        "Bash success toolu_0141ffc744281b4982b7d10002",
        "Bash error toolu_010787e81e5b104dbbad090005",
        "Bash success toolu_012ccd5659710047769d07000b",
        "Agent success toolu_017d97e78701e34385a5e40008",
        "Bash success toolu_011a4041d64a714e338a69000i",
        "Bash success toolu_0152d4339030ac4ce197e1000j",
      ],
    );
    assert.deepEqual(record.turns, [
      { endMs: ms("2026-12-01T14:59:21.774Z"), firesStop: true },
      { endMs: ms("2026-12-01T14:59:22.516Z"), firesStop: true },
    ]);
    // The same subagent entries inside the main file (older layout, isSidechain) change nothing.
    const inline = parseTranscript({ main: SUBAGENT + SUBAGENT_INNER, subagents: [] });
    assert.deepEqual(inline.turns, record.turns);
    assert.equal(inline.toolCalls.length, 6);
  },
);

Deno.test(
  "parseTranscript() counts a background task's notification as a prompt that starts a turn",
  {
    permissions: "none",
  },
  () => {
    const record = parseTranscript({ main: NOTIFIED, subagents: [NOTIFIED_INNER] });
    assert.deepEqual(record.prompts.map((p) => p.promptId), [
      "86a7929d-8ecd-4de0-80b5-c6607c3787ab",
      "7c32b244-5d51-45aa-b997-94e836017ce9",
    ]);
    assert.deepEqual(record.toolCalls.map((c) => `${c.toolName} ${c.toolUseId}`), [
      "Agent toolu_014f1c18f03edd439d92ef0002",
      "Bash toolu_0183825c15a8d54b8cb1020005",
    ]);
    assert.deepEqual(record.turns, [
      { endMs: ms("2026-12-01T15:09:34.896Z"), firesStop: true },
      { endMs: ms("2026-12-01T15:09:36.603Z"), firesStop: true },
    ]);
  },
);

Deno.test("parseTranscript() expects no Stop and no result of a turn Claude Code was killed in", {
  permissions: "none",
}, () => {
  const record = parseTranscript({ main: KILLED, subagents: [] });
  assert.equal(record.prompts.length, 1);
  assert.deepEqual(record.toolCalls.map((c) => c.toolUseId), ["toolu_0126cd33ec485b49ab95f30002"]);
  assert.deepEqual(record.turns, [{ endMs: ms("2026-12-01T15:10:05.870Z"), firesStop: false }]);
});

Deno.test("parseTranscript() leaves out the history a forked session copied from its parent", {
  permissions: "none",
}, () => {
  const record = parseTranscript({ main: FORK, subagents: [] });
  assert.deepEqual(record.prompts, [
    { promptId: "6e7fb2e5-99a1-4499-ab00-ce2a4ade6d7b", atMs: ms("2026-12-01T15:06:04.611Z") },
  ]);
  assert.deepEqual(record.toolCalls.map((c) => c.toolUseId), ["toolu_01633f7d90406241298a720002"]);
  assert.deepEqual(record.turns, [{ endMs: ms("2026-12-01T15:06:04.895Z"), firesStop: true }]);
});

Deno.test("parseTranscript() skips lines that are not JSON objects and survives hostile shapes", {
  permissions: "none",
}, () => {
  const hostile = [
    "not json",
    "[]",
    "null",
    '{"type":"user","message":null,"promptSource":"sdk"}',
    '{"type":"assistant","message":{"content":"text"}}',
    '{"type":"user","message":{"content":[null,1,{"type":"tool_result"}]}}',
    '{"type":"user","timestamp":"x","promptSource":"sdk","promptId":"p","message":{"content":"hi"}}',
    '{"type":"user","timestamp":"2026-12-01T00:00:00Z","promptSource":"sdk","promptId":"p2","message":{"content":"hi"}}',
    '{"type":"user","timestamp":"2026-12-01T00:00:01Z","promptSource":"sdk","promptId":"p2","message":{"content":"again"}}',
  ].join("\n");
  const record = parseTranscript({ main: `${hostile}\n{"cut short`, subagents: [] });
  assert.equal(record.unreadableLines, 4);
  assert.deepEqual(record.prompts, [{ promptId: "p2", atMs: ms("2026-12-01T00:00:00Z") }]);
  assert.deepEqual(record.turns, []);
});

Deno.test("compareSession() reports 100 % when every event was captured", {
  permissions: "none",
}, () => {
  const record = parseTranscript({ main: SUBAGENT, subagents: [SUBAGENT_INNER] });
  const coverage = compareSession(
    record,
    capturedAll(record, [ms("2026-12-01T14:59:21.900Z"), ms("2026-12-01T14:59:22.600Z")]),
  );
  assert.deepEqual(coverage.missing, []);
  assert.deepEqual(coverage.prompts, { captured: 2, seen: 2 });
  assert.deepEqual(coverage.toolSuccesses, { captured: 5, seen: 5 });
  assert.deepEqual(coverage.toolFailures, { captured: 1, seen: 1 });
  assert.deepEqual(coverage.turns, { captured: 2, seen: 2 });
});

Deno.test("compareSession() names each missing prompt, tool call and turn end", {
  permissions: "none",
}, () => {
  const record = parseTranscript({ main: SUBAGENT, subagents: [SUBAGENT_INNER] });
  const captured = capturedAll(record, [ms("2026-12-01T14:59:22.600Z")]);
  captured.promptIds.delete("afb8a791-09fe-44e1-a6d2-7c5696f2840e");
  captured.toolCalls.delete("toolu_010787e81e5b104dbbad090005");
  const coverage = compareSession(record, captured);
  assert.deepEqual(coverage.missing, [
    {
      kind: "tool",
      atMs: ms("2026-12-01T14:59:21.429Z"),
      toolUseId: "toolu_010787e81e5b104dbbad090005",
      toolName: "Bash",
      outcome: "error",
    },
    { kind: "turn", atMs: ms("2026-12-01T14:59:21.774Z") },
    { kind: "prompt", atMs: ms("2026-12-01T14:59:22.331Z") },
  ]);
  assert.deepEqual(coverage.toolFailures, { captured: 0, seen: 1 });
  assert.deepEqual(coverage.turns, { captured: 1, seen: 2 });
});

Deno.test("compareSession() credits a Stop only to the turn that ended last before it", {
  permissions: "none",
}, async (t) => {
  const record = parseTranscript({ main: REFUSED, subagents: [] });
  const cases: [name: string, stops: string[], captured: number][] = [
    ["both turns", ["2026-12-01T15:00:19.300Z", "2026-12-01T15:00:22.700Z"], 2],
    ["a Stop before the first turn ended", ["2026-12-01T15:00:19.000Z"], 0],
    [
      "two Stops of one turn count once",
      ["2026-12-01T15:00:19.300Z", "2026-12-01T15:00:19.400Z"],
      1,
    ],
    ["a Stop after the API-error turn is no one's", ["2026-12-01T15:00:23.600Z"], 0],
  ];
  for (const [name, stops, captured] of cases) {
    await t.step(name, () => {
      const coverage = compareSession(record, capturedAll(record, stops.map(ms)));
      assert.deepEqual(coverage.turns, { captured, seen: 2 });
      assert.equal(coverage.turnsWithoutStop, 1);
    });
  }
});

Deno.test("compareSession() with sinceMs counts only events at or after it", {
  permissions: "none",
}, () => {
  const record = parseTranscript({ main: REFUSED, subagents: [] });
  const nothing: CapturedEvents = { promptIds: new Set(), toolCalls: new Map(), stopsMs: [] };
  const coverage = compareSession(record, nothing, { sinceMs: ms("2026-12-01T15:00:20Z") });
  assert.deepEqual(coverage.prompts, { captured: 0, seen: 2 });
  assert.deepEqual(coverage.toolSuccesses, { captured: 0, seen: 1 });
  assert.deepEqual(coverage.turns, { captured: 0, seen: 1 });
});

Deno.test("parseCoverageArgs() reads --session and --since and refuses anything else", {
  permissions: "none",
}, async (t) => {
  const now = ms("2026-12-01T12:00:00Z");
  const good: [string[], { session?: string; sinceMs?: number; help?: boolean }][] = [
    [[], {}],
    [["-h"], { help: true }],
    [["--help"], { help: true }],
    [["--session", "70b82f27"], { session: "70b82f27" }],
    [["--since", "30m"], { sinceMs: now - 30 * 60_000 }],
    [["--since", "2h"], { sinceMs: now - 2 * 3_600_000 }],
    [["--since", "7d"], { sinceMs: now - 7 * 86_400_000 }],
    [["--since", "2026-11-30"], { sinceMs: ms("2026-11-30") }],
    [["--since", "2026-11-30T10:00:00Z"], { sinceMs: ms("2026-11-30T10:00:00Z") }],
  ];
  for (const [args, expected] of good) {
    await t.step(`accepts ${JSON.stringify(args)}`, () => {
      assert.deepEqual(parseCoverageArgs(args, now), {
        help: false,
        session: undefined,
        sinceMs: undefined,
        ...expected,
      });
    });
  }
  const bad: [string[], RegExp][] = [
    [["--json"], /^unknown argument "--json"; use --session ID, --since TIME or --help$/],
    [["--session"], /^--session needs a session id/],
    [["--session", "../etc"], /^--session needs a session id .*got "\.\.\/etc"$/],
    [["--since"], /^--since needs an ISO time/],
    [["--since", "yesterday"], /^--since needs an ISO time .*got "yesterday"$/],
    [["--since", "0h"], /^--since needs/],
    [["--since", "2026-13-45"], /^--since needs/],
    [["\x1b[2Jx"], /^unknown argument "\?\[2Jx"/],
  ];
  for (const [args, message] of bad) {
    await t.step(`refuses ${JSON.stringify(args)}`, () => {
      assert.throws(() => parseCoverageArgs(args, now), (error: Error) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

Deno.test("printable() leaves no control, bidi or line-separator character and bounds the length", {
  permissions: "none",
}, () => {
  assert.equal(printable("a\x1b[31mb\nc\rd\u202ee\u2028f\u0085g"), "a?[31mb?c?d?e?f?g");
  assert.equal(printable("x".repeat(300), 10), `${"x".repeat(9)}…`);
});

Deno.test("sessionLines() and totalLine() print counts, ids, tool names and times only", {
  permissions: "none",
}, () => {
  const record = parseTranscript({ main: SUBAGENT, subagents: [SUBAGENT_INNER] });
  const captured = capturedAll(record, [ms("2026-12-01T14:59:21.900Z")]);
  captured.toolCalls.delete("toolu_010787e81e5b104dbbad090005");
  const report = {
    sessionId: "70b82f27-5db9-4d0b-9c49-34a647f534de",
    cwd: "/tmp/evil\x1b]0;title\x07",
    coverage: compareSession(record, captured),
    inStore: true,
  };
  assert.deepEqual(sessionLines(report, "/p"), [
    "session 70b82f27-5db9-4d0b-9c49-34a647f534de  /tmp/evil?]0;title?",
    "  prompts     2/2",
    "  tool calls  5/6 (success 5/5, error 0/1)",
    "  turns       1/2",
    "  missing tool call toolu_010787e81e5b104dbbad090005 (Bash, error) at 2026-12-01T14:59:21Z",
    "  missing turn end (Stop) at 2026-12-01T14:59:22Z",
  ]);
  assert.equal(
    totalLine([report, { sessionId: "x", cwd: undefined, noTranscript: true }]),
    "coverage: 1 session compared, 8/10 captured (80 %), 2 missing",
  );
  assert.equal(isoSecond(ms("2026-12-01T14:56:37.999Z")), "2026-12-01T14:56:37Z");
});

Deno.test("totalLine() never rounds a gap up to 100 %", { permissions: "none" }, () => {
  const tally = (captured: number, seen: number) => ({ captured, seen });
  const coverage = {
    prompts: tally(1999, 2000),
    toolSuccesses: tally(0, 0),
    toolFailures: tally(0, 0),
    turns: tally(0, 0),
    turnsWithoutStop: 0,
    missing: [{ kind: "prompt" as const, atMs: 0 }],
    unreadableLines: 2,
  };
  const report = { sessionId: "s", cwd: undefined, coverage, inStore: true };
  assert.equal(
    totalLine([report]),
    "coverage: 1 session compared, 1999/2000 captured (99.9 %), 1 missing",
  );
  assert.ok(
    sessionLines(report, "/p").includes("  2 transcript line(s) were not JSON and were skipped"),
  );
});

Deno.test("projectFolderName() is Claude Code's folder name for a working directory", {
  permissions: "none",
}, () => {
  assert.equal(projectFolderName("/tmp/cyberos-cc-XXXX/project"), "-tmp-cyberos-cc-XXXX-project");
  // Checked under the real CLI: a project at /tmp/i22c/sp/my app.v2_x got -tmp-i22c-sp-my-app-v2-x.
  assert.equal(projectFolderName("/tmp/i22c/sp/my app.v2_x"), "-tmp-i22c-sp-my-app-v2-x");
});

Deno.test("listTranscripts() and readTranscript() find sessions by id in any folder and follow no symbolic link", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-coverage-" });
  try {
    const projects = `${dir}/projects`;
    const outside = `${dir}/outside`;
    await Deno.mkdir(`${projects}/-any-folder/70b82f27-5db9-4d0b-9c49-34a647f534de`, {
      recursive: true,
    });
    await Deno.mkdir(`${projects}/-other`);
    await Deno.mkdir(outside);
    await Deno.writeTextFile(`${outside}/agent-a.jsonl`, SUBAGENT_INNER);
    await Deno.writeTextFile(`${outside}/planted.jsonl`, REFUSED);
    await Deno.writeTextFile(
      `${projects}/-any-folder/70b82f27-5db9-4d0b-9c49-34a647f534de.jsonl`,
      SUBAGENT,
    );
    // A subagents folder that is a link elsewhere, a transcript that is a link, a bad name.
    await Deno.symlink(
      outside,
      `${projects}/-any-folder/70b82f27-5db9-4d0b-9c49-34a647f534de/subagents`,
    );
    await Deno.symlink(
      `${outside}/planted.jsonl`,
      `${projects}/-other/1b3aae49-0099-41b2-9e6c-eb0c0db426f2.jsonl`,
    );
    await Deno.writeTextFile(`${projects}/-other/..hidden.jsonl`, REFUSED);
    const found = await listTranscripts(projects);
    assert.deepEqual([...found.keys()], ["70b82f27-5db9-4d0b-9c49-34a647f534de"]);
    const texts = await readTranscript(found.get("70b82f27-5db9-4d0b-9c49-34a647f534de")!);
    assert.deepEqual(texts, { main: SUBAGENT, subagents: [] });
    assert.deepEqual(await listTranscripts(`${dir}/missing`), new Map());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
