import assert from "node:assert/strict";
import { memoize, perText } from "../lib/redact/_memo.ts";

Deno.test("memoize: computes each key once, and forgets everything past 1,024 keys", () => {
  let calls = 0;
  const length = memoize((key: string) => {
    calls++;
    return key.length;
  });
  assert.equal(length("abc"), 3);
  assert.equal(length("abc"), 3);
  assert.equal(calls, 1);
  for (let i = 0; i < 1024; i++) length(`k${i}`);
  assert.equal(calls, 1025);
  length("abc");
  assert.equal(calls, 1026, "abc was forgotten when the memory filled");
});

Deno.test("perText: asks once per text, and again for another text", () => {
  let calls = 0;
  const hasX = perText((text) => {
    calls++;
    return text.includes("x");
  });
  assert.equal(hasX("axb"), true);
  assert.equal(hasX("axb"), true);
  assert.equal(calls, 1);
  assert.equal(hasX("abc"), false);
  assert.equal(hasX("axb"), true);
  assert.equal(calls, 3);
});
