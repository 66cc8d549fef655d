/**
 * Shape checks for the ids the product passes around: session ids (UUIDs)
 * and 32-hex trace and frame ids. Loops, not patterns: in the hook's cold
 * process compiling a regular expression costs more than the test.
 *
 * @module
 */

/** Whether `value` is a UUID in its 8-4-4-4-12 hex form (any case). */
export function isUuid(value: string): boolean {
  if (value.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!isHexCode(c) && !(c >= 65 && c <= 70)) {
      return false;
    }
  }
  return true;
}

/** Whether `value` is 32 lowercase hex digits. */
export function isHex32(value: string): boolean {
  if (value.length !== 32) return false;
  for (let i = 0; i < 32; i++) if (!isHexCode(value.charCodeAt(i))) return false;
  return true;
}

/** Whether a UTF-16 code is `0`–`9` or `a`–`f`. */
function isHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
}
