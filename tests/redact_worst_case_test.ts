/**
 * The redactor's worst case (issue 18, L3; issue 21): every rule's prefix
 * repeated, each alone and all mixed, stays linear and near the issue's
 * 100 ms per MiB. In-process every prefix, and the mix of all of them, is
 * timed against realistic text of the same size measured side by side (a
 * loaded machine slows both); the mix, `"Authorization: Basic "` and the
 * slowest prefixes go through the installed hook at 16 MiB, which must exit
 * 0 within 2 s (or, on a loaded machine, within 10× the time of prose of the
 * same size through the same hook), and its row must be stored (sent, or
 * spooled and drained when the daemon was slow to read).
 *
 * @module
 */

import assert from "node:assert/strict";
import process from "node:process";
import { RedactionTimeoutError, redactText } from "../lib/redact/mod.ts";
import { ROW_KINDS } from "../lib/kinds.ts";
import { RULES } from "../lib/redact/rules/mod.ts";
import { repeatTo, rulePrefixes, textWithSecrets } from "../bench/_payloads.ts";
import { MAX_REDACTION_MIX_RATIO, MAX_REDACTION_PROSE_RATIO } from "../bench/_gates.ts";
import { readRows, runHook, startTestDaemon, waitForRows } from "./_daemon.ts";

const KIB = 1024;
const MIB = 1024 * KIB;
const PROSE =
  "The checkout service times out when the cart has more than 40 items; the trace shows the " +
  "pricing call retried 3 times at 2025-11-30T10:42:17Z (order 88213, PR #4521).\n";
/**
 * How much slower than realistic text of the same size (prose with a few
 * secrets) one prefix repeated, or the mix, may be in-process, in CPU time:
 * the benchmark's ratio bars (`bench/_gates.ts`). A slow or quadratic rule
 * shows at 20× and far more; the benchmark also holds the 100 ms.
 */
const MAX_RATIO = MAX_REDACTION_PROSE_RATIO;
/** The same for the mix, which runs every rule at once and so grows with their number. */
const MIX_MAX_RATIO = MAX_REDACTION_MIX_RATIO;
/**
 * On a loaded machine, how much slower than 16 MiB of prose through the hook
 * a 16 MiB adversarial prompt may be. Measured under load 8 to 12: prose
 * 0.45 to 1 s, the mix 4×, dense `--password=x` assignments up to 7.4× (two
 * rules' candidates at every 26 characters); a quadratic rule is 100× and more.
 */
const PROSE_RATIO = 10;

const MIX = "mix of every rule's prefixes";

