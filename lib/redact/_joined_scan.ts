/**
 * Many short texts read in one scan: the decoded readings (`_escaped_runs.ts`,
 * `_base64_runs.ts`) each hold dozens of runs, and a scan costs a pass of
 * every rule's keywords whatever the text's length (a 4 KB prompt's dozen
 * runs scanned one by one cost more than the prompt).
 *
 * @module
 */

import type { Finding } from "./_engine.ts";

/** A finding in one of the values, at its offsets in that value. */
export interface FindingIn {
  /** Which value it is in. */
  index: number;
  /** The finding, its offsets in `values[index]`. */
  finding: Finding;
}

/**
 * What `scan` finds in each of `values`, scanned as one text, a value a
 * line: sorted by value, then by start. A finding across the line between
 * two values belongs to neither.
 *
 * @example
 * ```ts
 * scanEach(["a SECRET", "b"], scan); // [{ index: 0, finding: { …, start: 2, end: 8 } }]
 * ```
 */
export function scanEach(
  values: readonly string[],
  scan: (value: string) => Finding[],
): FindingIn[] {
  if (values.length === 0) return [];
  const starts: number[] = [];
  let at = 0;
  for (const value of values) {
    starts.push(at);
    at += value.length + 1;
  }
  const out: FindingIn[] = [];
  let index = 0;
  for (const finding of scan(values.join("\n")).sort((a, b) => a.start - b.start)) {
    while (index + 1 < values.length && starts[index + 1]! <= finding.start) index++;
    const start = finding.start - starts[index]!;
    const end = finding.end - starts[index]!;
    if (end > values[index]!.length) continue;
    out.push({ index, finding: { ...finding, start, end } });
  }
  return out;
}
