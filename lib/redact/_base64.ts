/**
 * Base64 decoding for the redactor's own reading of encoded runs. A table
 * and a loop: `atob`'s first call costs a cold hook process more than a
 * millisecond (its code is loaded then), and the hook decodes at most a few
 * short runs.
 *
 * @module
 */

/** Each character's six bits, by code; -1 for none. Both alphabets: `+/` and `-_`. */
let sextets: Int8Array | undefined;

/** {@linkcode sextets}, built when first needed: most hook runs decode nothing. */
function sextetTable(): Int8Array {
  if (sextets !== undefined) return sextets;
  const table = new Int8Array(128).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  table[45] = 62; // -
  table[95] = 63; // _
  return sextets = table;
}

/**
 * The bytes `text` encodes in base64 or base64url (padding optional), as a
 * binary string (one character per byte), or `undefined` when it is not
 * base64: a character outside the alphabets, padding inside, or a length
 * no encoding has.
 *
 * @example
 * ```ts
 * decodeBase64("dXNlcjpwdw=="); // "user:pw"
 * decodeBase64("dXNlcjpwdw"); // "user:pw"
 * decodeBase64("not base64!"); // undefined
 * ```
 */
export function decodeBase64(text: string): string | undefined {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (text.length - end > 2 || end % 4 === 1) return undefined;
  const table = sextetTable();
  let out = "";
  let bits = 0;
  let count = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const sextet = code < 128 ? table[code]! : -1;
    if (sextet < 0) return undefined;
    bits = ((bits << 6) | sextet) & 0xffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += String.fromCharCode((bits >> count) & 0xff);
    }
  }
  return out;
}
