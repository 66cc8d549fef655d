/**
 * `JSON.parse` whose error never quotes the input. V8's messages echo the
 * text around the fault (`Unexpected token 'h', "hunter2-sk"... is not valid
 * JSON`), and a log line is no place for a secret from stdin: the error keeps
 * the position only.
 *
 * @module
 */

/**
 * Parses JSON text; on failure throws a `SyntaxError` that names `what` and
 * the position, never the text.
 *
 * @example
 * ```ts
 * parseJsonQuietly('{"k": sk-live', "stdin"); // throws: Cannot parse stdin: not JSON at position 6
 * ```
 */
export function parseJsonQuietly(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    const position = /\bat position (\d+)/.exec(message)?.[1];
    const detail = position !== undefined
      ? `not JSON at position ${position}`
      : message.includes("end of JSON input")
      ? "not JSON: it ends too early"
      : "not JSON";
    throw new SyntaxError(`Cannot parse ${what}: ${detail}`);
  }
}
