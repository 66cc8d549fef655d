/**
 * Every rule's own samples through the real engine: each true positive is
 * redacted by that rule, each false positive comes back unchanged from the
 * whole rule set.
 *
 * @module
 */

import assert from "node:assert/strict";
import { redactText } from "../lib/redact/mod.ts";
import { RULES } from "../lib/redact/rules/mod.ts";

Deno.test({
  name: "RULES have unique ids, g+d patterns, lowercase keywords and samples",
  permissions: "none",
  fn() {
    const ids = new Set<string>();
    for (const rule of RULES) {
      assert.ok(!ids.has(rule.id), `duplicate id ${rule.id}`);
      ids.add(rule.id);
      assert.ok(
        rule.pattern().global && rule.pattern().hasIndices && rule.pattern() !== rule.pattern(),
        `${rule.id}: needs the g and d flags, and a fresh pattern each time`,
      );
      for (const k of rule.keywords) assert.equal(k, k.toLowerCase(), `${rule.id}: keyword ${k}`);
      assert.match(rule.placeholder, /^<[A-Z_]+>$/, rule.id);
      assert.match(rule.id, /^[a-z0-9]+(?:_[a-z0-9]+)*$/, `${rule.id}: ids are snake_case`);
      assert.ok(rule.truePositives.length > 0, `${rule.id}: no true positives`);
      assert.ok(rule.falsePositives.length > 0, `${rule.id}: no false positives`);
    }
  },
});

for (const rule of RULES) {
  Deno.test({
    name: `redactText() redacts every true positive of ${rule.id} with that rule`,
    permissions: "none",
    fn() {
      for (const sample of rule.truePositives) {
        const result = redactText(sample);
        const label = rule.metricLabel ?? rule.id;
        assert.ok((result.counts[label] ?? 0) >= 1, `${rule.id} missed: ${sample}`);
        assert.ok(result.text.includes(rule.placeholder), `${rule.id}: ${result.text}`);
      }
    },
  });
  Deno.test({
    name: `redactText() keeps every false positive of ${rule.id} unchanged`,
    permissions: "none",
    fn() {
      for (const sample of rule.falsePositives) {
        const result = redactText(sample);
        assert.equal(result.text, sample, `${rule.id} changed: ${sample}`);
        assert.equal(result.matchCount, 0);
      }
    },
  });
}
