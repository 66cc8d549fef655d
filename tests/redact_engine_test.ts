/**
 * The redaction engine through its public interface: the spec's cases with
 * exact counts, overlap resolution, `<private>` spans, the e-mail allowlist,
 * `redactValue`, `explainText`, and linear time on adversarial input
 * (measured as a ratio to redacting plain prose of the same size).
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  explainText,
  ONE_PASS_MAX_CHARS,
  redactLines,
  redactText,
  redactValue,
} from "../lib/redact/mod.ts";
import {
  applyFindings,
  ECHO_MAX_SECRETS,
  ECHO_MIN_CHARS,
  type Finding,
  GROUP_COMPARISONS,
  INDEXED_MIN_CHARS,
  keywordsIn,
  overlapsAny,
  PAIRED_MIN_CHARS,
  type Rule,
  scanText,
  TextFacts,
  WARM_INDEXED_MIN_CHARS,
  withEchoes,
} from "../lib/redact/_engine.ts";
import { RULES } from "../lib/redact/rules/mod.ts";
import {
  cccdProblem,
  inWordList,
  isSymbolNoise,
  luhnValid,
  mod97Valid,
  placeholderProblem,
  SEARCHES_BEFORE_SET,
  shannonEntropy,
  TEMPLATE_SHAPE,
} from "../lib/redact/_validators.ts";
import { adversarialInputs, textWithSecrets } from "../bench/_payloads.ts";

/** Synthetic secrets, made up for these tests. */
const AWS = "AKIAQ7RTX2M4ZK9WPL3N";
const OPENAI = "sk-proj-Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1T3BlbkFJd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1";
const ANTHROPIC = "sk-ant-api03-Hs5Jd1Fg0Au4Ei6Oc9Qw2Zx7Cv3Bn8Ml1Kj5Hg9Fd2Sa6Pq0Wo4Ie8Ur3-XyZwAA";
const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIiwiZXhwIjoxOTAwMDAwMDAwfQ.Tq7Vz3Lm9Rx2Kp8Wn4Yb5Hc1Jd6Fs0Ga2Ue7Io";
const GITHUB = "ghp_Zq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4";
const OPAQUE = "q8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2";

const CASES: Array<{ name: string; text: string; out: string; counts: Record<string, number> }> = [
  {
    name: "an AWS access key id",
    text: `aws_access_key_id = ${AWS}`,
    out: "aws_access_key_id = <AWS_KEY>",
    counts: { aws_access_key: 1 },
  },
  {
    name: "an OpenAI project key",
    text: `OPENAI_API_KEY=${OPENAI} npm start`,
    out: "OPENAI_API_KEY=<OPENAI_KEY> npm start",
    counts: { openai_key: 1 },
  },
  {
    name: "an Anthropic key, not as OpenAI",
    text: `key ${ANTHROPIC}.`,
    out: "key <ANTHROPIC_KEY>.",
    counts: { anthropic_key: 1 },
  },
  {
    name: "a bare JWT",
    text: `decode ${JWT} please`,
    out: "decode <JWT> please",
    counts: { jwt: 1 },
  },
  {
    name: "a GitHub PAT",
    text: `git push https://${GITHUB}@github.com/o/r`,
    out: "git push https://<GH_PAT>@github.com/o/r",
    counts: { github_pat: 1 },
  },
  {
    name: "an opaque Bearer token",
    text: `-H "Authorization: Bearer ${OPAQUE}"`,
    out: '-H "Authorization: Bearer <REDACTED>"',
    counts: { bearer_token: 1 },
  },
  {
    name: "a CCCD with id context",
    text: "Số CCCD của tôi là 001204012345 nhé",
    out: "Số CCCD của tôi là <VN_CCCD> nhé",
    counts: { vn_cccd: 1 },
  },
  { name: "issue #12345", text: "Fixes issue #12345", out: "Fixes issue #12345", counts: {} },
];

for (const c of CASES) {
  Deno.test({
    name: `redactText() handles ${c.name} with exact counts`,
    permissions: "none",
    fn() {
      const result = redactText(c.text);
      assert.equal(result.text, c.out);
      assert.deepEqual(result.counts, c.counts);
      assert.equal(result.matchCount, Object.values(c.counts).reduce((a, b) => a + b, 0));
    },
  });
}

Deno.test({
  name: "redactText() keeps issue #12345 with count 0",
  permissions: "none",
  fn() {
    const result = redactText("see issue #12345 and PR #678");
    assert.equal(result.text, "see issue #12345 and PR #678");
    assert.equal(result.matchCount, 0);
    assert.deepEqual(result.counts, {});
  },
});

Deno.test({
  name: "redactText() replaces a JWT after Bearer whole, as one JWT match",
  permissions: "none",
  fn() {
    const result = redactText(`Authorization: Bearer ${JWT}`);
    assert.equal(result.text, "Authorization: Bearer <JWT>");
    assert.deepEqual(result.counts, { jwt: 1 });
    assert.equal(result.matchCount, 1);
  },
});

Deno.test({
  name: "redactText() counts one span when a vendor token sits in URL credentials",
  permissions: "none",
  fn() {
    const result = redactText(`https://x-access-token:${GITHUB}@github.com/o/r.git`);
    assert.equal(result.text, "https://x-access-token:<GH_PAT>@github.com/o/r.git");
    assert.deepEqual(result.counts, { github_pat: 1 });
  },
});

