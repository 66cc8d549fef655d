/**
 * Text that is one JSON document (a tool's input or output pasted whole, a
 * hook payload given to `redact`) read the way the hook reads a payload:
 * each string decoded, on its own. A string's escapes (`\n`, `\"`) hide
 * shapes that span its lines (a YAML block, a `.pgpass` line, a Secret's
 * `stringData:`), which the raw text's scan cannot see.
 *
 * @module
 */

import type { Finding } from "./_engine.ts";

/** Texts longer than this are not parsed: the raw scan alone reads them. */
export const JSON_MAX_CHARS = 4 * 1024 * 1024;

/** A string whose JSON form differs from its text: it holds a quote, a backslash or a control character. */
// deno-lint-ignore no-control-regex
const ESCAPED = /["\\\u0000-\u001f]/;

/**
 * What `scan` finds in each escaped string of `text` when `text` is one JSON
 * object or array, at the offsets of the string's escaped form in `text`
 * (sorted by start). A string written in `text` with other escapes than
 * `JSON.stringify` makes (`\u00e9`, `\/`) is not mapped back, so not read.
 *
 * @example
 * ```ts
 * jsonStringFindings('{"a": "x\\ny"}', scan); // scan("x\ny")'s findings, moved into the text
 * ```
 */
export function jsonStringFindings(text: string, scan: (value: string) => Finding[]): Finding[] {
  if (text.length > JSON_MAX_CHARS) return [];
  // JSON's own blanks, looked past by hand: a pattern would compile in every hook run.
  let first = 0;
  while (first < text.length && " \t\n\r".includes(text[first]!)) first++;
  if (text[first] !== "{" && text[first] !== "[") return [];
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return [];
  }
  const found: Finding[] = [];
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === "string") {
      if (ESCAPED.test(node)) found.push(...inString(text, node, scan));
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node as Record<string, unknown>)) {
        if (!Array.isArray(node)) stack.push(key);
        stack.push(item);
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Escaped length of `value` inside quotes. */
function escapedLength(value: string): number {
  return JSON.stringify(value).length - 2;
}

/** `scan(value)`'s findings at every place `text` holds `value` escaped as `JSON.stringify` would. */
function inString(text: string, value: string, scan: (value: string) => Finding[]): Finding[] {
  const quoted = JSON.stringify(value);
  let at = text.indexOf(quoted);
  if (at < 0) return [];
  const findings = scan(value);
  if (findings.length === 0) return [];
  const moved: Finding[] = [];
  for (; at >= 0; at = text.indexOf(quoted, at + quoted.length)) {
    for (const f of findings) {
      const start = at + 1 + escapedLength(value.slice(0, f.start));
      moved.push({ ...f, start, end: start + escapedLength(value.slice(f.start, f.end)) });
    }
  }
  return moved;
}
