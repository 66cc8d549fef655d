/**
 * The hook build's rewrites keep what a module does: the eager-compile one
 * parenthesises every function V8 would otherwise compile at first call, the
 * ASCII one escapes every other character where an escape means the same.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  dropRuleSamples,
  escapeNonAscii,
  functionsThatRun,
  lazyRules,
  markEager,
} from "../hook/build.ts";
import { RULES } from "../lib/redact/rules/mod.ts";
import { fileUrlToPath } from "../lib/file_url.ts";

/** Runs a module's text and returns what it left in `globalThis.result`. */
async function evaluate(source: string): Promise<unknown> {
  const key = `result${crypto.randomUUID().replaceAll("-", "")}`;
  const text = source.replaceAll("globalThis.result", `globalThis.${key}`);
  const utf8 = String.fromCharCode(...new TextEncoder().encode(text));
  await import(`data:text/javascript;base64,${btoa(utf8)}`);
  return (globalThis as Record<string, unknown>)[key];
}

const SAMPLE = `
const early = double(21);
function double(n) { return n * 2; }
async function later() { return [1, 2].map((x) => x + 1); }
function* counter() { yield 1; yield 2; }
const object = { method() { return "m"; }, get value() { return 7; }, arrow: () => "a" };
class Box { #v = 3; constructor(v = (() => 4)()) { this.w = v; } read() { return this.#v + this.w; } }
const nested = function outer() { return function inner() { return (y) => y; }; };
globalThis.result = [
  early,
  await later(),
  [...counter()],
  object.method(),
  object.value,
  object.arrow(),
  new Box().read(),
  nested()()(9),
  \`\${((z) => z)(5)}\${double(1)}\`,
];
`;

Deno.test("markEager: the rewritten module computes exactly what the original did", async () => {
  const rewritten = markEager(SAMPLE);
  assert.deepEqual(await evaluate(rewritten), await evaluate(SAMPLE));
  assert.deepEqual(await evaluate(SAMPLE), [42, [2, 3], [1, 2], "m", 7, "a", 7, 9, "52"]);
});

