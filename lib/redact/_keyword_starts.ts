/**
 * Where keywords start in a long text, found in one pass, for the rules
 * whose every match begins at one of their keywords (`startsAtKeyword`):
 * such a rule's pattern is then tried at those offsets alone. A search of
 * the whole text costs each rule 0.1 to 0.5 ms a MiB even where its pattern
 * starts at a rare literal, and text that holds every rule's keywords (the
 * prefix mix of the worst-case test) runs them all.
 *
 * @module
 */

/**
 * A keyword found more often than once per this many characters is dense:
 * trying a pattern at each of its offsets costs more than one search of
 * the text, so its rules search the whole text.
 */
export const DENSE_KEYWORD_SPACING = 1024;

/** Keywords of three characters or more, grouped by a hash of their first three. */
interface StartIndex {
  /** Group number + 1, by the hash of three characters; 0 for none. */
  byThree: Int32Array;
  /** The keywords of each group. */
  groups: string[][];
}

const HASH_MASK = 0xffff;

function hashThree(a: number, b: number, c: number): number {
  return ((a * 31 + b) * 31 + c) & HASH_MASK;
}

const indexes = new Map<string, StartIndex>();

function startIndex(keywords: readonly string[]): StartIndex {
  const key = keywords.join("\n");
  const known = indexes.get(key);
  if (known !== undefined) return known;
  const index: StartIndex = { byThree: new Int32Array(HASH_MASK + 1), groups: [] };
  for (const keyword of keywords) {
    const hash = hashThree(keyword.charCodeAt(0), keyword.charCodeAt(1), keyword.charCodeAt(2));
    if (index.byThree[hash] === 0) index.byThree[hash] = index.groups.push([]);
    index.groups[index.byThree[hash]! - 1]!.push(keyword);
  }
  indexes.set(key, index);
  return index;
}

/**
 * Records where keywords start while a pass over a lowercase text visits
 * each offset: {@linkcode keywordStarts} makes that pass alone, and the
 * engine's pass that finds which keywords occur makes it for both (text
 * of 256 KiB or more; see `keywordsIn`). Keywords shorter than three
 * characters, and dense ones (see {@linkcode DENSE_KEYWORD_SPACING}), are
 * left out: their rules search the whole text.
 */
export class KeywordStarts {
  /** Offsets of each keyword still recorded, ascending. */
  readonly starts: Map<string, number[]>;
  #lower: string;
  #byThree: Int32Array;
  #left: string[][];
  #most: number;
  #recording: number;

  /** Starts recording `keywords` in `lower`. */
  constructor(lower: string, keywords: Iterable<string>) {
    const long = [...new Set(keywords)].filter((keyword) => keyword.length >= 3).sort();
    const { byThree, groups } = startIndex(long);
    this.#lower = lower;
    this.#byThree = byThree;
    this.#left = groups.map((group) => [...group]);
    this.#most = Math.max(16, Math.floor(lower.length / DENSE_KEYWORD_SPACING));
    this.#recording = long.length;
    this.starts = new Map(long.map((keyword) => [keyword, []]));
  }

  /** Whether some keyword is still recorded: when none is, the pass need not visit on. */
  get recording(): boolean {
    return this.#recording > 0;
  }

  /** Records the keywords that start at `at`, where the text holds `a`, `b`, `c`. */
  visit(at: number, a: number, b: number, c: number): void {
    const group = this.#byThree[hashThree(a, b, c)]!;
    if (group === 0) return;
    const candidates = this.#left[group - 1]!;
    for (let i = candidates.length - 1; i >= 0; i--) {
      const keyword = candidates[i]!;
      if (!this.#lower.startsWith(keyword, at)) continue;
      const offsets = this.starts.get(keyword)!;
      offsets.push(at);
      if (offsets.length > this.#most) {
        this.starts.delete(keyword);
        candidates.splice(i, 1);
        this.#recording--;
      }
    }
  }
}

/**
 * The offsets in `lower` (lowercase text) where each of `keywords` starts,
 * in ascending order, found in one pass (see {@linkcode KeywordStarts}).
 *
 * @example
 * ```ts
 * keywordStarts("a sk-ant- b sk-ant- xoxb-", ["sk-ant-", "xoxb-", "zz"]);
 * // Map { "sk-ant-" => [2, 12], "xoxb-" => [20] }
 * ```
 */
export function keywordStarts(lower: string, keywords: Iterable<string>): Map<string, number[]> {
  const recorder = new KeywordStarts(lower, keywords);
  let a = lower.charCodeAt(0);
  let b = lower.charCodeAt(1);
  for (let at = 0; at + 2 < lower.length && recorder.recording; at++) {
    const c = lower.charCodeAt(at + 2);
    recorder.visit(at, a, b, c);
    a = b;
    b = c;
  }
  return recorder.starts;
}

/**
 * The offsets of `offsets`' lists merged in ascending order, each once:
 * where a rule with those keywords may match.
 */
export function mergedOffsets(offsets: readonly (readonly number[])[]): Int32Array {
  let total = 0;
  for (const list of offsets) total += list.length;
  const merged = new Int32Array(total);
  let at = 0;
  for (const list of offsets) {
    merged.set(list, at);
    at += list.length;
  }
  merged.sort();
  let kept = 0;
  for (let i = 0; i < merged.length; i++) {
    if (i === 0 || merged[i] !== merged[i - 1]) merged[kept++] = merged[i]!;
  }
  return merged.subarray(0, kept);
}
