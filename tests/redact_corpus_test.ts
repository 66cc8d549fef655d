/**
 * The redactor against the labelled corpora of `tests/redaction/corpus/`
 * (in-process, through our own scorer), the scorer itself, and the rule
 * catalogue that `deno task redact:catalogue` writes.
 *
 * - `dev.jsonl`, `dev_sessions.jsonl`, `dev_providers.jsonl` (provider
 *   formats the public secret scanners list, in session text) and
 *   `dev_scanner_shapes.jsonl` (the shapes of four scanners' rules and test
 *   suites, written anew with random values) are the development corpora:
 *   100 % recall, no tail left and no firm false positive, asserted.
 * - `heldout*.jsonl` were written before any tuning and are never tuned on
 *   (the `heldout_blind_*` and `*_sealed` ones by someone who had not read
 *   the rules), except the `*_probe` halves, whose misses were fixed: their
 *   scores are printed, not asserted (see docs/redaction.md for the numbers
 *   before and after).
 *
 * @module
 */

import assert from "node:assert/strict";
import { CATALOGUE_PATH, renderCatalogue } from "../redact/catalogue.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import {
  DEV_CORPORA,
  formatScore,
  loadCorpus,
  parseCorpus,
  scoreOutputs,
  scoreRedactText,
  tailLeft,
} from "./redaction/score.ts";

const CORPUS = new URL("redaction/corpus/", import.meta.url);
const ROOT = fileUrlToPath(new URL("..", import.meta.url));

for (const name of DEV_CORPORA) {
  Deno.test(`redactText() removes every secret of ${name} whole and changes no firm negative`, async () => {
    const score = scoreRedactText(await loadCorpus(new URL(name, CORPUS)));
    assert.equal(score.recall, 1, formatScore(name, score, 20));
    assert.equal(score.tailsLeft, 0, formatScore(name, score, 20));
    assert.equal(score.firmChanged, 0, formatScore(name, score, 20));
    assert.ok(score.contextKept >= 0.9, formatScore(name, score));
  });
}