Deno.test({
  name: "redactText() lets a private key block win over what is inside it",
  permissions: "none",
  fn() {
    const block =
      `-----BEGIN PRIVATE KEY-----\nZm9vYmFyYmF6cXV4\n${AWS}\nZm9vYmFy==\n-----END PRIVATE KEY-----`;
    const result = redactText(`key:\n${block}\ndone`);
    assert.equal(result.text, "key:\n<PRIVATE_KEY>\ndone");
    assert.deepEqual(result.counts, { private_key: 1 });
    assert.equal(explainText(block).rejected[0]?.reason, "overlaps private_key (more specific)");
  },
});

Deno.test({
  name: "redactText() never rewrites a placeholder and counts every span",
  permissions: "none",
  fn() {
    const text = `a ${AWS} b ${AWS} c lan@mailbox.vn d ${GITHUB}`;
    const result = redactText(text);
    assert.equal(result.text, "a <AWS_KEY> b <AWS_KEY> c <EMAIL> d <GH_PAT>");
    assert.equal(result.matchCount, 4);
    assert.deepEqual(result.counts, { aws_access_key: 2, email: 1, github_pat: 1 });
    assert.deepEqual(redactText(result.text).counts, {});
  },
});

Deno.test({
  name: "redactText() removes a <private> span whole before any other rule",
  permissions: "none",
  fn() {
    const result = redactText(`hi <private>my key ${AWS} and lan@mailbox.vn</private> bye`);
    assert.equal(result.text, "hi <PRIVATE> bye");
    assert.deepEqual(result.counts, { private_span: 1 });
  },
});

Deno.test({
  name: "redactText() keeps addresses at allowed e-mail domains and their subdomains",
  permissions: "none",
  fn() {
    const text = "ops@acme.vn, dev@mail.acme.vn, lan@mailbox.vn";
    const result = redactText(text, { allowEmailDomains: ["ACME.vn"] });
    assert.equal(result.text, "ops@acme.vn, dev@mail.acme.vn, <EMAIL>");
    assert.equal(result.matchCount, 1);
  },
});

Deno.test({
  name: "redactValue() redacts nested string values and object keys and sums counts",
  permissions: "none",
  fn() {
    const value = { [AWS]: [AWS, { deep: `mail lan@mailbox.vn` }], n: 5, ok: true, none: null };
    const result = redactValue(value);
    assert.deepEqual(result.value, {
      "<AWS_KEY>": ["<AWS_KEY>", { deep: "mail <EMAIL>" }],
      n: 5,
      ok: true,
      none: null,
    });
    assert.equal(result.matchCount, 3);
    assert.deepEqual(result.counts, { aws_access_key: 2, email: 1 });
  },
});

Deno.test({
  name: "redactValue() replaces every string under a key that names a secret, at any depth",
  permissions: "none",
  fn() {
    const value = {
      headers: { "X-Api-Key": "plain-looking", Accept: "json" },
      nested: [{ db: { PASSWORD: "Pw-OLPK8bDVGD77sfRg", port: 5432 } }],
      credentials: { user: "ana", list: ["a", ""] },
      note: "kept",
    };
    const result = redactValue(value);
    assert.deepEqual(result.value, {
      headers: { "X-Api-Key": "<SECRET>", Accept: "json" },
      nested: [{ db: { PASSWORD: "<SECRET>", port: 5432 } }],
      credentials: { user: "<SECRET>", list: ["<SECRET>", ""] },
      note: "kept",
    });
    assert.deepEqual(result.counts, { secret_key_name: 4 });
  },
});

Deno.test({
  name:
    "redactValue() keeps templates, masked values and placeholders under a secret's key, and keys about a secret",
  permissions: "none",
  fn() {
    const value = {
      env: { DB_PASSWORD: "${DB_PASSWORD}", API_TOKEN: "{{ .Values.token }}" },
      login: { password: "********", token_count: "512", session_id: "s-4412" },
      sa: { private_key_id: "3b8e1f0c2a9d47e6b5c1f8a2d0e9c7b4a6f3d1e2", pw: "Lk8-Qz3-Wm7" },
    };
    const result = redactValue(value);
    assert.deepEqual(result.value, {
      env: { DB_PASSWORD: "${DB_PASSWORD}", API_TOKEN: "{{ .Values.token }}" },
      login: { password: "********", token_count: "512", session_id: "s-4412" },
      sa: { private_key_id: "<SECRET>", pw: "<SECRET>" },
    });
  },
});

Deno.test({
  name: "redactValue() replaces the value of a name/value entry whose name says secret",
  permissions: "none",
  fn() {
    const value = {
      environment: [
        { name: "DB_PASSWORD", value: "Acorn5Rapids" },
        { Name: "LOG_LEVEL", Value: "info" },
        { key: "API_TOKEN", value: "t0k" },
      ],
    };
    assert.deepEqual(redactValue(value).value, {
      environment: [
        { name: "DB_PASSWORD", value: "<SECRET>" },
        { Name: "LOG_LEVEL", Value: "info" },
        { key: "API_TOKEN", value: "<SECRET>" },
      ],
    });
  },
});

