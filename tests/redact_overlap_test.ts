/**
 * Overlap resolution: the engine resolves each cluster of overlapping
 * candidates on its own (small ones by comparing, large ones by marking
 * offsets). Held here to the plain global rule, written out in the test:
 * all candidates in order of precedence, each kept unless it overlaps one
 * kept before; a loser names the winner holding its first offset.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type Rule, scanText } from "../lib/redact/_engine.ts";

interface Span {
  ruleId: string;
  priority: number;
  start: number;
  end: number;
}

/** The global rule, on every candidate at once. */
function reference(spans: Span[]): { kept: Span[]; lost: Array<[Span, string]> } {
  const ordered = [...spans].sort((a, b) => a.start - b.start).sort((a, b) =>
    b.priority - a.priority || (b.end - b.start) - (a.end - a.start) || a.start - b.start
  );
  const kept: Span[] = [];
  const lost: Array<[Span, string]> = [];
  for (const c of ordered) {
    const over = kept.filter((k) => k.start < c.end && c.start < k.end)
      .sort((a, b) => a.start - b.start);
    if (over.length > 0) lost.push([c, over[0]!.ruleId]);
    else kept.push(c);
  }
  return { kept: kept.sort((a, b) => a.start - b.start), lost };
}

/** A made-up rule matching runs of `letter`. */
function ruleOf(id: string, priority: number, letter: string): Rule {
  return {
    id,
    description: "",
    placeholder: `<${id}>`,
    keywords: [],
    pattern: () => new RegExp(`${letter}+`, "dg"),
    priority,
    validators: [],
    allowlist: [],
    truePositives: [],
    falsePositives: [],
  };
}

Deno.test({
  name: "scanText() keeps and names the same winners as resolving all overlaps at once",
  permissions: "none",
  fn() {
    let seed = 11;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let run = 0; run < 600; run++) {
      // Rule i matches a run of its letter and up to 1 + i % 3 characters after
      // it, so the runs of different letters overlap, in chains of every length
      // (short texts: clusters of a few, compared; long ones: large, marked).
      const length = 6 + random(run % 2 === 0 ? 30 : 400);
      const letters = "abcdefgh".slice(0, 2 + random(6));
      const text = Array.from({ length }, () => letters[random(letters.length)]!).join("");
      const rules = [...letters].map((letter, i) => ({
        ...ruleOf(`r${i}`, random(3), letter),
        pattern: () => new RegExp(`${letter}+[^${letter}]{0,${1 + (i % 3)}}`, "dg"),
      }));
      const spans: Span[] = rules.flatMap((rule) =>
        [...text.matchAll(rule.pattern())].map((m) => ({
          ruleId: rule.id,
          priority: rule.priority,
          start: m.index,
          end: m.index + m[0].length,
        }))
      );
      const { kept, lost } = reference(spans);
      const { findings, rejections } = scanText(text, rules, { explain: true });
      assert.deepEqual(
        findings.map((f) => [f.ruleId, f.start, f.end]),
        kept.map((k) => [k.ruleId, k.start, k.end]),
        text,
      );
      assert.deepEqual(
        rejections.map((r) => [r.ruleId, r.start, r.end, r.reason]),
        lost.map(([c, winner]) => [c.ruleId, c.start, c.end, `overlaps ${winner} (more specific)`]),
        text,
      );
    }
  },
});

Deno.test("a span kept by a rule of higher priority spares the rules after it nothing but work: the findings equal those of a scan that judges every candidate", async () => {
  const { RULES } = await import("../lib/redact/rules/mod.ts");
  const { repeatTo, rulePrefixes } = await import("../bench/_payloads.ts");
  const texts = [
    // Three rules find the same span in every repetition.
    repeatTo('AZURE_CLIENT_SECRET="hgm8Q~', 64 * 1024),
    repeatTo(rulePrefixes().join(" "), 64 * 1024),
    ...RULES.flatMap((rule) => rule.truePositives),
  ];
  for (const text of texts) {
    // With `explain` every candidate is judged; without, claimed spans skip the judging.
    const judged = scanText(text, RULES, { explain: true }).findings;
    const spared = scanText(text, RULES).findings;
    assert.deepEqual(spared, judged, text.slice(0, 80));
  }
});