const HELD_OUT = [
  "heldout.jsonl",
  "heldout_sessions.jsonl",
  "heldout_blind_sessions.jsonl",
  "heldout_blind_scanner.jsonl",
  "heldout_sessions_sealed.jsonl",
  "heldout_scanner_sealed.jsonl",
  "heldout_sessions2_sealed.jsonl",
  "heldout_sessions3_sealed.jsonl",
  "heldout_sessions4_sealed.jsonl",
  "heldout_sessions5_sealed.jsonl",
  "heldout_sessions6_sealed.jsonl",
  "heldout_sessions7_sealed.jsonl",
  "heldout_sessions8_sealed.jsonl",
  "heldout_sessions9_sealed.jsonl",
  "heldout_sessions10_sealed.jsonl",
  "heldout_sessions11_sealed.jsonl",
  "heldout_sessions12_sealed.jsonl",
  "heldout_sessions13_sealed.jsonl",
  "heldout_sessions14_sealed.jsonl",
  "heldout_sessions15_sealed.jsonl",
  "heldout_sessions16_sealed.jsonl",
  "heldout_sessions17_sealed.jsonl",
  "heldout_sessions18_sealed.jsonl",
  "heldout_sessions19_sealed.jsonl",
  "heldout_sessions20_sealed.jsonl",
  "heldout_sessions21_sealed.jsonl",
  "heldout_sessions22_sealed.jsonl",
  "heldout_sessions23_sealed.jsonl",
  "heldout_sessions24_sealed.jsonl",
  "heldout_sessions25_sealed.jsonl",
  "heldout_sessions26_sealed.jsonl",
  "heldout_sessions27_sealed.jsonl",
  "heldout_sessions28_sealed.jsonl",
  "heldout_sessions29_sealed.jsonl",
  "heldout_sessions30_sealed.jsonl",
  "heldout_sessions31_sealed.jsonl",
  "heldout_sessions32_sealed.jsonl",
  "heldout_sessions33_sealed.jsonl",
  "heldout_sessions34_sealed.jsonl",
  "heldout_sessions35_sealed.jsonl",
  "heldout_sessions36_sealed.jsonl",
  "heldout_sessions37_sealed.jsonl",
  "heldout_sessions38_sealed.jsonl",
  "heldout_sessions39_sealed.jsonl",
  "heldout_sessions40_sealed.jsonl",
  "heldout_sessions41_sealed.jsonl",
  "heldout_sessions42_sealed.jsonl",
  "heldout_sessions43_sealed.jsonl",
  "heldout_sessions44_sealed.jsonl",
  "heldout_sessions45_sealed.jsonl",
  "heldout_sessions46_sealed.jsonl",
  "heldout_sessions47_sealed.jsonl",
  "heldout_sessions48_sealed.jsonl",
  "heldout_sessions49_sealed.jsonl",
  "heldout_sessions50_sealed.jsonl",
  "heldout_sessions51_sealed.jsonl",
  "heldout_sessions52_sealed.jsonl",
  "heldout_sessions53_sealed.jsonl",
  "heldout_sessions54_sealed.jsonl",
  "heldout_sessions55_sealed.jsonl",
  "heldout_sessions56_sealed.jsonl",
  "heldout_sessions57_sealed.jsonl",
  "heldout_sessions58_sealed.jsonl",
  "heldout_sessions59_sealed.jsonl",
  "heldout_sessions60_sealed.jsonl",
  "heldout_sessions61_sealed.jsonl",
  "heldout_sessions62_sealed.jsonl",
  "heldout_sessions63_sealed.jsonl",
  "heldout_sessions64_sealed.jsonl",
  "heldout_sessions65_sealed.jsonl",
  "heldout_sessions66_sealed.jsonl",
  "heldout_sessions67_sealed.jsonl",
  "heldout_sessions68_sealed.jsonl",
  "heldout_sessions69_sealed.jsonl",
  "heldout_sessions70_sealed.jsonl",
  "heldout_sessions71_sealed.jsonl",
  "heldout_sessions72_sealed.jsonl",
  "heldout_sessions73_sealed.jsonl",
  "heldout_sessions74_sealed.jsonl",
  "heldout_sessions75_sealed.jsonl",
  "heldout_sessions76_sealed.jsonl",
  "heldout_sessions77_sealed.jsonl",
  "heldout_sessions78_sealed.jsonl",
  "heldout_sessions79_sealed.jsonl",
  "heldout_sessions80_sealed.jsonl",
  "heldout_sessions81_sealed.jsonl",
  "heldout_sessions82_sealed.jsonl",
  "heldout_sessions83_sealed.jsonl",
  "heldout_sessions84_sealed.jsonl",
  "heldout_sessions85_sealed.jsonl",
  "heldout_sessions86_sealed.jsonl",
  "heldout_sessions87_sealed.jsonl",
  "heldout_sessions88_sealed.jsonl",
  "heldout_sessions89_sealed.jsonl",
  "heldout_sessions90_sealed.jsonl",
  "heldout_sessions91_sealed.jsonl",
  "heldout_sessions92_sealed.jsonl",
  "heldout_sessions93_sealed.jsonl",
  "heldout_sessions94_sealed.jsonl",
  "heldout_sessions95_sealed.jsonl",
  "heldout_sessions96_sealed.jsonl",
  "heldout_sessions97_sealed.jsonl",
  "heldout_sessions98_sealed.jsonl",
  // Written blind, then their misses were read and fixed: development now, printed beside the rest.
  "heldout_sessions_probe.jsonl",
  "heldout_scanner_probe.jsonl",
  "heldout_sessions2_probe.jsonl",
  "heldout_sessions3_probe.jsonl",
  "heldout_sessions4_probe.jsonl",
  "heldout_sessions5_probe.jsonl",
  "heldout_sessions6_probe.jsonl",
  "heldout_sessions7_probe.jsonl",
  "heldout_sessions8_probe.jsonl",
  "heldout_sessions9_probe.jsonl",
  "heldout_sessions10_probe.jsonl",
  "heldout_sessions11_probe.jsonl",
  "heldout_sessions12_probe.jsonl",
  "heldout_sessions13_probe.jsonl",
  "heldout_sessions14_probe.jsonl",
  "heldout_sessions15_probe.jsonl",
  "heldout_sessions16_probe.jsonl",
  "heldout_sessions17_probe.jsonl",
  "heldout_sessions18_probe.jsonl",
  "heldout_sessions19_probe.jsonl",
  "heldout_sessions20_probe.jsonl",
  "heldout_sessions21_probe.jsonl",
  "heldout_sessions22_probe.jsonl",
  "heldout_sessions23_probe.jsonl",
  "heldout_sessions24_probe.jsonl",
  "heldout_sessions25_probe.jsonl",
  "heldout_sessions26_probe.jsonl",
  "heldout_sessions27_probe.jsonl",
  "heldout_sessions28_probe.jsonl",
  "heldout_sessions29_probe.jsonl",
  "heldout_sessions30_probe.jsonl",
  "heldout_sessions31_probe.jsonl",
  "heldout_sessions32_probe.jsonl",
  "heldout_sessions33_probe.jsonl",
  "heldout_sessions34_probe.jsonl",
  "heldout_sessions35_probe.jsonl",
  "heldout_sessions36_probe.jsonl",
  "heldout_sessions37_probe.jsonl",
  "heldout_sessions38_probe.jsonl",
  "heldout_sessions39_probe.jsonl",
  "heldout_sessions40_probe.jsonl",
  "heldout_sessions41_probe.jsonl",
  "heldout_sessions42_probe.jsonl",
  "heldout_sessions43_probe.jsonl",
  "heldout_sessions44_probe.jsonl",
  "heldout_sessions45_probe.jsonl",
  "heldout_sessions46_probe.jsonl",
  "heldout_sessions47_probe.jsonl",
  "heldout_sessions48_probe.jsonl",
  "heldout_sessions49_probe.jsonl",
  "heldout_sessions50_probe.jsonl",
  "heldout_sessions51_probe.jsonl",
  "heldout_sessions52_probe.jsonl",
  "heldout_sessions53_probe.jsonl",
  "heldout_sessions54_probe.jsonl",
  "heldout_sessions55_probe.jsonl",
  "heldout_sessions56_probe.jsonl",
  "heldout_sessions57_probe.jsonl",
  "heldout_sessions58_probe.jsonl",
  "heldout_sessions59_probe.jsonl",
  "heldout_sessions60_probe.jsonl",
  "heldout_sessions61_probe.jsonl",
  "heldout_sessions62_probe.jsonl",
  "heldout_sessions63_probe.jsonl",
  "heldout_sessions64_probe.jsonl",
  "heldout_sessions65_probe.jsonl",
  "heldout_sessions66_probe.jsonl",
  "heldout_sessions67_probe.jsonl",
  "heldout_sessions68_probe.jsonl",
  "heldout_sessions69_probe.jsonl",
  "heldout_sessions70_probe.jsonl",
  "heldout_sessions71_probe.jsonl",
  "heldout_sessions72_probe.jsonl",
  "heldout_sessions73_probe.jsonl",
  "heldout_sessions74_probe.jsonl",
  "heldout_sessions75_probe.jsonl",
  "heldout_sessions76_probe.jsonl",
  "heldout_sessions77_probe.jsonl",
  "heldout_sessions78_probe.jsonl",
  "heldout_sessions79_probe.jsonl",
  "heldout_sessions80_probe.jsonl",
  "heldout_sessions81_probe.jsonl",
  "heldout_sessions82_probe.jsonl",
  "heldout_sessions83_probe.jsonl",
  "heldout_sessions84_probe.jsonl",
  "heldout_sessions85_probe.jsonl",
  "heldout_sessions86_probe.jsonl",
  "heldout_sessions87_probe.jsonl",
  "heldout_sessions88_probe.jsonl",
  "heldout_sessions89_probe.jsonl",
  "heldout_sessions90_probe.jsonl",
  "heldout_sessions91_probe.jsonl",
  "heldout_sessions92_probe.jsonl",
  "heldout_sessions93_probe.jsonl",
  "heldout_sessions94_probe.jsonl",
  "heldout_sessions95_probe.jsonl",
  "heldout_sessions96_probe.jsonl",
  "heldout_sessions97_probe.jsonl",
  "heldout_sessions98_probe.jsonl",
];

