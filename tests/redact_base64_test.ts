/**
 * The redactor's base64 decoder (`lib/redact/_base64.ts`): RFC 4648's test
 * vectors, both alphabets, and `atob`'s answers on random bytes.
 *
 * @module
 */

import assert from "node:assert/strict";
import { decodeBase64 } from "../lib/redact/_base64.ts";

Deno.test({
  name: "decodeBase64() gives RFC 4648's test vectors, padded or not",
  permissions: "none",
  fn() {
    const vectors: Array<[string, string]> = [
      ["", ""],
      ["Zg==", "f"],
      ["Zm8=", "fo"],
      ["Zm9v", "foo"],
      ["Zm9vYg==", "foob"],
      ["Zm9vYmE=", "fooba"],
      ["Zm9vYmFy", "foobar"],
    ];
    for (const [encoded, decoded] of vectors) {
      assert.equal(decodeBase64(encoded), decoded, encoded);
      assert.equal(decodeBase64(encoded.replace(/=+$/, "")), decoded, encoded);
    }
  },
});

Deno.test({
  name:
    "decodeBase64() agrees with atob on random bytes, reads base64url, refuses what is not base64",
  permissions: "none",
  fn() {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) % 256;
    for (let n = 0; n < 200; n++) {
      const bytes = String.fromCharCode(...Array.from({ length: n % 50 }, random));
      const encoded = btoa(bytes);
      assert.equal(decodeBase64(encoded), atob(encoded));
      const url = encoded.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      assert.equal(decodeBase64(url), bytes);
    }
    for (const bad of ["a", "abcde", "ab=c", "ab===", "a b c d", "abc!", "ümlå"]) {
      assert.equal(decodeBase64(bad), undefined, bad);
    }
  },
});
