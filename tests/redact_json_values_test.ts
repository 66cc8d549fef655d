/**
 * Text that is one JSON document is also read string by string, decoded
 * (`lib/redact/_json_values.ts`): what the raw text's escapes hide is found,
 * and replaced where its escaped form stands.
 *
 * @module
 */

import assert from "node:assert/strict";
import { JSON_MAX_CHARS, jsonStringFindings } from "../lib/redact/_json_values.ts";
import type { Finding } from "../lib/redact/_engine.ts";
import { redactText } from "../lib/redact/mod.ts";

/** Finds every `SECRET` in a string, as a rule would. */
function secretWords(value: string): Finding[] {
  const found: Finding[] = [];
  for (let at = value.indexOf("SECRET"); at >= 0; at = value.indexOf("SECRET", at + 1)) {
    found.push({ ruleId: "r", metricLabel: "r", placeholder: "<R>", start: at, end: at + 6 });
  }
  return found;
}

Deno.test({
  name: "jsonStringFindings() moves what a decoded string holds to where its escaped form stands",
  permissions: "none",
  fn() {
    const text = '{"a": "line \\"one\\"\\nSECRET\\tx", "b": ["SECRET"], "c\\nSECRET": 1}';
    const spans = jsonStringFindings(text, secretWords).map((f) => text.slice(f.start, f.end));
    // `b` holds no escape: the raw text's own scan reads it; the key with one is read.
    assert.deepEqual(spans, ["SECRET", "SECRET"]);
    assert.deepEqual(jsonStringFindings(text, secretWords).map((f) => f.start), [21, 54]);
  },
});

Deno.test({
  name:
    "jsonStringFindings() reads nothing of text that is not one JSON document, too long, or escaped otherwise",
  permissions: "none",
  fn() {
    assert.deepEqual(jsonStringFindings('x {"a": "\\nSECRET"}', secretWords), []);
    assert.deepEqual(jsonStringFindings('{"a": "\\nSECRET"', secretWords), []);
    assert.deepEqual(jsonStringFindings('"\\nSECRET"', secretWords), []);
    // `\u0041` where JSON.stringify writes `A`: not mapped back, so not read.
    assert.deepEqual(jsonStringFindings('{"a": "\\u0041\\nSECRET"}', secretWords), []);
    const long = `{"a": "\\nSECRET${" ".repeat(JSON_MAX_CHARS)}"}`;
    assert.deepEqual(jsonStringFindings(long, secretWords), []);
  },
});

Deno.test({
  name: "redactText() finds a Secret's stringData inside a Write tool's JSON content",
  permissions: "none",
  fn() {
    const manifest = "apiVersion: v1\nkind: Secret\nstringData:\n  DB_USER: ledger_app\n" +
      "  WEBHOOK_HMAC: UyQhVQ4XrjSa8viX77tAJ32FCpmbUVD8cPHQFYjFl63Ub9Uw\n";
    const text = JSON.stringify({ file_path: "k8s/secret.yaml", content: manifest });
    const out = redactText(text).text;
    assert.ok(!out.includes("UyQhVQ4XrjSa8viX77tAJ32FCpmbUVD8cPHQFYjFl63Ub9Uw"), out);
    assert.ok(out.includes("DB_USER: ledger_app"), out);
    assert.deepEqual(JSON.parse(out).file_path, "k8s/secret.yaml");
  },
});