for (const name of HELD_OUT) {
  Deno.test(`the held-out corpus ${name} is scored and reported (never tuned on)`, async () => {
    const score = scoreRedactText(await loadCorpus(new URL(name, CORPUS)));
    console.log(formatScore(name, score));
    // Sessions 17's to 27's halves are 55 cases each: 23 to 110 secrets (session 27's
    // hard-negative pair the fewest), 9 to 29 firm negatives.
    assert.ok(score.secrets >= 20 && score.firmNegatives >= 9, formatScore(name, score));
  });
}

Deno.test("scoreOutputs() counts leaks, firm and policy false positives and kept context", () => {
  const cases = parseCorpus(
    [
      JSON.stringify({
        id: "p",
        text: "key K1 and K2 here",
        secrets: [{ type: "t", value: "K1" }],
      }),
      JSON.stringify({ id: "q", text: "word K3", secrets: [{ type: "u", value: "K3" }] }),
      JSON.stringify({ id: "n", text: "plain", secrets: [], kind: "neg:x" }),
      JSON.stringify({ id: "m", text: "public", secrets: [], kind: "negp:y" }),
    ].join("\n"),
    "inline",
  );
  const outputs = new Map([["p", "key <T> and K2"], ["q", "word K3"], ["n", "pl"], ["m", "x"]]);
  const score = scoreOutputs(cases, outputs);
  assert.equal(score.recall, 0.5);
  assert.deepEqual(score.perType, { t: [1, 1], u: [0, 1] });
  assert.equal(score.firmChanged, 1);
  assert.equal(score.firmFpRate, 1);
  assert.equal(score.policyChanged, 1);
  // "here" is gone from p's output: p keeps 0 of 1 words ("here"), q keeps 1 of 1 ("word").
  assert.equal(score.contextKept, 0.5);
  assert.deepEqual(score.failures.map((f) => `${f.id} ${f.what}`), ["q leak", "n fp", "m fp"]);
});

