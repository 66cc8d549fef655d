/**
 * `boundaryFirst()` (`lib/redact/_boundary_first.ts`) gathers a pattern's
 * `\b` alternatives under one `\b` only where no other alternative can
 * start as they do, so the matches stay the same.
 *
 * @module
 */

import assert from "node:assert/strict";
import { boundaryFirst, wordBoundaryFirst } from "../lib/redact/_boundary_first.ts";
import { RULES } from "../lib/redact/rules/mod.ts";

Deno.test({
  name: "boundaryFirst() gathers the \\b alternatives first, each group in its order",
  permissions: "none",
  fn() {
    assert.equal(boundaryFirst(String.raw`\bfoo|<<<x|\bbar`), String.raw`\b(?:foo|bar)|<<<x`);
    // A lookbehind consumes nothing: `psk=` starts with `ps`, no `\b` alternative does.
    assert.equal(
      boundaryFirst(String.raw`\bpassword|(?<![\w-])#?psk=|\bpriv`),
      String.raw`\b(?:password|priv)|(?<![\w-])#?psk=`,
    );
    assert.equal(
      boundaryFirst(String.raw`\b(?:a|bc)d|\bxy|-(?:c|A)`),
      String.raw`\b(?:(?:a|bc)d|xy)|-(?:c|A)`,
    );
  },
});

Deno.test({
  name: "boundaryFirst() leaves a pattern whose alternatives may start alike, or cannot tell",
  permissions: "none",
  fn() {
    for (
      const source of [
        String.raw`\bfoo|f\d|\bbar`, // both may start with f (a class after: one character tells)
        String.raw`\bfoo|F|\bbar`, // with the i flag
        String.raw`\bfoo|[a-z]x|\bbar`, // a class: cannot tell
        String.raw`\bfoo|(?=x)y|\bbar`, // a lookahead
        String.raw`\bfoo|x`, // one \b alternative only
      ]
    ) {
      assert.equal(boundaryFirst(source, true), source, source);
    }
  },
});

Deno.test({
  name: "the rules built with boundaryFirst() find what their patterns as written find",
  permissions: "none",
  fn() {
    const samples = RULES.flatMap((rule) => [...rule.truePositives, ...rule.falsePositives]);
    for (
      const id of [
        "password_command",
        "network_device_secret",
        "command_key_argument",
        "snmp_secret",
      ]
    ) {
      const rule = RULES.find((r) => r.id === id)!;
      const gathered = rule.pattern();
      const written = new RegExp(unGathered(gathered.source), gathered.flags);
      assert.notEqual(gathered.source, written.source, id);
      for (const sample of samples) {
        const spans = (re: RegExp) => [...sample.matchAll(re)].map((m) => `${m.index}:${m[0]}`);
        assert.deepEqual(spans(gathered), spans(written), `${id}: ${sample}`);
      }
    }
  },
});

/** Each alternative of a leading `\b(?:…)` with its own `\b` again: the pattern as written, reordered. */
function unGathered(source: string): string {
  assert.ok(source.startsWith("\\b(?:"));
  let depth = 0;
  let end = -1;
  for (let i = 2; i < source.length && end < 0; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") { while (source[i] !== "]") i += source[i] === "\\" ? 2 : 1; }
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) end = i;
  }
  const inner = source.slice(5, end);
  const parts: string[] = [];
  depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "\\") i++;
    else if (c === "[") { while (inner[i] !== "]") i += inner[i] === "\\" ? 2 : 1; }
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return [...parts.map((part) => `\\b${part}`), source.slice(end + 2)].filter((p) => p !== "").join(
    "|",
  );
}

Deno.test({
  name:
    "wordBoundaryFirst() puts \\b before a lookbehind no word character passes, when every match starts with one",
  permissions: "none",
  fn() {
    assert.equal(
      wordBoundaryFirst("(?<![\\w-])(?:ghp|gho)_[A-Za-z0-9]{36}"),
      "\\b(?<![\\w-])(?:ghp|gho)_[A-Za-z0-9]{36}",
    );
    // A match may start with `-`, `\.` or a class; the lookbehind lets `_` pass; two alternatives.
    for (
      const source of [
        "(?<![\\w-])-p\\S+",
        "(?<![\\w-])(?:ab|\\.c)",
        "(?<![\\w-])[sr]k_x",
        "(?<![A-Za-z0-9])AKIA",
        "(?<![\\w-])ab|cd",
        "(?<![^\\w])ab",
      ]
    ) {
      assert.equal(wordBoundaryFirst(source), source, source);
    }
  },
});

Deno.test({
  name: "wordBoundaryFirst() changes no match on text where a token follows every character",
  permissions: "none",
  fn() {
    const source = "(?<![\\w-])(?:ghp|sk)_[A-Za-z0-9]{8}(?![\\w-])";
    const text = [..."a-_.:/ \n9Z@"].map((c) => `${c}ghp_Ab3Cd4Ef ${c}sk_Zz9Yy8Xx`).join("");
    const find = (s: string) => [...text.matchAll(new RegExp(s, "g"))].map((m) => m.index);
    assert.deepEqual(find(wordBoundaryFirst(source)), find(source));
    assert.ok(find(source).length > 0);
  },
});

Deno.test({
  name:
    "every rule's pattern already opens with the \\b wordBoundaryFirst() would give it (none is worked out in the hook)",
  permissions: "none",
  fn() {
    const missing = RULES.filter((rule) => {
      const source = rule.pattern().source;
      return wordBoundaryFirst(source) !== source;
    }).map((rule) => rule.id);
    assert.deepEqual(missing, [], "write `\\b` in front of these rules' patterns");
  },
});
