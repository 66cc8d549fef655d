/**
 * Rules that match only where their keywords start (`startsAtKeyword`): the
 * offsets found in one pass, each such rule held to its word on every text
 * we have, and a long text redacted the same whether each pattern searches
 * the whole of it or is tried at those offsets alone.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  DENSE_KEYWORD_SPACING,
  KeywordStarts,
  mergedOffsets,
} from "../lib/redact/_keyword_starts.ts";
import { INDEXED_MIN_CHARS, keywordsIn, type Rule, scanText } from "../lib/redact/_engine.ts";
import { RULES } from "../lib/redact/rules/mod.ts";
import { repeatTo, rulePrefixes, textWithSecrets } from "../bench/_payloads.ts";
import { DEV_CORPORA, loadCorpus } from "./redaction/score.ts";

const CORPUS = new URL("redaction/corpus/", import.meta.url);

/** Rules that say they start at their keywords, one for each of `keywords`. */
function rulesOf(keywords: string[]): Rule[] {
  return keywords.map((keyword) => ({
    id: keyword,
    description: "",
    placeholder: "<X>",
    keywords: [keyword],
    startsAtKeyword: true,
    pattern: () => /x/dg,
    priority: 1,
    validators: [],
    allowlist: [],
    truePositives: [],
    falsePositives: [],
  }));
}

/** Where the keywords of `rules` start in `lower`, recorded by the engine's one keyword pass. */
function startsIn(lower: string, rules: Rule[]): Map<string, number[]> {
  const recorder = new KeywordStarts(lower, rules);
  keywordsIn(lower, rules, recorder);
  return recorder.starts;
}

Deno.test("KeywordStarts records every start of each keyword in the keyword pass, and leaves out short and dense ones", () => {
  const lower = "a sk-ant- b sk-ant-sk-ant- xoxb- zz";
  assert.deepEqual(
    startsIn(lower, rulesOf(["sk-ant-", "xoxb-", "zz", "absent"])),
    new Map([["absent", []], ["sk-ant-", [2, 12, 19]], ["xoxb-", [27]]]),
  );
  // Keywords sharing their first three characters are told apart.
  assert.deepEqual(
    startsIn("sk-or-v1 sk-ant-", rulesOf(["sk-ant-", "sk-or-"])),
    new Map([["sk-ant-", [9]], ["sk-or-", [0]]]),
  );
  // A rule that does not say it starts at its keywords is not recorded.
  const unsaid = { ...rulesOf(["xoxb-"])[0]!, startsAtKeyword: false };
  assert.deepEqual(startsIn(lower, [unsaid]), new Map());
  const dense = "key=1 ".repeat(DENSE_KEYWORD_SPACING * 8) + "sk-ant-";
  const starts = startsIn(dense, rulesOf(["key=", "sk-ant-"]));
  assert.equal(starts.has("key="), false, "a keyword found every 6 characters is dense");
  assert.deepEqual(starts.get("sk-ant-"), [dense.length - 7]);
});

Deno.test("mergedOffsets() merges offset lists in ascending order, each offset once", () => {
  assert.deepEqual([...mergedOffsets([[5, 9], [1, 5, 12], []])], [1, 5, 9, 12]);
  assert.deepEqual([...mergedOffsets([])], []);
});

/** Every text a rule's claim is checked on: its samples, the development corpora, the prefix mix. */
async function textsToCheck(): Promise<string[]> {
  const texts = [repeatTo(rulePrefixes().join(" "), 1 << 20)];
  for (const name of DEV_CORPORA) {
    for (const c of await loadCorpus(new URL(name, CORPUS))) texts.push(c.text);
  }
  for (const rule of RULES) texts.push(...rule.truePositives, ...rule.falsePositives);
  return texts;
}

Deno.test("every rule that says it matches only where a keyword starts does so on every text we have", async () => {
  const texts = await textsToCheck();
  const claiming = RULES.filter((rule) => rule.startsAtKeyword);
  assert.ok(claiming.length >= 100, `${claiming.length} rules claim it`);
  for (const rule of claiming) {
    const { source, flags } = rule.pattern();
    const pattern = new RegExp(source, flags.replace("d", ""));
    for (const text of texts) {
      const lower = text.toLowerCase();
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
        if (m[0].length === 0) {
          pattern.lastIndex++;
          continue;
        }
        const at = m.index;
        assert.ok(
          rule.keywords.some((keyword) => lower.startsWith(keyword, at)),
          `${rule.id} matched ${
            JSON.stringify(m[0].slice(0, 40))
          } where none of its keywords starts`,
        );
      }
    }
  }
});

Deno.test("scanText() finds the same in a long text whether patterns search all of it or start at keywords", () => {
  const mix = repeatTo(rulePrefixes().join(" "), INDEXED_MIN_CHARS * 2);
  const prose = textWithSecrets(INDEXED_MIN_CHARS + 4096);
  for (const text of [mix, prose]) {
    const atKeywords = scanText(text, RULES);
    const everywhere = scanText(text, RULES, { everyOffset: true });
    assert.ok(atKeywords.findings.length > 0);
    assert.deepEqual(atKeywords.findings, everywhere.findings);
  }
});
