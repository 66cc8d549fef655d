/**
 * JSON text from JSON values without recursion, so a tool argument nested
 * 10,000 deep cannot overflow the stack. With `canonical` it writes RFC 8785
 * (JCS): keys sorted by UTF-16 code units, numbers and strings exactly as
 * ECMAScript's `JSON.stringify` writes them, no whitespace.
 *
 * @module
 */

/** Options for {@linkcode stringifyJson}. */
export interface StringifyJsonOptions {
  /**
   * Write RFC 8785 canonical JSON (sorted keys).
   *
   * @default {false}
   */
  canonical?: boolean;
}

type Frame =
  | { kind: "value"; value: unknown }
  | { kind: "text"; text: string };

/**
 * Serialises a JSON value (objects, arrays, strings, finite numbers,
 * booleans, null). Object members whose value is `undefined` are left out, as
 * `JSON.stringify` does.
 *
 * @throws {TypeError} for a non-finite number or a value JSON cannot hold.
 */
export function stringifyJson(value: unknown, options: StringifyJsonOptions = {}): string {
  const { canonical = false } = options;
  const parts: string[] = [];
  const stack: Frame[] = [{ kind: "value", value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.kind === "text") {
      parts.push(item.text);
      continue;
    }
    const current = item.value;
    if (current === null) parts.push("null");
    else if (typeof current === "string") parts.push(JSON.stringify(current));
    else if (typeof current === "boolean") parts.push(current ? "true" : "false");
    else if (typeof current === "number") {
      if (!Number.isFinite(current)) throw new TypeError(`Cannot serialise ${current} as JSON`);
      parts.push(JSON.stringify(current));
    } else if (Array.isArray(current)) {
      const frames: Frame[] = [{ kind: "text", text: "[" }];
      current.forEach((element, index) => {
        if (index > 0) frames.push({ kind: "text", text: "," });
        frames.push({ kind: "value", value: element === undefined ? null : element });
      });
      frames.push({ kind: "text", text: "]" });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]!);
    } else if (typeof current === "object") {
      const keys = Object.keys(current).filter((key) =>
        (current as Record<string, unknown>)[key] !== undefined
      );
      if (canonical) keys.sort();
      const frames: Frame[] = [{ kind: "text", text: "{" }];
      keys.forEach((key, index) => {
        frames.push({ kind: "text", text: `${index > 0 ? "," : ""}${JSON.stringify(key)}:` });
        frames.push({ kind: "value", value: (current as Record<string, unknown>)[key] });
      });
      frames.push({ kind: "text", text: "}" });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]!);
    } else {
      throw new TypeError(`Cannot serialise a ${typeof current} as JSON`);
    }
  }
  return parts.join("");
}

/**
 * The decimal digits of an integer nanosecond timestamp exactly as JSON writes
 * it (`1764460800123456800`, not the double's exact `…768`), so the store's
 * column, the spool file name and the payload text agree digit for digit.
 *
 * @throws {RangeError} for a negative, fractional or non-finite value.
 */
export function nsDigits(ns: number): string {
  if (!Number.isInteger(ns) || ns < 0 || ns >= 1e21) {
    throw new RangeError(`Cannot use ${ns} as a timestamp: not a non-negative integer below 1e21`);
  }
  return String(ns);
}
