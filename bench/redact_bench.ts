/**
 * `deno bench bench/redact_bench.ts`: `redactText` on realistic text of 4 KB,
 * 64 KB and 1 MiB (prose and code with a few synthetic secrets), and on the
 * 1 MiB adversarial inputs of issue 3. The 4 KB median must stay under 1 ms.
 *
 * @module
 */

import { redactText } from "../lib/redact/mod.ts";
import { adversarialInputs, realisticInputs, textWithSecrets } from "./_payloads.ts";

const REALISTIC = realisticInputs();
const ADVERSARIAL = adversarialInputs();

for (const [name, text] of REALISTIC) {
  Deno.bench({
    name,
    group: "realistic",
    baseline: name === "text 4 KB",
    fn: () => void redactText(text),
  });
}

const plain = textWithSecrets(1024 * 1024);
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
