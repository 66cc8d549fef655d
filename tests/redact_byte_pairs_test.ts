/**
 * `BytePairs`: a keyword it rules out is never in the text (checked on every
 * rule's samples against every keyword, and on texts of each length around
 * the pairs' two alignments), and on ordinary code it rules out nearly all.
 *
 * @module
 */

import assert from "node:assert/strict";
import { BytePairs } from "../lib/redact/_byte_pairs.ts";
import { RULES } from "../lib/redact/rules/mod.ts";
import { textWithSecrets } from "../bench/_payloads.ts";

const KEYWORDS = [...new Set(RULES.flatMap((rule) => rule.keywords))];

Deno.test({
  name: "BytePairs rules out only keywords the text lacks",
  permissions: "none",
  fn() {
    const samples = RULES.flatMap((rule) => [...rule.truePositives, ...rule.falsePositives]);
    samples.push("", "x", "ab", "mật khẩu là x", "€uro", "a\u0000b", "\u{1F600}sk-ant-");
    for (const sample of samples) {
      const lower = sample.toLowerCase();
      const pairs = new BytePairs(lower);
      for (const keyword of KEYWORDS) {
        if (lower.includes(keyword)) assert.ok(pairs.mayHold(keyword), `${keyword} in ${sample}`);
      }
    }
  },
});

Deno.test({
  name: "BytePairs reads the pair at every offset, the first and the last included",
  permissions: "none",
  fn() {
    for (let length = 2; length <= 9; length++) {
      const text = "abcdefghi".slice(0, length);
      const pairs = new BytePairs(text);
      for (let at = 0; at + 1 < length; at++) {
        assert.ok(pairs.mayHold(text.slice(at, at + 2)), `${text.slice(at, at + 2)} in ${text}`);
      }
      assert.equal(pairs.mayHold(`${text.at(-1)}a`), false, text);
      assert.equal(pairs.mayHold("ba"), false, text);
    }
    // Each pair is read where it stands, not only alongside its own kind.
    const pairs = new BytePairs("xyz");
    assert.equal(pairs.mayHold("xyz"), true);
    assert.equal(pairs.mayHold("xz"), false);
    assert.equal(pairs.mayHold("zx"), false);
    assert.equal(pairs.mayHold("x"), true);
    assert.equal(new BytePairs("").mayHold("ab"), false);
    // A keyword past ASCII may stand only in a text that is not ASCII alone.
    assert.equal(new BytePairs("the password is here").mayHold("パスワード"), false);
    assert.equal(new BytePairs("mật khẩu: x").mayHold("mật khẩu"), true);
    assert.equal(new BytePairs("パスワードは").mayHold("パスワード"), true);
    assert.equal(new BytePairs("password: x").mayHold("mk"), false);
  },
});

Deno.test({
  name: "BytePairs leaves few of the rules' keywords to search 64 KB of code for",
  permissions: "none",
  fn() {
    const code = `export function f(a: string) {\n  return a.trim() + "x";\n}\n`;
    const lower = textWithSecrets(64 * 1024, code).toLowerCase();
    const pairs = new BytePairs(lower);
    const left = KEYWORDS.filter((keyword) => pairs.mayHold(keyword));
    const present = KEYWORDS.filter((keyword) => lower.includes(keyword));
    assert.ok(present.every((keyword) => left.includes(keyword)));
    assert.ok(left.length <= present.length + 20, `${left.length} left, ${present.length} present`);
  },
});
