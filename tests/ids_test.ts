/**
 * The id shape checks accept exactly what their documented patterns accept.
 *
 * @module
 */

import assert from "node:assert/strict";
import { isHex32, isUuid } from "../lib/ids.ts";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX32_PATTERN = /^[0-9a-f]{32}$/;

Deno.test("isUuid and isHex32: examples either side of the line", () => {
  assert.ok(isUuid("5b0c7d1e-2f3a-4b5c-8d6e-7f8091a2b3c4"));
  assert.ok(isUuid("5B0C7D1E-2F3A-4B5C-8D6E-7F8091A2B3C4"));
  assert.ok(!isUuid("5b0c7d1e-2f3a-4b5c-8d6e-7f8091a2b3c"));
  assert.ok(!isUuid("5b0c7d1e-2f3a-4b5c-8d6e_7f8091a2b3c4"));
  assert.ok(!isUuid("../../../../etc/passwd-aaaaaaaaaaaaaa"));
  assert.ok(isHex32("0123456789abcdef0123456789abcdef"));
  assert.ok(!isHex32("0123456789ABCDEF0123456789abcdef"));
  assert.ok(!isHex32("0123456789abcdef0123456789abcde"));
  assert.ok(!isHex32("0123456789abcdef0123456789abcdeg"));
});

Deno.test("isUuid and isHex32 agree with the patterns on random near-misses", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const alphabet = "0123456789abcdefABCDEFg-_ ";
  const mutate = (text: string) => {
    const at = Math.floor(random() * text.length);
    const c = alphabet[Math.floor(random() * alphabet.length)]!;
    return text.slice(0, at) + c + text.slice(at + 1);
  };
  for (let run = 0; run < 2000; run++) {
    const uuid = mutate(mutate("5b0c7d1e-2f3a-4b5c-8d6e-7f8091a2b3c4"));
    assert.equal(isUuid(uuid), UUID_PATTERN.test(uuid), uuid);
    const hex = mutate("0123456789abcdef0123456789abcdef");
    assert.equal(isHex32(hex), HEX32_PATTERN.test(hex), hex);
  }
});