Deno.test("markEager: declarations move to the top in parentheses; expressions are wrapped; methods stay", () => {
  const rewritten = markEager(SAMPLE);
  const lines = rewritten.split("\n");
  assert.match(lines[0]!, /^var double = \(function double\(n\)/);
  assert.match(lines[1]!, /^var later = \(async function later\(\)/);
  assert.match(lines[2]!, /^var counter = \(function\* counter\(\)/);
  assert.ok(rewritten.includes(".map(((x) => x + 1))"), "arrow arguments are wrapped");
  assert.ok(rewritten.includes("const nested = (function outer() { return (function inner()"));
  assert.ok(rewritten.includes("{ method() {"), "object methods cannot be wrapped");
  assert.ok(rewritten.includes('arrow: (() => "a")'));
  assert.ok(rewritten.includes("read() {"), "class methods cannot be wrapped");
  assert.equal((rewritten.match(/^function /gm) ?? []).length, 0);
});

Deno.test("markEager with `only`: just the functions at those offsets, and it still computes the same", async () => {
  const only = new Set([SAMPLE.indexOf("function double"), SAMPLE.indexOf("(x) => x + 1")]);
  const rewritten = markEager(SAMPLE, { only });
  assert.match(rewritten.split("\n")[0]!, /^var double = \(function double\(n\)/);
  assert.ok(rewritten.includes(".map(((x) => x + 1))"));
  assert.ok(rewritten.includes("async function later() {"), "not chosen: left a declaration");
  assert.ok(rewritten.includes("const nested = function outer() { return function inner()"));
  assert.ok(rewritten.includes('arrow: () => "a"'));
  assert.deepEqual(await evaluate(rewritten), await evaluate(SAMPLE));
});

Deno.test("functionsThatRun: the offsets of the functions a trial run called, and only those", async () => {
  const source = [
    "function used() { return [1].map((x) => x + 1); }",
    "function unused() { return [2].map((y) => y); }",
    "used();",
  ].join("\n");
  const ran = await functionsThatRun(source);
  assert.ok(ran.has(source.indexOf("function used")));
  assert.ok(ran.has(source.indexOf("(x) => x + 1")));
  assert.ok(!ran.has(source.indexOf("function unused")));
  assert.ok(!ran.has(source.indexOf("(y) => y")));
});

Deno.test("markEager: a syntax error is reported, not rewritten", () => {
  assert.throws(() => markEager("function ("), SyntaxError);
});

const RULES_SAMPLE = `
const first = { id: "a", description: "A key", placeholder: "<A>", keywords: ["a"], pattern: () => /a/g,
  priority: 1, truePositives: ["a1"], falsePositives: ["b"] };
const second = { truePositives: ["x"], id: "b", placeholder: "<B>", pattern: () => /b/g, description: "B" };
const notARule = { description: "kept", truePositives: ["kept"], placeholder: "<C>" };
globalThis.result = [first, second, notARule].map((o) => Object.keys(o).join(","));
`;

Deno.test("dropRuleSamples: rules lose only their review fields; other objects keep theirs", async () => {
  const dropped = dropRuleSamples(RULES_SAMPLE);
  assert.deepEqual(await evaluate(dropped), [
    "id,placeholder,keywords,pattern,priority",
    "id,placeholder,pattern",
    "description,truePositives,placeholder",
  ]);
  assert.ok(!dropped.includes("a1") && !dropped.includes('"A key"'));
});

const LAZY_SAMPLE = `
let built = 0;
const withDefaults = (spec) => { spec.priority ??= 800; return spec; };
const plain = { id: (built++, "a"), placeholder: "<A>", keywords: ["a", "b"], pattern: () => /a/g,
  precheckFirst: true, precheck: (facts) => facts.length > 2, priority: 1, validators: [(s) => s.length > 1] };
const called = withDefaults({ id: (built++, "b"), placeholder: "<B>", keywords: [], pattern: () => /b/g,
  startsAtKeyword: true });
const notARule = { id: (built++, "c"), placeholder: "<C>" };
const seen = [built, plain.keywords, plain.precheckFirst, plain.startsAtKeyword, called.startsAtKeyword,
  plain.precheck("abc"), called.precheck, built];
seen.push(plain.id, built, plain.priority, plain.validators[0]("xy"), plain.pattern().source, built);
seen.push(called.priority, called.id, built, Object.keys(plain).includes("placeholder"));
globalThis.result = seen;
`;

Deno.test("lazyRules: a rule is built at the first read past its keywords, precheck and flags, once", async () => {
  const { text: lazy, builders } = lazyRules(LAZY_SAMPLE);
  assert.equal(builders.size, 2);
  for (const offset of builders) assert.ok(lazy.startsWith("() => (", offset));
  assert.ok(!lazy.includes("precheck: (facts)"), "the precheck is read first, not built again");
  // What the sample read, and after each read how many literals had been evaluated (`built`).
  const reads = [
    1, // only `notARule` so far
    ["a", "b"],
    true,
    undefined,
    true,
    true,
    undefined,
    1,
    "a",
    2,
    1,
    true,
    "a",
    2,
    800, // the call around a rule (as \`token({…})\`) is built with it
    "b",
    3,
    true,
  ];
  assert.deepEqual(await evaluate(lazy), reads);
  // Unwrapped, the same reads, with all three literals evaluated from the start.
  const countsAt = new Set([0, 7, 9, 13, 16]);
  assert.deepEqual(
    await evaluate(LAZY_SAMPLE),
    reads.map((value, index) => countsAt.has(index) ? 3 : value),
  );
});

Deno.test("lazyRules: refuses a rule it cannot make lazy, and a module without rules", () => {
  assert.throws(
    () => lazyRules('const r = { ...base, placeholder: "<A>", pattern: () => /a/ };'),
    /spreads another object/,
  );
  assert.throws(() => lazyRules("const r = { id: 1 };"), /No redaction rule/);
});

Deno.test("lazyRules: every bundled rule reads as its source does", async () => {
  const entry = fileUrlToPath(new URL("../lib/redact/rules/mod.ts", import.meta.url));
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "-q", "--platform", "deno", entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const lazy = lazyRules(dropRuleSamples(new TextDecoder().decode(output.stdout))).text;
  const file = await Deno.makeTempFile({ suffix: ".js" });
  let bundled: typeof RULES;
  try {
    await Deno.writeTextFile(file, lazy);
    bundled = (await import(`file://${file}`)).RULES;
  } finally {
    await Deno.remove(file);
  }
  assert.equal(bundled.length, RULES.length);
  const fields = (rule: (typeof RULES)[number]) => ({
    keywords: rule.keywords,
    precheckFirst: rule.precheckFirst,
    startsAtKeyword: rule.startsAtKeyword,
    id: rule.id,
    metricLabel: rule.metricLabel,
    placeholder: rule.placeholder,
    precheck: typeof rule.precheck,
    pattern: `${rule.pattern()}`,
    secretGroup: rule.secretGroup,
    secretFrom: rule.secretFrom,
    priority: rule.priority,
    // The bundler numbers a name that two modules declare.
    validators: rule.validators.map((validator) => validator.name.replace(/\d+$/, "")),
    allowlist: rule.allowlist.map(String),
  });
  bundled.forEach((rule, index) => assert.deepEqual(fields(rule), fields(RULES[index]!)));
});

const NON_ASCII = String.raw`
const words = ["mật khẩu", "パスワード", "emoji 🔑"];
const flags = [/mật khẩu/i, /contrase(?:ñ|n)a/, /[à-ÿ]+/g, /\ñ/, /🔑/u, /[🔑]/u];
const probes = ["MẬT KHẨU", "mật khẩu", "contraseña", "déjà vu", "ñ", "🔑"];
globalThis.result = [
  words,
  ${"`"}ä${"$"}{words[0]}ö${"`"},
  flags.map((re) => probes.map((p) => { re.lastIndex = 0; return re.test(p); })),
  flags.map((re) => re.flags),
];
`;

Deno.test("escapeNonAscii: the escaped module is ASCII and computes exactly what the original did", async () => {
  const escaped = escapeNonAscii(NON_ASCII);
  assert.doesNotMatch(escaped, /[\u0080-\uffff]/);
  assert.deepEqual(await evaluate(escaped), await evaluate(NON_ASCII));
  const [words, , matches] = await evaluate(NON_ASCII) as [string[], string, boolean[][]];
  assert.deepEqual(words, ["mật khẩu", "パスワード", "emoji 🔑"]);
  assert.deepEqual(
    matches[0],
    [true, true, false, false, false, false],
    "the i flag still folds ậ",
  );
  assert.ok(escaped.includes(String.raw`/\u00f1/`), "an escaped ñ loses its backslash");
  assert.equal(escapeNonAscii("const a = 1;"), "const a = 1;");
});

Deno.test("escapeNonAscii: refuses what an escape would change or cannot reach", () => {
  assert.throws(() => escapeNonAscii("const tag = String.raw`ñ`;"), /offset 23 outside a string/);
  assert.throws(() => escapeNonAscii("const ñ = 1;"), /offset 6 outside/);
  assert.throws(() => escapeNonAscii("const a = 1; // ñ"), /offset 16 outside/);
});
