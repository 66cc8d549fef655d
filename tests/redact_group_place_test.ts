/**
 * The engine runs patterns without the `d` flag and works out where the
 * secret group sits from the pattern's source (`lib/redact/_group_place.ts`).
 * These tests hold that reading to what `d` says, for made-up patterns and
 * for every rule on its samples and its prefixes repeated.
 *
 * @module
 */

import assert from "node:assert/strict";
import { groupPlace, unnameGroups } from "../lib/redact/_group_place.ts";
import { DENSE_MATCHES, groupsReader, type Rule, scanText } from "../lib/redact/_engine.ts";
import { RULES } from "../lib/redact/rules/mod.ts";
import { repeatTo, rulePrefixes } from "../bench/_payloads.ts";

Deno.test({
  name:
    "groupPlace() tells a group inside a lookaround, one that ends where the match starts, and a pattern for what follows it",
  permissions: "none",
  fn() {
    assert.deepEqual(groupPlace(String.raw`(?<=(?<![\w-])(?<head>\d{3}))-\d{4}`, "head"), {
      found: true,
      inLookaround: true,
      endsAtMatchStart: true,
      tails: [String.raw`-\d{4}`],
    });
    const quoted = groupPlace(
      String
        .raw`pw(?:'(?<q>(?<secret>[^']{1,9}))'|\\"(?<secret>[^"]{1,9})\\"|(?<secret>\w{1,9}))(?=\s|$)|x`,
      "secret",
    );
    assert.deepEqual(quoted, {
      found: true,
      inLookaround: false,
      endsAtMatchStart: false,
      tails: ["'", String.raw`\\"`, ""],
    });
    // Classes, quantifiers and plain groups are kept; lookarounds, \b and $ left out.
    assert.deepEqual(
      groupPlace(String.raw`a(?<secret>\w+)\d?(?:x|(?<y>z))+\b(?!q)$`, "secret").tails,
      [
        String.raw`\d?(?:x|(?:z))+`,
      ],
    );
    // A quantified group around it, a back-reference, or a lookaround inside a group: no tail.
    for (
      const source of [
        "(?:a(?<secret>b))+",
        String.raw`(?<secret>b)(?<s>c)\k<s>`,
        String.raw`(?<secret>b)(?:c(?=d))`,
      ]
    ) {
      assert.equal(groupPlace(source, "secret").tails, undefined, source);
    }
    // A lookbehind group not at the start of an alternative does not end at the match start.
    assert.equal(groupPlace(String.raw`x(?<=(?<head>\d))y`, "head").endsAtMatchStart, false);
    assert.equal(groupPlace(String.raw`x|(?<=(?<head>\d))y`, "head").endsAtMatchStart, true);
    // Brackets and parentheses inside classes and escapes are not groups.
    assert.deepEqual(groupPlace(String.raw`[(](?<secret>[)\]]+)\)`, "secret").tails, [
      String.raw`\)`,
    ]);
    assert.equal(groupPlace("(?<other>a)", "secret").found, false);
  },
});

Deno.test({
  name:
    "unnameGroups() numbers named groups, keeps the rest, declines back-references by name; groupsReader() names them again",
  permissions: "none",
  fn() {
    assert.deepEqual(unnameGroups(String.raw`(?<a>x)|(?<a>y)(z)[(?<q>]\((?<=(?<h>\d))(?:u)`), {
      source: String.raw`(x)|(y)(z)[(?<q>]\((?<=(\d))(?:u)`,
      names: [["a", [1, 2]], ["h", [4]]],
    });
    assert.equal(unnameGroups(String.raw`(?<s>[- ])\d\k<s>`), undefined);
    assert.equal(unnameGroups("(?<a>x)", "v"), undefined);
    // Every rule's pattern, unnamed, matches exactly where it did.
    for (const r of RULES) {
      const pattern = r.pattern();
      const unnamed = unnameGroups(pattern.source, pattern.flags);
      if (unnamed === undefined) continue;
      const plain = new RegExp(unnamed.source, pattern.flags);
      const read = groupsReader(unnamed.names);
      for (const sample of [...r.truePositives, ...r.falsePositives]) {
        const expected = [...sample.matchAll(pattern)].map((m) => [m.index, m[0], { ...m.groups }]);
        const actual: unknown[] = [...sample.matchAll(plain)].map((m): unknown[] => [
          m.index,
          m[0],
          read(m),
        ]);
        assert.deepEqual(actual, expected, `${r.id}: ${sample}`);
      }
    }
  },
});

function rule(pattern: RegExp, place: Pick<Rule, "secretGroup" | "secretFrom">): Rule {
  return {
    id: "made_up",
    description: "",
    placeholder: "<X>",
    keywords: [],
    pattern: () => new RegExp(pattern.source, pattern.flags),
    ...place,
    priority: 1,
    validators: [],
    allowlist: [],
    truePositives: [],
    falsePositives: [],
  };
}