Deno.test("scoreOutputs() counts a removed secret whose end is left in clear as a tail, not a leak", () => {
  const secret = "sk_ubT4yN3mzqGR2x8#P7r5&@*xC";
  const text = `key = "${secret}" (ends in P7r5&@*xC)`;
  const cases = parseCorpus(
    JSON.stringify({ id: "t", text, secrets: [{ type: "k", value: secret }] }),
    "inline",
  );
  const cut = scoreOutputs(cases, new Map([["t", `key = "<S>#P7r5&@*xC" (ends in P7r5&@*xC)`]]));
  assert.equal(cut.recall, 1);
  assert.equal(cut.tailsLeft, 1);
  assert.deepEqual(cut.failures.map((f) => `${f.id} ${f.what}`), ["t tail"]);
  // The same characters elsewhere in the text, kept there, are no tail.
  const whole = scoreOutputs(cases, new Map([["t", `key = "<S>" (ends in P7r5&@*xC)`]]));
  assert.equal(whole.tailsLeft, 0);
  assert.equal(tailLeft("a 0123456789ab b", "a <S> b", "0123456789ab"), false);
  assert.equal(tailLeft("a 0123456789ab b", "a <S>6789ab b", "0123456789ab"), true);
  assert.equal(
    tailLeft("a 0123456789a b", "a <S>789a b", "0123456789a"),
    false,
    "under 12 characters",
  );
});

Deno.test("parseCorpus() names the line of a case whose secret is not in its text", () => {
  const line = JSON.stringify({ id: "a", text: "abc", secrets: [{ type: "t", value: "zz" }] });
  assert.throws(
    () => parseCorpus(`\n${line}\n`, "c.jsonl"),
    /c\.jsonl line 2: secret t is not in the text/,
  );
});

Deno.test("docs/redaction-rules.md is the catalogue the rules generate", async () => {
  assert.equal(await Deno.readTextFile(CATALOGUE_PATH), renderCatalogue());
});

async function catalogue(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-q",
      "--no-prompt",
      "--allow-read=docs",
      "--allow-write=docs/redaction-rules.md",
      "redact/catalogue.ts",
      ...args,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("redact:catalogue --check passes on the committed page, answers --help, refuses unknown flags", async () => {
  assert.equal((await catalogue(["--check"])).code, 0);
  const help = await catalogue(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^usage: deno task redact:catalogue/);
  const bad = await catalogue(["--nope"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^cyberos-memory redact:catalogue: .*"--nope"/);
});