Deno.test({
  name: "redactValue() keeps a __proto__ key as a key and two keys redacted alike apart",
  permissions: "none",
  fn() {
    const value = JSON.parse(`{"__proto__": {"x": 1}, "${AWS}": 1, "AKIAIOSFODNN7EXAMPLF": 2}`);
    const result = redactValue(value) as { value: Record<string, unknown> };
    assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
    assert.deepEqual(Object.keys(result.value).sort(), ["<AWS_KEY>", "<AWS_KEY>#2", "__proto__"]);
  },
});

Deno.test({
  name: "redactLines() redacts each text as its own line, in one pass or one per text",
  permissions: "none",
  fn() {
    const texts = ["", "lan@mailbox.vn", "plain", AWS];
    const result = redactLines(texts);
    assert.deepEqual(result.texts, ["", "<EMAIL>", "plain", "<AWS_KEY>"]);
    assert.deepEqual(result.counts, { email: 1, aws_access_key: 1 });
    const withBreak = redactLines(["a\nlan@mailbox.vn", "x"]);
    assert.deepEqual(withBreak.texts, ["a\n<EMAIL>", "x"]);
    assert.deepEqual(redactLines([]).texts, []);
  },
});

Deno.test({
  name: "redactValue() redacts the texts alongside in the keys' pass and returns them in order",
  permissions: "none",
  fn() {
    const result = redactValue({ path: "/srv/app", note: `key ${AWS}` }, {
      alongside: ["lan@mailbox.vn", "plain", ""],
    });
    assert.deepEqual(result.value, { path: "/srv/app", note: "key <AWS_KEY>" });
    assert.deepEqual(result.alongside, ["<EMAIL>", "plain", ""]);
    assert.deepEqual(result.counts, { aws_access_key: 1, email: 1 });
    assert.equal(result.matchCount, 2);
    assert.deepEqual(redactValue("x", { alongside: [AWS] }).alongside, ["<AWS_KEY>"]);
  },
});

Deno.test({
  name:
    "redactValue() reads a string that is a JSON document, or long, or of many lines, in a pass of its own",
  permissions: "none",
  fn() {
    // Only a JSON document's own pass reads its strings decoded: as a line among others the
    // Secret's value, after an escaped line break, would stay.
    const escaped = JSON.stringify({
      manifest:
        "kind: Secret\nstringData:\n  WEBHOOK_HMAC: UyQhVQ4XrjSa8viX77tAJ32FCpmbUVD8cPHQFYjFl63Ub9Uw\n",
    });
    const long = `${"word ".repeat(ONE_PASS_MAX_CHARS / 5)}lan@mailbox.vn`;
    const lines = `first line\nkey ${AWS}`;
    const result = redactValue({ escaped, long, lines, short: "lan@mailbox.vn" });
    const value = result.value as Record<string, string>;
    assert.ok(!value.escaped!.includes("UyQhVQ4Xrj"), value.escaped);
    assert.ok(value.long!.endsWith("<EMAIL>"));
    assert.equal(value.lines, "first line\nkey <AWS_KEY>");
    assert.equal(value.short, "<EMAIL>");
    assert.deepEqual(result.counts, { aws_access_key: 1, email: 2, kubernetes_secret_data: 1 });
  },
});

Deno.test({
  name: "redactValue() walks a value nested 10,000 deep without overflow",
  permissions: "none",
  fn() {
    let value: unknown = AWS;
    for (let i = 0; i < 10_000; i++) value = [value];
    const result = redactValue(value);
    assert.equal(result.matchCount, 1);
  },
});

Deno.test({
  name: "explainText() lists matches with offsets and rejected candidates with reasons",
  permissions: "none",
  fn() {
    const text = `k ${AWS} and AKIAIOSFODNN7EXAMPLE`;
    const explained = explainText(text);
    assert.deepEqual(explained.matches, [
      { ruleId: "aws_access_key", placeholder: "<AWS_KEY>", start: 2, end: 22 },
    ]);
    assert.deepEqual(explained.rejected, [
      { ruleId: "aws_access_key", start: 27, end: 47, reason: "template words" },
    ]);
  },
});

Deno.test({
  name: "scanText() resolves overlaps by priority, then length, and reports the loser",
  permissions: "none",
  fn() {
    const base = {
      description: "",
      validators: [],
      allowlist: [],
      truePositives: [],
      falsePositives: [],
    };
    const rules: Rule[] = [
      {
        ...base,
        id: "wide",
        placeholder: "<W>",
        keywords: [],
        pattern: () => /abcdef/dg,
        priority: 1,
      },
      {
        ...base,
        id: "narrow",
        placeholder: "<N>",
        keywords: [],
        pattern: () => /cd/dg,
        priority: 2,
      },
      {
        ...base,
        id: "gated",
        placeholder: "<G>",
        keywords: ["zzz"],
        pattern: () => /ab/dg,
        priority: 9,
      },
    ];
    const scan = scanText("xabcdefx", rules, { explain: true });
    assert.deepEqual(scan.findings, [
      { ruleId: "narrow", metricLabel: "narrow", placeholder: "<N>", start: 3, end: 5 },
    ]);
    assert.deepEqual(scan.rejections, [
      { ruleId: "wide", start: 1, end: 7, reason: "overlaps narrow (more specific)" },
    ]);
    assert.equal(applyFindings("xabcdefx", scan.findings), "xab<N>efx");
  },
});

