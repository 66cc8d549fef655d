/**
 * Runs written with URL or `\/` escapes are also read decoded
 * (`lib/redact/_escaped_runs.ts`): what an escape glued to a value hides is
 * found, and replaced where its escaped form stands.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ESCAPED_MIN_BUDGET, escapedRunFindings } from "../lib/redact/_escaped_runs.ts";
import type { Finding } from "../lib/redact/_engine.ts";
import { redactText } from "../lib/redact/mod.ts";

/** Finds every `SECRET` after a blank, as a rule with a boundary would. */
function spacedSecrets(value: string): Finding[] {
  const found: Finding[] = [];
  for (const m of value.matchAll(/(?<= )SECRET/g)) {
    found.push({
      ruleId: "r",
      metricLabel: "r",
      placeholder: "<R>",
      start: m.index,
      end: m.index + 6,
    });
  }
  return found;
}

Deno.test({
  name: "escapedRunFindings() moves what a decoded run holds to where its escaped form stands",
  permissions: "none",
  fn() {
    const text = "GET /a?x=1&auth=Bearer%20SECRET&y=%2F%20SECRET 200 SECRET";
    const found = escapedRunFindings(text, spacedSecrets);
    assert.deepEqual(found.map((f) => text.slice(f.start, f.end)), ["SECRET", "SECRET"]);
    // The raw text's `SECRET` after a real blank is the raw scan's, not the run's.
    assert.deepEqual(found.map((f) => f.start), [25, 40]);
    // An escaped secret is replaced escaped, whole.
    const escaped = "q=a%20SE%43RET";
    const spans = escapedRunFindings(escaped, spacedSecrets).map((f) =>
      escaped.slice(f.start, f.end)
    );
    assert.deepEqual(spans, ["SE%43RET"]);
  },
});

Deno.test({
  name: "escapedRunFindings() decodes JSON's escaped slashes and leaves other escapes alone",
  permissions: "none",
  fn() {
    const slashes = (value: string): Finding[] =>
      [...value.matchAll(/\/\/h\/s/g)].map((m) => ({
        ruleId: "r",
        metricLabel: "r",
        placeholder: "<R>",
        start: m.index,
        end: m.index + 5,
      }));
    const text = '{"url":"https:\\/\\/h\\/s"}';
    assert.deepEqual(
      escapedRunFindings(text, slashes).map((f) => text.slice(f.start, f.end)),
      ["\\/\\/h\\/s"],
    );
    // A line break (`%0A`) or a byte of UTF-8 (`%C3`) is not decoded: no run to read.
    assert.deepEqual(escapedRunFindings("a=%0A%C3 SECRET", spacedSecrets), []);
  },
});

Deno.test({
  name:
    "escapedRunFindings() decodes a sixteenth of a long text of escapes, and each distinct run once",
  permissions: "none",
  fn() {
    let decoded = 0;
    const counting = (value: string): Finding[] => {
      decoded += value.length;
      return spacedSecrets(value);
    };
    const distinct = Array.from({ length: 100_000 }, (_, i) => `a%20${i}`).join(" ");
    escapedRunFindings(distinct, counting);
    const budget = Math.max(ESCAPED_MIN_BUDGET, distinct.length / 16);
    assert.ok(decoded > budget / 2 && decoded <= budget + 8192, `${decoded} characters decoded`);
    decoded = 0;
    const repeated = "x=a%20SECRET ".repeat(50_000);
    const found = escapedRunFindings(repeated, counting);
    // One run, scanned once, its finding at each of its places.
    assert.equal(decoded, "x=a SECRET".length);
    assert.equal(found.length, 50_000);
    assert.equal(repeated.slice(found[49_999]!.start, found[49_999]!.end), "SECRET");
  },
});

Deno.test({
  name: "redactText() finds a token behind a URL-encoded blank and a webhook written with \\/",
  permissions: "none",
  fn() {
    const key = "sk_test_51eiRagLFHrrA8QXxhWBXgJsberHHI5H25mNS4Nb0ViKgitKHt0oCe";
    const log = `GET /proxy?target=https%3A%2F%2Fapi.stripe.com&auth=Bearer%20${key} 200 31ms`;
    const out = redactText(log).text;
    assert.ok(!out.includes(key), out);
    assert.ok(
      out.startsWith("GET /proxy?target=https%3A%2F%2Fapi.stripe.com&auth=Bearer%20<"),
      out,
    );
    const hook = '{"webhook":"https:\\/\\/hooks.slack.com\\/services\\/T0A1B2C3D4E\\/' +
      'B0F5G6H7I8J\\/lNSOgZgQIjmMSsNulLGaznZr","channel":"#ops"}';
    assert.ok(!redactText(hook).text.includes("lNSOgZgQIjmMSsNulLGaznZr"));
    const form = "body=username%3Dadmin%26password%3DXk9%21mQ2vLp7 HTTP/1.1";
    assert.equal(redactText(form).text, "body=username%3Dadmin%26password%3D<PASSWORD> HTTP/1.1");
    // An ordinary encoded query stays as it is.
    const query = "https://example.com/search?q=hello%20world&page=2&lang=vi%2Den";
    assert.equal(redactText(query).text, query);
  },
});
