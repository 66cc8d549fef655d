/**
 * Which pairs of adjacent bytes a text holds, found without a loop over the
 * text in JavaScript: a keyword with a pair of characters the text lacks is
 * not in it, and needs no search of the text. The hook's cold process runs a
 * loop over 64 KB in V8's interpreter (2.5 to 3.8 ms) but sorts it natively
 * (0.6 to 0.9 ms), and text lacks most keywords' pairs: 64 KB of TypeScript
 * holds 330 of them, and leaves 15 of the rules' 497 keywords to search for.
 *
 * @module
 */

const encoder = new TextEncoder();

/** Whether a `Uint16Array` reads two bytes low byte first. */
const LOW_BYTE_FIRST = new Uint16Array(new Uint8Array([1, 0]).buffer)[0] === 1;

/** The pair of bytes `a`, `b` as a `Uint16Array` over them reads it. */
function pairOf(a: number, b: number): number {
  return LOW_BYTE_FIRST ? a | (b << 8) : (a << 8) | b;
}

/**
 * The pairs of adjacent bytes in a text's UTF-8. The work is in functions:
 * V8 compiles a method at its first call in each hook run, and a function
 * ahead, from Deno's code cache (hook/build.ts).
 */
export class BytePairs {
  readonly #seen = new Uint8Array(0x10000);
  /** Whether the text is ASCII alone: its UTF-8 is as long as it is. */
  readonly #ascii: boolean;

  /** Reads the pairs of `text`. */
  constructor(text: string) {
    this.#ascii = markPairs(text, this.#seen);
  }

  /**
   * Whether `keyword` may occur in the text: false when two adjacent
   * characters of it, both ASCII, never stand side by side in the text (a
   * character past U+007F is several bytes in UTF-8, and its pairs are not
   * asked), or when it holds such a character and the text is ASCII alone
   * (a code file holds no `パスワード`).
   */
  mayHold(keyword: string): boolean {
    return mayHoldIn(this.#seen, keyword, this.#ascii);
  }
}

/** Marks the pairs of `text` in `seen`; returns whether the text is ASCII alone. */
function markPairs(text: string, seen: Uint8Array): boolean {
  const bytes = encoder.encode(text);
  const ascii = bytes.length === text.length;
  if (bytes.length < 2) return ascii;
  // Pairs at even offsets, read in place (a fresh encoding starts its buffer), and at odd ones.
  const even = bytes.length & ~1;
  const atEven = bytes.byteOffset % 2 === 0
    ? new Uint16Array(bytes.buffer, bytes.byteOffset, even / 2)
    : new Uint16Array(bytes.slice(0, even).buffer);
  const odd = (bytes.length - 1) & ~1;
  const atOdd = new Uint16Array(odd / 2);
  new Uint8Array(atOdd.buffer).set(bytes.subarray(1, 1 + odd));
  markEach(atEven, seen);
  markEach(atOdd, seen);
  return ascii;
}

/** Marks each distinct value of `pairs`, sorting them and stepping from run to run. */
function markEach(pairs: Uint16Array, seen: Uint8Array): void {
  pairs.sort();
  for (let at = 0; at < pairs.length;) {
    const pair = pairs[at]!;
    seen[pair] = 1;
    // The first offset past this pair's run, by bisection.
    let low = at + 1;
    let high = pairs.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (pairs[middle]! > pair) high = middle;
      else low = middle + 1;
    }
    at = low;
  }
}

function mayHoldIn(seen: Uint8Array, keyword: string, ascii: boolean): boolean {
  let a = keyword.charCodeAt(0);
  if (ascii && a >= 0x80) return false;
  for (let i = 1; i < keyword.length; i++) {
    const b = keyword.charCodeAt(i);
    if (b >= 0x80) {
      if (ascii) return false;
    } else if (a < 0x80 && seen[pairOf(a, b)] === 0) return false;
    a = b;
  }
  return true;
}
