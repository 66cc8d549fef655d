/**
 * Hashing for rows and the chain: BLAKE3 and RFC 8785 (JCS) canonical JSON
 * (written without recursion by `json.ts`).
 * Only the daemon and the readers import this; the hook sends redacted data
 * and the warm daemon hashes it.
 *
 * @module
 */

import { blake3 } from "@noble/hashes/blake3";
import { stringifyJson } from "./json.ts";

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** BLAKE3 (32 bytes) of a string's UTF-8 bytes or of raw bytes, as lowercase hex. */
export function blake3Hex(data: string | Uint8Array): string {
  const digest = blake3(typeof data === "string" ? encoder.encode(data) : data);
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return hex;
}

/**
 * The RFC 8785 canonical JSON of a value.
 *
 * @throws {TypeError} for values JSON cannot hold (undefined, functions, NaN).
 */
export function canonicalJson(value: unknown): string {
  return stringifyJson(value, { canonical: true });
}
