/**
 * `decodeUtf8` reads exactly what a fatal `TextDecoder` reads, on both of its paths.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ASCII_FAST_PATH_MAX_BYTES, decodeUtf8 } from "../lib/utf8.ts";

function reference(bytes: Uint8Array): string | TypeError {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    return error as TypeError;
  }
}

function decoded(bytes: Uint8Array): string | TypeError {
  try {
    return decodeUtf8(bytes);
  } catch (error) {
    return error as TypeError;
  }
}

function assertSame(bytes: Uint8Array): void {
  const want = reference(bytes);
  const got = decoded(bytes);
  if (want instanceof TypeError) assert.ok(got instanceof TypeError, "must reject");
  else assert.equal(got, want);
}

Deno.test("decodeUtf8: ASCII, UTF-8 text, a BOM and invalid bytes read as TextDecoder reads them", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  assert.equal(decodeUtf8(encode('{"prompt":"hi"}')), '{"prompt":"hi"}');
  assert.equal(decodeUtf8(encode("mật khẩu là 🔑")), "mật khẩu là 🔑");
  assertSame(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  assertSame(new Uint8Array([0x41, 0xff, 0x42]));
  assertSame(new Uint8Array([0xc0, 0x80])); // overlong
  assertSame(new Uint8Array([0xed, 0xa0, 0x80])); // surrogate
  assertSame(new Uint8Array([0x00, 0x7f]));
  assertSame(new Uint8Array(0));
  assert.throws(() => decodeUtf8(new Uint8Array([0x80])), TypeError);
});

Deno.test("decodeUtf8: random bytes either side of the fast path's limit agree with TextDecoder", () => {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (const length of [1, 7, 100, ASCII_FAST_PATH_MAX_BYTES, ASCII_FAST_PATH_MAX_BYTES + 1]) {
    for (let run = 0; run < 20; run++) {
      const bytes = new Uint8Array(length);
      // Mostly ASCII, sometimes one high byte: both paths and both outcomes.
      for (let i = 0; i < length; i++) bytes[i] = Math.floor(random() * 128);
      if (run % 2 === 1) bytes[Math.floor(random() * length)] = 0x80 + Math.floor(random() * 128);
      assertSame(bytes);
    }
  }
});

Deno.test("decodeUtf8: input past the fast path reads as TextDecoder reads it, a real U+FFFD included", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const long = "x".repeat(ASCII_FAST_PATH_MAX_BYTES);
  assert.equal(decodeUtf8(encode(`${long}\uFFFD`)), `${long}\uFFFD`);
  assert.equal(decodeUtf8(encode(`${long}mật khẩu 🔑`)), `${long}mật khẩu 🔑`);
  assertSame(new Uint8Array([0xef, 0xbb, 0xbf, ...encode(long)]));
  const invalid = encode(`${long}ab`);
  invalid[invalid.length - 1] = 0xff;
  assert.throws(() => decodeUtf8(invalid), TypeError);
  const truncated = encode(`${long}🔑`).subarray(0, ASCII_FAST_PATH_MAX_BYTES + 2);
  assert.throws(() => decodeUtf8(truncated), TypeError);
});