Deno.test({
  name: "scanText() extends a winner to a loser's end when both read a secret from one offset",
  permissions: "none",
  fn() {
    const base = {
      description: "",
      keywords: [],
      validators: [],
      allowlist: [],
      truePositives: [],
      falsePositives: [],
    };
    const word = { ...base, id: "word", pattern: () => /(?<=")\w+/dg, priority: 2 };
    const quoted = { ...base, id: "quoted", pattern: () => /(?<=")[^" ]+(?=")/dg, priority: 1 };
    const text = 'k = "sk_4yN3m#P7r5&x" and j = "ab#c"';
    // The winner's name, the loser's end; a loser that starts elsewhere takes
    // nothing (see the test of overlaps above).
    const scan = scanText(text, [{ ...word, placeholder: "<S>" }, {
      ...quoted,
      placeholder: "<Q>",
    }], {
      explain: true,
    });
    assert.equal(applyFindings(text, scan.findings), 'k = "<S>" and j = "<S>"');
    assert.deepEqual(scan.findings.map((f) => f.ruleId), ["word", "word"]);
    assert.equal(scan.rejections.length, 2, "the quoted reading still lost");
    // In a cluster large enough to be resolved by offsets (a loser spanning it all), the same.
    const many = Array.from({ length: 20 }, (_, i) => `"a${i}#b"`).join(" ");
    const rules: Rule[] = [
      { ...word, placeholder: "<S>" },
      { ...quoted, placeholder: "<S>" },
      { ...base, id: "all", placeholder: "<A>", pattern: () => /^[\s\S]+$/dg, priority: 0 },
    ];
    assert.equal(
      applyFindings(many, scanText(many, rules).findings),
      Array.from({ length: 20 }, () => '"<S>"').join(" "),
    );
  },
});

Deno.test({
  name: "scanText() starts a secret at its secretFrom group, inside a leading lookbehind",
  permissions: "none",
  fn() {
    const rule: Rule = {
      id: "at",
      description: "",
      placeholder: "<A>",
      keywords: ["@"],
      pattern: () => /(?<=(?<![a-z])(?<name>[a-z]+))@[a-z]+/dg,
      secretFrom: "name",
      priority: 1,
      validators: [(c) => c.secret === "bob@b" ? "bob is kept" : undefined],
      allowlist: [],
      truePositives: [],
      falsePositives: [],
    };
    const text = "1 ann@a, bob@b.";
    const scan = scanText(text, [rule], { explain: true });
    assert.deepEqual(scan.findings, [
      { ruleId: "at", metricLabel: "at", placeholder: "<A>", start: 2, end: 7 },
    ]);
    assert.deepEqual(scan.rejections, [{ ruleId: "at", start: 9, end: 14, reason: "bob is kept" }]);
    assert.equal(applyFindings(text, scan.findings), "1 <A>, bob@b.");
  },
});

Deno.test({
  name: "validators: entropy, Luhn, mod-97 and CCCD structure",
  permissions: "none",
  fn() {
    assert.equal(shannonEntropy("aaaa"), 0);
    assert.equal(shannonEntropy("abcd"), 2);
    assert.ok(luhnValid("4539 1488 0343 6467"));
    assert.ok(!luhnValid("4539 1488 0343 6468"));
    assert.ok(mod97Valid("GB82 WEST 1234 5698 7654 32"));
    assert.ok(!mod97Valid("GB83 WEST 1234 5698 7654 32"));
    assert.equal(cccdProblem("001204012345"), undefined);
    assert.equal(cccdProblem("100234567891"), "province code 100 unknown");
    assert.equal(cccdProblem("001504012345"), "century digit 5 outside 1900–2099");
  },
});

const MIB = 1024 * 1024;
const PROSE_UNIT =
  "The checkout service times out when the cart has more than 40 items; the trace shows the " +
  "pricing call retried 3 times at 2025-11-30T10:42:17Z (order 88213, PR #4521, commit 9f2c1ab).\n";
const ADVERSARIAL = adversarialInputs();

function medianMs(text: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    redactText(text);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

Deno.test({
  name: "redactText() stays linear: 1 MiB of adversarial text < 12× the time of 1 MiB of prose",
  permissions: "none",
  fn() {
    const prose = PROSE_UNIT.repeat(Math.ceil(MIB / PROSE_UNIT.length)).slice(0, MIB);
    redactText(prose);
    const baseline = medianMs(prose, 3);
    for (const [name, text] of ADVERSARIAL) {
      redactText(text);
      const ratio = medianMs(text, 3) / baseline;
      assert.ok(ratio < 12, `${name}: ${ratio.toFixed(1)}× the prose time`);
    }
  },
});

Deno.test({
  name: "a rule's precheck passes on every true positive (it only skips text that cannot match)",
  permissions: "none",
  fn() {
    for (const rule of RULES) {
      if (rule.precheck === undefined) continue;
      for (const sample of rule.truePositives) {
        assert.ok(rule.precheck(new TextFacts(sample)), `${rule.id}: ${sample}`);
      }
    }
  },
});

Deno.test({
  name: "keywordsIn() finds exactly the keywords that occur, in one pass",
  permissions: "none",
  fn() {
    const keywords = [...new Set(RULES.flatMap((rule) => rule.keywords))];
    const samples = RULES.flatMap((rule) => [...rule.truePositives, ...rule.falsePositives]);
    samples.push("", "x", "pmak-".repeat(100), "mật khẩu là", "@", "a@b");
    // Dense with the first characters of the `password` group, which is then searched for the
    // rest of the text at once (GROUP_COMPARISONS): keywords after that point, and only before it.
    const dense = "passwrd: ".repeat(GROUP_COMPARISONS * 4);
    samples.push(`${dense}password`, `passphrase ${dense}`, `${dense}PASSWD=1 ${dense}`);
    for (const sample of samples) {
      const lower = sample.toLowerCase();
      const expected = keywords.filter((k) => lower.includes(k)).sort();
      assert.deepEqual([...keywordsIn(lower, RULES)].sort(), expected, sample);
    }
  },
});

Deno.test({
  name: "scanText() finds the same with keywords found in one pass, as a long-lived process does",
  permissions: "none",
  fn() {
    const samples = RULES.flatMap((rule) => [...rule.truePositives, ...rule.falsePositives]);
    const prose = textWithSecrets(4096);
    for (const sample of samples) {
      // Each sample alone, and past WARM_INDEXED_MIN_CHARS (where the one pass takes over) in prose.
      for (const text of [sample, `${prose}\n${sample}`]) {
        assert.deepEqual(
          scanText(text, RULES, { onePassKeywords: true }).findings,
          scanText(text, RULES, { onePassKeywords: false }).findings,
          sample,
        );
      }
    }
    assert.ok(prose.length >= WARM_INDEXED_MIN_CHARS);
  },
});

Deno.test({
  name:
    "scanText() gates on the whole keyword, not a part of it, and asks a precheckFirst rule first",
  permissions: "none",
  fn() {
    const asked: string[] = [];
    const rule = (id: string, precheckFirst: boolean): Rule => ({
      id,
      description: "",
      placeholder: `<${id}>`,
      keywords: ["sk-ant-"],
      precheck: () => {
        asked.push(id);
        return true;
      },
      precheckFirst,
      pattern: () => /ant/dg,
      priority: 1,
      validators: [],
      allowlist: [],
      truePositives: [],
      falsePositives: [],
    });
    const rules = [rule("later", false), rule("first", true)];
    // Short texts look each keyword up, longer ones by its pairs first, very long ones all in one pass.
    for (const pad of ["", " ".repeat(PAIRED_MIN_CHARS), " ".repeat(INDEXED_MIN_CHARS)]) {
      asked.length = 0;
      // Parts of the keyword ("-ant-", "sk-"), every pair of its characters, are there, the
      // keyword is not: neither rule runs.
      assert.deepEqual(scanText(`an x-ant- here, ask-${pad}`, rules).findings, []);
      assert.deepEqual(asked, ["first"]);
      asked.length = 0;
      const found = scanText(`an sk-ant- here${pad}`, rules).findings.map((f) => f.ruleId);
      assert.ok(found.length === 1 && ["later", "first"].includes(found[0]!));
      assert.deepEqual(asked, ["later", "first"]);
    }
  },
});

Deno.test({
  name: "every precheck holds wherever its rule, run without it, would replace something",
  permissions: "none",
  fn() {
    const samples = RULES.flatMap((rule) => [...rule.truePositives, ...rule.falsePositives]);
    samples.push(
      "@x first, then a@b.co",
      "\u212Ask-Tq7Vz3Lm9Rx2Kp8Wn4Yb5Hc1T3Blbk",
      "x_y@host-1.example.org",
    );
    for (const rule of RULES) {
      if (rule.precheck === undefined) continue;
      const { precheck: _precheck, precheckFirst: _first, ...unchecked } = rule;
      for (const sample of samples) {
        if (scanText(sample, [unchecked]).findings.length === 0) continue;
        assert.ok(rule.precheck(new TextFacts(sample)), `${rule.id}: ${sample}`);
      }
    }
  },
});

Deno.test({
  name:
    "every precheck holds on 3,000 mutated mixes of the rules' samples wherever its rule would replace something",
  permissions: "none",
  fn() {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    const samples = RULES.flatMap((rule) => [...rule.truePositives, ...rule.falsePositives]);
    const noise = ` \t\n=:"'\\>@.-_+/~aZ9kKeyTOKEN_secret-auth=`;
    const prechecked = RULES.filter((rule) => rule.precheck !== undefined).map((rule) => {
      const { precheck: _precheck, precheckFirst: _first, ...unchecked } = rule;
      return { rule, unchecked };
    });
    for (let run = 0; run < 3000; run++) {
      let text = "";
      for (let part = random(3); part >= 0; part--) {
        const sample = samples[random(samples.length)]!;
        const cut = random(sample.length + 1);
        const inserted = noise.slice(random(noise.length), random(noise.length) + 1);
        text += `${sample.slice(0, cut)}${inserted}${sample.slice(cut)}${
          noise[random(noise.length)]
        }`;
      }
      for (const { rule, unchecked } of prechecked) {
        if (scanText(text, [unchecked]).findings.length === 0) continue;
        assert.ok(rule.precheck!(new TextFacts(text)), `${rule.id}: ${JSON.stringify(text)}`);
      }
    }
  },
});

Deno.test({
  name: "ordinary words do not run the rules they merely resemble (the pattern is never made)",
  permissions: "none",
  fn() {
    const made: string[] = [];
    const spied = RULES.map((rule) => ({
      ...rule,
      pattern: () => {
        made.push(rule.id);
        return rule.pattern();
      },
    }));
    const ordinary = [
      "Check the session cookie and the security headers before the release.",
      "Docs at https://docs.deno.com/runtime/ and https://github.com/denoland/deno.",
      '/** @module */ import { blake3 } from "@noble/hashes/blake3"; @Component({})',
      "<task-notification> the disk-usage task-3 finished, risk-free </task-notification>",
      "Deno.mkdirSync(dir); // bypass the cache when the tests passes",
      "const token = readToken(apiKey); const secretName = config.secretName;",
      "bypass = true; compass: north; if the tests passes, passthrough=1",
      "mkdir -p build && git push -u origin main; the client secret is rotated monthly",
      // A tool's argument names, redacted in every tool call.
      "file_path\ncontent\nold_string\nnew_string\nxpath",
    ];
    for (const text of ordinary) scanText(text, spied);
    const costly = [
      "aws_session_token",
      "url_password",
      "email",
      "openai_key",
      "password_prose",
      "generic_api_key",
      "password_assignment",
      "password_flag",
      "aws_secret",
      "airtable_token",
    ];
    for (const id of costly) {
      assert.ok(!made.includes(id), `${id} ran on ordinary text`);
    }
  },
});

Deno.test({
  name: "TextFacts.startsWord() finds a prefix only where no word character or hyphen precedes it",
  permissions: "none",
  fn() {
    assert.equal(new TextFacts("task-3 and disk-usage").startsWord("sk-"), false);
    assert.equal(new TextFacts("_sk-1 Xsk-2 9sk-3 -sk-4").startsWord("sk-"), false);
    assert.equal(new TextFacts("sk-first").startsWord("sk-"), true);
    assert.equal(new TextFacts("task-3, key=sk-abc").startsWord("sk-"), true);
    assert.equal(new TextFacts("\u212Ask-kelvin").startsWord("sk-"), true);
    assert.equal(new TextFacts("SK-upper").startsWord("sk-"), false);
  },
});

Deno.test({
  name: "TextFacts.mayHaveWord() finds a word in any case with no ASCII letter beside it",
  permissions: "none",
  fn() {
    assert.equal(new TextFacts("mkdir -p; bypass; passes").mayHaveWord("mk"), false);
    assert.equal(new TextFacts("mkdir -p; bypass; passes").mayHaveWord("pass"), false);
    assert.equal(new TextFacts("MK: Tr4ngAn").mayHaveWord("mk"), true);
    assert.equal(new TextFacts("if x: pass").mayHaveWord("pass"), true);
    assert.equal(new TextFacts("pass_2 9pass").mayHaveWord("pass"), true);
    // Lowercasing İ adds a character, so the offsets cannot be trusted: maybe.
    assert.equal(new TextFacts("İ mkdir").mayHaveWord("mk"), true);
  },
});

Deno.test({
  name: "TextFacts.digitCluster() counts digits joined by up to two separators, capped at 13",
  permissions: "none",
  fn() {
    assert.equal(new TextFacts("order 88213 at 10:42").digitCluster(), 0);
    assert.equal(new TextFacts("call (415) 555-0134").digitCluster(), 10);
    assert.equal(new TextFacts("+84 912 345 678").digitCluster(), 11);
    assert.equal(new TextFacts("4539 1488 0343 6467").digitCluster(), 13);
    assert.equal(new TextFacts("1 2 3 4 5 6 7 8").digitCluster(), 8);
    assert.equal(new TextFacts("1 2 3 4   5 6 7 8").digitCluster(), 0);
  },
});

Deno.test({
  name: "an AWS secret right after a lowercase key id is still found",
  permissions: "none",
  fn() {
    const text = "akiaq3egt7wk2m5zrn4p, Zk3+Qm9vTr2LwX8pYb4N/cH6sJd1FgA7eVu5RoKi";
    assert.equal(redactText(text).counts["aws_secret"], 1);
  },
});

Deno.test("inWordList: whole words only, never a part of one or an empty word, searched or from its set", () => {
  const list = "js json ts 001 010";
  const answers = () => [
    inWordList(list, "js") && inWordList(list, "json") && inWordList(list, "010"),
    !inWordList(list, "jso") && !inWordList(list, "s") && !inWordList(list, "01"),
    !inWordList(list, "") && !inWordList(list, "js json") && !inWordList(list, " js"),
    !inWordList(list, "json ts") && !inWordList(list, "ts ") && !inWordList(list, "\tts"),
  ];
  // The first lookups search the string; past SEARCHES_BEFORE_SET the list's set answers.
  const searched = answers();
  for (let i = 0; i < SEARCHES_BEFORE_SET; i++) inWordList(list, "js");
  assert.deepEqual(searched, [true, true, true, true]);
  assert.deepEqual(answers(), searched);
});

Deno.test("placeholderProblem: runs of consecutive characters, test words and my-password read as stand-ins, random values do not", () => {
  assert.equal(placeholderProblem("abc123def456ghi789"), "ascending runs");
  assert.equal(placeholderProblem("1234567890abcdef1234567890abcdef"), "ascending runs");
  assert.equal(placeholderProblem("test-api-key-12345"), "test words");
  assert.equal(placeholderProblem("mypassword"), "template words");
  assert.equal(placeholderProblem("test-Xk9Lm2Qp7Rt4"), undefined);
  assert.equal(placeholderProblem("sk_test_4eC39HqLyjWDarjtT1zdp7dc"), undefined);
  assert.equal(placeholderProblem("abc123de"), undefined);
  assert.equal(placeholderProblem("abc12345x"), undefined);
  assert.equal(placeholderProblem("Jq8Lw3Rz7Vx2Tm9Nb4"), undefined);
});

Deno.test("placeholderProblem: a template's shapes are templates, a password's random braces are not", () => {
  for (
    const template of [
      "{{ .Values.db.password }}",
      "${DB_PASSWORD}",
      "${DB_PASSWORD:-changeme}",
      "$(cat /run/secrets/db)",
      "%(password)s",
      "<%= ENV['DB_PASSWORD'] %>",
      "#{ENV['X']}",
      "{password}",
      "{0}",
      "<your-password>",
    ]
  ) {
    assert.ok(TEMPLATE_SHAPE.test(template), template);
    assert.equal(placeholderProblem(template), "template syntax", template);
  }
  for (
    const noise of [
      "q{{w}e)r${t]yui(opas[dfghj>-_$#klzxcvb}",
      "w2FO{{Cb}Ew)7W${6N3]syn(is00[m2T>-_$#EphQb}}",
    ]
  ) {
    assert.ok(isSymbolNoise(noise), noise);
    assert.equal(placeholderProblem(noise), undefined, noise);
  }
  // Under 12 characters, with a blank, or with fewer than four symbols: still read as templates.
  assert.equal(placeholderProblem("a{b}c$(d)"), "template syntax");
  assert.equal(isSymbolNoise("q{{w}e)r ${t]yui(opas"), false);
  assert.equal(isSymbolNoise("abc{def}ghijkl"), false);
});

Deno.test("placeholderProblem: names, code and counting typed as values are no secrets", () => {
  assert.equal(
    placeholderProblem("arn:aws:iam::aws:policy/IAMUserChangePassword"),
    "an AWS resource's name",
  );
  assert.equal(placeholderProblem(".$cfg['main']"), "a concatenation");
  assert.equal(placeholderProblem("+ $password"), "a concatenation");
  assert.equal(placeholderProblem("#toggle-password"), "a CSS selector");
  assert.equal(placeholderProblem("pk_placeholderplaceholder12"), "template words");
  assert.equal(placeholderProblem("postgres_password_here"), "template words");
  assert.equal(placeholderProblem("a0b1c2d3-e4f5-g6h7-i8j9"), "letters and digits counted in turn");
  for (
    const counted of ["0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7rNRAL", "px-dep-z9y8x7w6-v5u4-t3s2-r1q0"]
  ) {
    assert.equal(placeholderProblem(counted), "letters and digits counted in turn", counted);
  }
  assert.equal(placeholderProblem("&lt;YOUR_PASSWORD&gt;"), "template syntax");
  assert.equal(placeholderProblem("pass"), "placeholder word pass");
  assert.equal(placeholderProblem("not-set"), "placeholder word not-set");
  // Random values stay secrets.
  assert.equal(placeholderProblem("#Tq8-Lm3v-Xr7"), undefined);
  assert.equal(placeholderProblem("a7b1c9d3-e4f5-k6h7"), undefined);
  // Letters up and digits down: no count in turn.
  assert.equal(placeholderProblem("a8b7c6d5e4f3g2h1i0j9k8l7"), undefined);
});

Deno.test("placeholderProblem: a stand-in word in the marks that set it apart ([FILTERED], __SET_ME__) and a secret store's reference are stand-ins", () => {
  assert.equal(placeholderProblem("[FILTERED]"), "placeholder word [FILTERED]");
  assert.equal(placeholderProblem("__SET_ME__"), "a token a deploy replaces");
  assert.equal(placeholderProblem("__PaymentsDbPassword__"), "a token a deploy replaces");
  assert.equal(placeholderProblem("process.env.E2E_PASSWORD!"), "an environment lookup");
  assert.equal(
    placeholderProblem("ref+vault://kv/data/payments/prod#/db_password"),
    "a secret store's reference",
  );
  assert.equal(placeholderProblem("(hidden)"), "placeholder word (hidden)");
  assert.equal(placeholderProblem("[Kq7Lm2Vx9]"), undefined);
  assert.equal(
    placeholderProblem("op://Production/Postgres/password"),
    "a secret store's reference",
  );
  assert.equal(
    placeholderProblem("arn:aws:secretsmanager:ap-southeast-1:123456789012:secret:prod/db"),
    "a secret store's reference",
  );
});

Deno.test("placeholderProblem: ciphertext, an HMAC and lookups that name where a secret is kept are stand-ins; a secret shaped near them is not", () => {
  const iis =
    "[enc:IISCngProvider:DDrSJANF1EMJkz6QKVbS1fVreup8OJy0H7MPMDPHp7zqIbOwUcWQnfKlErI0x5i7yIWQOr4vbh4cxa9CKdL+hFsJALQJ4u8A=:enc]";
  assert.equal(placeholderProblem(iis), "IIS ciphertext");
  const hmac = "hmac-sha256:ba574e931470f8e5f8f8f1c81191a285d35d52ff2d50d9e22b9e79f0f0ac8b6b";
  assert.equal(placeholderProblem(hmac), "a secret's HMAC (Vault's audit log)");
  assert.equal(placeholderProblem("%env(APP_SECRET)%"), "an environment lookup");
  assert.equal(placeholderProblem("%env(resolve:JWT_SECRET_KEY)%"), "an environment lookup");
  assert.equal(placeholderProblem("@keychain:AC_PASSWORD"), "a keychain or environment reference");
  assert.equal(placeholderProblem("@env:NOTARY_PASSWORD"), "a keychain or environment reference");
  assert.equal(placeholderProblem("X-Auth-Token"), "an HTTP header's name");
  assert.equal(placeholderProblem("X-CSRF-Token"), "an HTTP header's name");
  assert.equal(placeholderProblem("X-Tq8-Lm3v"), undefined);
  // Only the whole shape: a value that merely starts like one is judged as any other.
  assert.equal(placeholderProblem(`${hmac}x`), undefined);
  assert.equal(placeholderProblem("[enc:IISCngProvider:Qk9#zz:enc]"), undefined);
  assert.equal(placeholderProblem("@keychain:Tq8#Lm3vXr7"), undefined);
  assert.equal(placeholderProblem("%env(APP_SECRET)%Kq7Lm2Vx9"), undefined);
});

Deno.test({
  name: "a secret found once is replaced wherever else it stands as a whole token",
  permissions: "none",
  fn() {
    const pw = "Hq7-xLm2Rv9zT";
    const text = `DB_PASSWORD=${pw}\nassistant: I set it to ${pw}, and ${pw}x is another word`;
    const out = redactText(text);
    assert.equal(
      out.text,
      "DB_PASSWORD=<PASSWORD>\nassistant: I set it to <PASSWORD>, and Hq7-xLm2Rv9zTx is another word",
    );
    assert.equal(out.matchCount, 2);
    // The same in explain mode.
    assert.deepEqual(explainText(text).matches.map((m) => m.start), [12, 49]);
    // Too short to echo: a value of fewer than ECHO_MIN_CHARS characters.
    const short = "password=Xk9#vq2\nthen Xk9#vq2";
    assert.equal(short.slice(9, 16).length < ECHO_MIN_CHARS, true);
    assert.equal(redactText(short).text, "password=<PASSWORD>\nthen Xk9#vq2");
  },
});

Deno.test({
  name: "a Basic credential's password, decoded and quoted back, is replaced too",
  permissions: "none",
  fn() {
    const basic = btoa("svc-billing:XrTMN4%76XbTckz");
    const text = `Authorization: Basic ${basic}\nDecoded, that is \`svc-billing:XrTMN4%76XbTckz\`.`;
    const out = redactText(text).text;
    assert.ok(!out.includes(basic) && !out.includes("XrTMN4%76XbTckz"), out);
    assert.ok(out.includes("`svc-billing:<PASSWORD>`"), out);
  },
});

/** A finding of rule `r` at `[start, end)`. */
function finding(start: number, end: number): Finding {
  return { ruleId: "r", metricLabel: "r", placeholder: "<R>", start, end };
}

Deno.test({
  name: "overlapsAny() tells a span that overlaps one of sorted findings",
  permissions: "none",
  fn() {
    const findings = [finding(2, 5), finding(10, 12), finding(20, 30)];
    assert.deepEqual(
      [[0, 2], [0, 3], [5, 10], [11, 11.5], [12, 20], [29, 40], [30, 40]].map(([s, e]) =>
        overlapsAny(findings, s!, e!)
      ),
      [false, true, false, true, false, true, false],
    );
    assert.equal(overlapsAny([], 0, 10), false);
  },
});

Deno.test({
  name: "withEchoes() keeps findings disjoint and gives up on texts with too many secrets",
  permissions: "none",
  fn() {
    // "abcdefgh" found at 0; its echo at 9 overlaps the finding at 12–20 and is dropped.
    const text = "abcdefgh abcdefgh12345 abcdefgh";
    const echoed = withEchoes(text, [finding(0, 8), finding(12, 20)]);
    assert.deepEqual(echoed.map((x) => [x.start, x.end]), [[0, 8], [12, 20], [23, 31]]);
    // More distinct secrets than ECHO_MAX_SECRETS: findings come back as they were.
    const many = Array.from(
      { length: ECHO_MAX_SECRETS + 1 },
      (_, i) => `secret${String(i).padStart(4, "0")}`,
    );
    const dense = `${many.join(" ")} ${many[0]}`;
    const findings = many.map((_, i) => finding(i * 11, i * 11 + 10));
    assert.equal(withEchoes(dense, findings), findings);
  },
});
