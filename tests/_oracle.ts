/**
 * Independent oracles for tests: a second, small RFC 8785 (JCS) writer and a
 * BLAKE3 hex digest taken straight from `@noble/hashes`, neither sharing code
 * with `lib/json.ts` or `lib/hash.ts`. Expected hashes in tests come from
 * here (or from published vectors and literal bytes), never from the
 * functions under test. `tests/oracle_test.ts` holds both to published vectors.
 *
 * @module
 */

import { blake3 } from "@noble/hashes/blake3";

/** BLAKE3-256 of a string's UTF-8 bytes (or of bytes), lowercase hex. */
export function oracleBlake3Hex(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return Array.from(blake3(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const SHORT_ESCAPES: Record<number, string> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0c: "\\f",
  0x0d: "\\r",
  0x22: '\\"',
  0x5c: "\\\\",
};

/** A JSON string as RFC 8785 section 3.2.2.2 writes it (lone surrogates as `\uXXXX`). */
function jcsString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    const next = text.charCodeAt(i + 1);
    if (SHORT_ESCAPES[unit] !== undefined) out += SHORT_ESCAPES[unit];
    else if (unit < 0x20) out += `\\u${unit.toString(16).padStart(4, "0")}`;
    else if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += text[i]! + text[i + 1]!;
      i++;
    } else if (isHigh || isLow) out += `\\u${unit.toString(16)}`;
    else out += text[i];
  }
  return out + '"';
}

/** RFC 8785 canonical JSON, recursively (test inputs are shallow). */
export function oracleCanonicalJson(value: unknown): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("not finite");
    // ECMAScript's Number::toString, which RFC 8785 section 3.2.2.3 adopts; -0 is 0.
    return Object.is(value, -0) ? "0" : String(value);
  }
  if (typeof value === "string") return jcsString(value);
  if (Array.isArray(value)) return `[${value.map(oracleCanonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    // Default sort compares UTF-16 code units, as section 3.2.3 requires.
    const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
    return `{${
      keys.map((key) => `${jcsString(key)}:${oracleCanonicalJson(record[key])}`).join(",")
    }}`;
  }
  throw new TypeError(`not JSON: ${typeof value}`);
}
