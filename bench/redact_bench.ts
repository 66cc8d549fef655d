/**
 * `deno bench bench/redact_bench.ts`: `redactText` on realistic text of 4 KB,
 * 64 KB and 1 MiB (prose and code with a few synthetic secrets), and on the
 * 1 MiB adversarial inputs of issue 3. The 4 KB median must stay under 1 ms.
 *
 * @module
 */

import { redactText } from "../lib/redact/mod.ts";
import { textWithSecrets } from "./_payloads.ts";

const MIB = 1024 * 1024;

const REALISTIC: Array<[string, string]> = [
  ["text 4 KB", textWithSecrets(4096)],
  ["text 64 KB", textWithSecrets(64 * 1024)],
  ["text 1 MiB", textWithSecrets(MIB)],
];

const ADVERSARIAL: Array<[string, string]> = [
  ["a×1M", "a".repeat(MIB)],
  ["digits", "0123456789".repeat(MIB / 10)],
  ["sk- repeated", "sk-".repeat(MIB / 3)],
  ["eyJ repeated", "eyJ".repeat(MIB / 3)],
  ["x@ repeated", "x@".repeat(MIB / 2)],
  ["+84 repeated", "+84 ".repeat(MIB / 4)],
];

for (const [name, text] of REALISTIC) {
  Deno.bench({
    name,
    group: "realistic",
    baseline: name === "text 4 KB",
    fn: () => void redactText(text),
  });
}

const plain = textWithSecrets(MIB);
Deno.bench({
  name: "copy 1 MiB (text.replace)",
  group: "adversarial",
  fn: () => void plain.replace(/e/g, "E"),
});
Deno.bench({
  name: "text 1 MiB",
  group: "adversarial",
  baseline: true,
  fn: () => void redactText(plain),
});
for (const [name, text] of ADVERSARIAL) {
  Deno.bench({ name, group: "adversarial", fn: () => void redactText(text) });
}
