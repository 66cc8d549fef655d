/**
 * Base64 runs are also read decoded (`lib/redact/_base64_runs.ts`): a run
 * whose decoded text holds a secret is replaced whole.
 *
 * @module
 */

import assert from "node:assert/strict";
import { BASE64_MAX_TEXT_CHARS, base64RunFindings } from "../lib/redact/_base64_runs.ts";
import type { Finding } from "../lib/redact/_engine.ts";
import { redactText } from "../lib/redact/mod.ts";

/** Finds every `SECRET`, as a rule would. */
function secretWords(value: string): Finding[] {
  return [...value.matchAll(/SECRET/g)].map((m) => ({
    ruleId: "r",
    metricLabel: "r",
    placeholder: "<R>",
    start: m.index,
    end: m.index + 6,
  }));
}

/** `value` in base64url, as UTF-8. */
function encoded(value: string, url = false): string {
  const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(value)));
  return url ? b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : b64;
}

Deno.test({
  name: "base64RunFindings() replaces a run whole where its decoded text holds what scan finds",
  permissions: "none",
  fn() {
    const holding = encoded("token: SECRET and more text to pass 32");
    const plain = encoded("nothing to see in this decoded line here");
    const text = `A: ${holding}\nB: ${plain}\nC: ${
      encoded("x SECRET y — ünïcode ok, SECRET twice", true)
    }`;
    const spans = base64RunFindings(text, secretWords).map((f) => text.slice(f.start, f.end));
    assert.deepEqual(spans, [holding, encoded("x SECRET y — ünïcode ok, SECRET twice", true)]);
  },
});

Deno.test({
  name: "base64RunFindings() skips binary, short runs, runs inside longer ones, and long texts",
  permissions: "none",
  fn() {
    const binary = btoa(
      String.fromCharCode(...Array.from({ length: 48 }, (_, i) => (i * 37) % 256)),
    );
    assert.deepEqual(base64RunFindings(`k: ${binary}`, secretWords), []);
    assert.deepEqual(base64RunFindings(`k: ${encoded("SECRET")}`, secretWords), []);
    const inside = `x.${encoded("a SECRET inside a longer token, decoded")}`;
    assert.equal(base64RunFindings(inside, secretWords).length, 1);
    assert.deepEqual(base64RunFindings(`Z${inside}`.replace(".", "9"), secretWords), []);
    const long = `k: ${encoded("token: SECRET and more text to pass 32")} ${
      "x".repeat(BASE64_MAX_TEXT_CHARS)
    }`;
    assert.deepEqual(base64RunFindings(long, secretWords), []);
  },
});

Deno.test({
  name: "base64RunFindings() does not read a run the rules replace already",
  permissions: "none",
  fn() {
    const run = encoded("token: SECRET and more text to pass 32");
    const text = `A: ${run}`;
    let scans = 0;
    const counting = (value: string): Finding[] => {
      scans++;
      return secretWords(value);
    };
    const replaced = [{ ruleId: "r", metricLabel: "r", placeholder: "<R>", start: 5, end: 9 }];
    assert.deepEqual(base64RunFindings(text, counting, replaced), []);
    assert.equal(scans, 0);
    assert.equal(base64RunFindings(text, counting).length, 1);
  },
});

Deno.test({
  name: "base64RunFindings() replaces a run that decodes to a name and a random secret",
  permissions: "none",
  fn() {
    const pair = encoded("bUHigTVCWqxqCwqU1NAA:HXfP8lsbgSxktZsQE5BDIQ");
    const text = `"encoded": "${pair}", "label": "${encoded("kind:Deployment, not random")}"`;
    const found = base64RunFindings(text, () => []);
    assert.deepEqual(found.map((f) => [text.slice(f.start, f.end), f.placeholder]), [[
      pair,
      "<BASIC_AUTH>",
    ]]);
  },
});

Deno.test({
  name: "redactText() replaces a base64 kubeconfig whose token is a secret, and keeps CA data",
  permissions: "none",
  fn() {
    const kubeconfig = "apiVersion: v1\nusers:\n- name: deployer\n  user:\n" +
      "    token: eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50In0.c2lnbmF0dXJlX2J5dGVz\n";
    const text = `env:\n  KUBE_CONFIG_DATA: ${encoded(kubeconfig)}\n`;
    const out = redactText(text).text;
    assert.ok(!out.includes(encoded(kubeconfig)), out);
    assert.ok(out.startsWith("env:\n  KUBE_CONFIG_DATA: <"), out);
    const ca = `certificate-authority-data: ${
      btoa(String.fromCharCode(...Array.from({ length: 96 }, (_, i) => (i * 53 + 7) % 256)))
    }`;
    assert.equal(redactText(ca).text, ca);
  },
});