/** CPU time of one redaction, ms: time spent waiting for a core on a loaded machine does not count. */
function cpuMs(text: string): number {
  const before = process.cpuUsage();
  redactText(text);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * The ratio of `text`'s CPU time to `realistic`'s: the least of `runs` runs
 * each, taken in turn, since a loaded machine only ever adds time.
 */
function ratioTo(text: string, realistic: string, runs: number): number {
  let [least, leastRealistic] = [Infinity, Infinity];
  for (let i = 0; i < runs; i++) {
    least = Math.min(least, cpuMs(text));
    leastRealistic = Math.min(leastRealistic, cpuMs(realistic));
  }
  return least / leastRealistic;
}

/** The ratio an input must stay under: {@linkcode MIX_MAX_RATIO} for the mix, else {@linkcode MAX_RATIO}. */
function barOf(name: string): number {
  return name === MIX ? MIX_MAX_RATIO : MAX_RATIO;
}

/**
 * Each prefix's time, and the mix's, over realistic text's, slowest first. A
 * slow one is measured again, five runs each in turn, before it counts.
 */
function ratios(size: number): Array<{ name: string; prefix: string; ratio: number }> {
  const realistic = textWithSecrets(size);
  redactText(realistic);
  const units = rulePrefixes().map((prefix) => ({ name: JSON.stringify(prefix), prefix }));
  units.push({ name: MIX, prefix: rulePrefixes().join(" ") });
  const out = units.map(({ name, prefix }) => {
    const text = repeatTo(prefix, size);
    redactText(text);
    let ratio = ratioTo(text, realistic, 1);
    if (ratio >= MAX_RATIO / 2) ratio = ratioTo(text, realistic, 5);
    // Near its bar, once more with more runs: one busy moment read 8.7× as 11.9×.
    if (ratio >= barOf(name) * 0.9) ratio = Math.min(ratio, ratioTo(text, realistic, 9));
    return { name, prefix, ratio };
  });
  return out.sort((a, b) => b.ratio - a.ratio);
}

Deno.test({
  name:
    "no rule's pattern has an unbounded quantifier {n,} (V8 overflows its stack on a 16 MiB run)",
  permissions: "none",
  fn() {
    for (const rule of RULES) {
      assert.doesNotMatch(rule.pattern().source, /\{\d+,\}/, rule.id);
    }
  },
});

Deno.test({
  name: "redactText() past its deadline throws RedactionTimeoutError and names no content",
  permissions: "none",
  fn() {
    const text = "pg_dump --password=Zq8mN3 ".repeat(200_000);
    assert.throws(
      () => redactText(text, { deadline: performance.now() - 1 }),
      RedactionTimeoutError,
      "Cannot redact: the text took longer than the time budget allows",
    );
    const started = performance.now();
    assert.throws(() => redactText(text, { deadline: started + 50 }), RedactionTimeoutError);
    assert.ok(performance.now() - started < 1000, "it stops soon after the deadline");
    assert.equal(
      redactText("key AKIAZ7QH3KX2M4PLW9RT", { deadline: Infinity }).text,
      "key <AWS_KEY>",
    );
  },
});

Deno.test({
  name: "redactText() does not throw on a token prefix followed by 16 MiB of token characters",
  permissions: "none",
  fn() {
    const run = "aB3".repeat(Math.ceil((16 * MIB) / 3));
    for (
      const prefix of ["eyJ", "sk-", "api_key=", "Authorization: Basic ", "AccountKey=", "xoxb-"]
    ) {
      const result = redactText(prefix + run);
      assert.ok(result.text.length > 16 * MIB - 8192, prefix);
    }
  },
});

Deno.test({
  name:
    "a letters-only value built to split every way a word check could (240 lowercase, then capitals) stays linear",
  permissions: "none",
  fn() {
    // `secret_name_letters` asks whether a value is words run together; read with a nested
    // quantifier, 40 such letters took minutes and 240 would never end.
    const unit = `\nSECRET_KEY=${"a".repeat(240)}XXXXXXXa`;
    const text = repeatTo(unit, 256 * KIB);
    const realistic = textWithSecrets(256 * KIB);
    redactText(text);
    const ratio = ratioTo(text, realistic, 3);
    assert.ok(ratio < MAX_RATIO, `${ratio.toFixed(1)}× realistic text`);
  },
});

let slowest: string[] = [];

Deno.test({
  name:
    `redactText() on every rule's prefix repeated to 256 KiB stays under ${MAX_RATIO}× realistic text, and their mix under ${MIX_MAX_RATIO}×`,
  permissions: "none",
  fn() {
    const measured = ratios(256 * KIB);
    slowest = measured.filter((m) => m.name !== MIX).slice(0, 3).map((m) => m.prefix);
    console.log(
      `${measured.length} inputs; slowest, × realistic text:\n` +
        measured.slice(0, 5).map((m) => `  ${m.ratio.toFixed(1)}× ${m.name}`).join("\n"),
    );
    for (const { name, ratio } of measured) {
      assert.ok(ratio < barOf(name), `${name}: ${ratio.toFixed(1)}× realistic text`);
    }
  },
});

/** A UserPromptSubmit payload whose JSON stays under the hook's 16 MiB stdin limit. */
function promptPayload(unit: string): string {
  const escaped = new TextEncoder().encode(JSON.stringify(unit).slice(1, -1)).length;
  const room = 16 * MIB - 4 * KIB;
  const prompt = unit.repeat(Math.floor(room / escaped));
  return JSON.stringify({
    session_id: "6d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6",
    transcript_path: "/tmp/transcript.jsonl",
    cwd: "/tmp",
    hook_event_name: "UserPromptSubmit",
    prompt,
  });
}

Deno.test({
  name:
    "the installed hook redacts 16 MiB of the prefix mix, Authorization: Basic and the slowest prefixes, exits 0 and stores each row in time",
  sanitizeResources: false,
  async fn() {
    const daemon = await startTestDaemon();
    try {
      const prose = await runHook(daemon, "userpromptsubmit", promptPayload(PROSE));
      assert.equal(prose.code, 0, prose.stderr);
      await waitForRows(daemon.db, 1, { timeoutMs: 30_000 });
      const budget = Math.max(2000, PROSE_RATIO * prose.ms);
      const units = [
        [MIX, rulePrefixes().join(" ")],
        ["Authorization: Basic", "Authorization: Basic "],
        ...(slowest.length > 0 ? slowest : ["pg_dump --password="]).map((
          p,
        ) => [JSON.stringify(p), p]),
      ];
      for (const [index, [name, unit]] of units.entries()) {
        const run = await runHook(daemon, "userpromptsubmit", promptPayload(unit!));
        const failed = run.stderr.includes("redaction_failed");
        console.log(
          `${name}: ${run.ms.toFixed(0)} ms (prose ${prose.ms.toFixed(0)} ms), ` +
            (failed ? "stored without content (past the redaction budget)" : "stored redacted"),
        );
        assert.equal(run.code, 0, `${name}: exit ${run.code}`);
        // A daemon slow to read 16 MiB makes the hook spool the frame (its WARN
        // says so); the daemon's next drain stores it, so the row is not lost.
        // Redaction past its budget stores the row without content (fail closed).
        assert.match(
          run.stderr,
          /^(?:cyberos-memory hook: WARN (?:emit_timeout|redaction_failed): .*\n)*$/,
          name,
        );
        assert.ok(run.ms < budget, `${name}: ${run.ms.toFixed(0)} ms ≥ ${budget.toFixed(0)} ms`);
        // The issue's own case takes a third of the budget even on a loaded machine;
        // the denser ones come near it there (see bench/README.md), so only this one
        // must be stored with its content.
        if (name === "Authorization: Basic") assert.ok(!failed, `${name}: past the budget`);
        await waitForRows(daemon.db, index + 2, { timeoutMs: 60_000 });
        const row = readRows(daemon.db).at(-1)!;
        if (failed) {
          assert.equal(row.kind, ROW_KINDS.redactionFailed, name);
          assert.equal(row.payload.error, "redactor threw RedactionTimeoutError", name);
        } else assert.equal(row.kind, ROW_KINDS.prompt, name);
      }
      assert.equal(readRows(daemon.db).length, units.length + 1);
    } finally {
      await daemon.stop();
    }
  },
});
