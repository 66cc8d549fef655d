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

import type { Rule } from "./_engine.ts";

/**
 * A keyword found more often than once per this many characters is dense:
 * trying a pattern at each of its offsets costs more than one search of
 * the text, so its rules search the whole text.
 */
export const DENSE_KEYWORD_SPACING = 1024;

/** Keywords of three characters or more, grouped by a hash of their first three. */
interface StartIndex {
  /** The keywords, sorted. */
  keywords: readonly string[];
  /** Group number + 1, by the hash of three characters; 0 for none. */
  byThree: Int32Array;
  /** The keywords of each group. */
  groups: string[][];
}

/** The hashes' range, less one: the tables hold `HASH_MASK + 1` entries. */
export const HASH_MASK = 0xffff;

/** The hash of three character codes the keyword tables are indexed by (the engine's too). */
export function hashThree(a: number, b: number, c: number): number {
  return ((a * 31 + b) * 31 + c) & HASH_MASK;
}

const indexes = new WeakMap<readonly Rule[], StartIndex>();

/** The keywords of `rules` that say `startsAtKeyword`, indexed once per rule list. */
function startIndex(rules: readonly Rule[]): StartIndex {
  const known = indexes.get(rules);
  if (known !== undefined) return known;
  const keywords = [
    ...new Set(rules.flatMap((rule) => rule.startsAtKeyword ? rule.keywords : [])),
  ].filter((keyword) => keyword.length >= 3).sort();
  const index: StartIndex = { keywords, byThree: new Int32Array(HASH_MASK + 1), groups: [] };
  for (const keyword of keywords) {
    const hash = hashThree(keyword.charCodeAt(0), keyword.charCodeAt(1), keyword.charCodeAt(2));
    if (index.byThree[hash] === 0) index.byThree[hash] = index.groups.push([]);
    index.groups[index.byThree[hash]! - 1]!.push(keyword);
  }
  indexes.set(rules, index);
  return index;
}

/**
 * Records where the keywords of rules that say `startsAtKeyword` start,
 * while the engine's pass that finds which keywords occur visits each
 * offset of a lowercase text (of 256 KiB or more; see `keywordsIn`).
 * Keywords shorter than three characters, and dense ones (see
 * {@linkcode DENSE_KEYWORD_SPACING}), are left out: their rules search the
 * whole text.
 */
export class KeywordStarts {
  /** Offsets of each keyword still recorded, ascending. */
  readonly starts: Map<string, number[]>;
  #lower: string;
  #byThree: Int32Array;
  #left: string[][];
  #most: number;
  #recording: number;

  /** Starts recording, in `lower`, the keywords of `rules` that say `startsAtKeyword`. */
  constructor(lower: string, rules: readonly Rule[]) {
    const { keywords, byThree, groups } = startIndex(rules);
    this.#lower = lower;
    this.#byThree = byThree;
    this.#left = groups.map((group) => [...group]);
    this.#most = Math.max(16, Math.floor(lower.length / DENSE_KEYWORD_SPACING));
    this.#recording = keywords.length;
    this.starts = new Map(keywords.map((keyword) => [keyword, []]));
  }

  /** Whether some keyword is still recorded: when none is, the pass need not visit on. */
  get recording(): boolean {
    return this.#recording > 0;
  }

  /** Records the keywords that start at `at`, whose three characters hash to `three` ({@linkcode hashThree}). */
  visit(at: number, three: number): void {
    const group = this.#byThree[three]!;
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
