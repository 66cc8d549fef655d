/**
 * Text from the store or a settings file on its way to a terminal. Any field
 * may hold hostile text (a `tool_name` from an MCP server, a prompt, a path),
 * and an escape sequence printed raw can rewrite the screen, retitle the
 * window or hide lines. `tail` and `status` pass every field through
 * {@linkcode printable} (and `tail --json` through {@linkcode jsonLine}).
 *
 * @module
 */

/** Escape sequences whole: CSI (7-bit and the one-byte C1 form), OSC, DCS/SOS/PM/APC, and two-byte ones. */
const ESCAPE_SEQUENCE =
  // deno-lint-ignore no-control-regex
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?/g;

/** Every control character left (C0, DEL, C1) and the bidi overrides that reorder what is shown. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with escape sequences removed and every other control character
 * (newlines and tabs too: a field is shown on one line) made a space.
 *
 * @example
 * ```ts
 * printable("Bash\x1b[2J\x1b]0;pwned\x07 ok\n"); // "Bash ok "
 * ```
 */
export function printable(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, " ");
}

/**
 * A value as one JSON line that is safe on a terminal: `JSON.stringify`
 * escapes C0 characters already; C1 characters, the line separators and the
 * bidi overrides are written as `\uXXXX` too. The value parses back the same.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
