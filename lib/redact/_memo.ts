/**
 * Bounded memory for checks of one string: text built to be slow repeats the
 * same names and values thousands of times, and each check costs a pattern
 * or a loop over the value.
 *
 * @module
 */

/** Entries kept before the memory is cleared, so it stays small. */
const LIMIT = 1024;

/**
 * `compute`, remembered per argument: up to 1,024 answers, then it forgets
 * all of them and starts again. `compute` must never return `undefined`
 * (one lookup then answers whether it is known).
 *
 * @example
 * ```ts
 * const length = memoize((s: string) => s.length);
 * length("abc"); // 3, computed once
 * ```
 */
export function memoize<V extends NonNullable<unknown>>(
  compute: (key: string) => V,
): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    const found = known.get(key);
    if (found !== undefined) return found;
    if (known.size >= LIMIT) known.clear();
    const value = compute(key);
    known.set(key, value);
    return value;
  };
}

/**
 * `compute`, remembered for the last text it was asked about: a validator asks
 * it for every candidate of one text, and a text dense with candidates read
 * itself whole for each (1 MiB of `set password …`: 16 s). One entry, so a
 * long text is never hashed, only compared with itself. `compute` must
 * never return `undefined`.
 *
 * @example
 * ```ts
 * const hasHeader = perText((text) => /^Key +Value$/m.test(text));
 * hasHeader(text); // computed once for this text
 * ```
 */
export function perText<T>(compute: (text: string) => T): (text: string) => T {
  let last: string | undefined;
  let answer: T | undefined;
  return (text) => {
    if (text !== last || answer === undefined) {
      answer = compute(text);
      last = text;
    }
    return answer;
  };
}