function spans(text: string, rules: readonly Rule[]): Array<[number, number]> {
  const { findings, rejections } = scanText(text, rules, { explain: true });
  return [...findings, ...rejections].map((s): [number, number] => [s.start, s.end])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

Deno.test({
  name:
    "scanText() on text dense with matches finds a secret that occurs twice in its match where the pattern put it",
  permissions: "none",
  fn() {
    // Each text repeated past DENSE_MATCHES, where the engine stops asking `d`.
    const dense = (text: string, rule: Rule, span: [number, number]) => {
      const unit = `${text}\n`;
      const expected = Array.from(
        { length: DENSE_MATCHES + 2 },
        (_, i): [number, number] => [span[0] + i * unit.length, span[1] + i * unit.length],
      );
      assert.deepEqual(spans(unit.repeat(DENSE_MATCHES + 2), [rule]), expected, text);
    };
    // The literal tail after the group tells the two apart.
    dense(
      "sshpass 'sshpass '",
      rule(/sshpass '(?<secret>[^']{1,40})'/dg, { secretGroup: "secret" }),
      [
        9,
        17,
      ],
    );
    // A pattern for what follows, blanks before a lookahead, tells them apart too.
    dense("x:x: ", rule(/x:(?<secret>[a-z:]{1,9}) {0,2}(?=;|\n)/dg, { secretGroup: "secret" }), [
      2,
      4,
    ]);
    // A back-reference after the group: the engine asks `d`.
    dense("ab=ab", rule(/(?<secret>[a-z]{1,9})=\k<secret>/dg, { secretGroup: "secret" }), [0, 2]);
    // Inside a lookahead the group lies past the match: the engine asks `d`.
    dense("xx", rule(/x(?=(?<secret>x))/dg, { secretGroup: "secret" }), [1, 2]);
    // A lookbehind group not at the start: the engine asks `d`.
    dense("1ab", rule(/a(?<=(?<head>\d)a)b/dg, { secretFrom: "head" }), [0, 3]);
  },
});

/** The spans of `rule` on `text` the way the `d` flag reports them. */
function spansWithIndices(text: string, rule: Rule): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const pattern = rule.pattern();
  for (const m of text.matchAll(pattern)) {
    if (m[0].length === 0) continue;
    let [start, end] = [m.index, m.index + m[0].length];
    if (rule.secretGroup !== undefined) {
      const span = m.indices?.groups?.[rule.secretGroup];
      if (span === undefined || span[0] === span[1]) continue;
      [start, end] = span;
    } else if (rule.secretFrom !== undefined) {
      start = m.indices?.groups?.[rule.secretFrom]?.[0] ?? start;
    }
    out.push([start, end]);
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

Deno.test({
  name:
    "every rule's candidates, also on text dense with them (found without the d flag), are where the d flag puts them",
  permissions: "none",
  fn() {
    const texts = RULES.flatMap((r) => [...r.truePositives, ...r.falsePositives]);
    // Every prefix repeated, all in one text: each rule finds far more than
    // DENSE_MATCHES there, in every context its prefixes make.
    texts.push(rulePrefixes().map((prefix) => repeatTo(prefix, 600)).join("\n"));
    // Samples doubled and joined, so a secret also shows up twice in a match,
    // and each sample repeated past DENSE_MATCHES.
    for (const r of RULES) {
      for (const sample of r.truePositives) {
        texts.push(`${sample}${sample}`, `${sample}\n`.repeat(DENSE_MATCHES + 2));
      }
    }
    for (const r of RULES) {
      if (r.secretGroup === undefined && r.secretFrom === undefined) continue;
      const { precheck: _precheck, keywords: _keywords, ...bare } = r;
      const unchecked: Rule = { ...bare, keywords: [], validators: [], allowlist: [] };
      for (const text of texts) {
        assert.deepEqual(spans(text, [unchecked]), spansWithIndices(text, r), `${r.id}: ${text}`);
      }
    }
  },
});

Deno.test({
  name:
    "scanText() on text dense with one rule's matches validates a secret it accepted once, not again; each new secret, and each rejected one, is validated",
  permissions: "none",
  fn() {
    let calls = 0;
    const counted: Rule = {
      ...rule(/key=(?<secret>\w+)/dg, { secretGroup: "secret" }),
      validators: [(c) => {
        calls++;
        return c.secret.startsWith("no") ? "rejected" : undefined;
      }],
    };
    const repeats = DENSE_MATCHES * 4;
    const text = "key=abc1 key=no2 ".repeat(repeats) + "key=xyz3";
    const { findings } = scanText(text, [counted], {});
    assert.equal(findings.length, repeats + 1, "every accepted secret is a finding");
    // Below DENSE_MATCHES every candidate is validated; past it each accepted secret once more
    // at most, every rejected one each time.
    assert.ok(calls <= DENSE_MATCHES + repeats - DENSE_MATCHES / 2 + 2, `${calls} calls`);
    assert.ok(calls >= repeats, `${calls} calls: the rejected ones are validated each time`);
  },
});
