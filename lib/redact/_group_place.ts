/**
 * Where a named group of a pattern sits, read from the pattern's source, so
 * the engine can find a group's offsets without the `d` flag: with it V8
 * builds an array of offsets for every group of every match, which cost
 * three times the match itself on text dense with matches (1 MiB of
 * `pg_dump --password=`: 51 ms against 17).
 *
 * @module
 */

/** Where every occurrence of one named group sits. */
export interface GroupPlace {
  /** The group occurs in the pattern (once or more). */
  found: boolean;
  /**
   * Some occurrence lies inside a lookahead or lookbehind, so what it
   * captures may lie outside the match.
   */
  inLookaround: boolean;
  /**
   * Every occurrence ends a top-level lookbehind that opens an alternative
   * (`(?<=…(?<head>…))` at the start of the pattern or right after a
   * top-level `|`): what it captures ends where the match starts.
   */
  endsAtMatchStart: boolean;
  /**
   * For each occurrence, a pattern (source) for what follows it to the end
   * of the match (`'` after `'(?<secret>[^']+)'`, empty for a group that
   * ends the match, lookarounds left out), or `undefined` when some
   * occurrence is followed by what cannot be told so (see
   * {@linkcode tailPattern}).
   */
  tails: string[] | undefined;
}

interface Frame {
  /** A lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`). */
  lookaround: boolean;
  /** A positive lookbehind at top level that opens an alternative. */
  leadingLookbehind: boolean;
  /** The group's name, for a named group. */
  name?: string;
}

/**
 * Reads where the named group `name` sits in `source`. Answers
 * conservatively (`inLookaround` true) for syntax it does not follow: the
 * `v` flag's nested classes.
 *
 * @example
 * ```ts
 * groupPlace(String.raw`(?<=(?<head>\d{3}))-\d{4}`, "head");
 * // { found: true, inLookaround: true, endsAtMatchStart: true }
 * ```
 */
export function groupPlace(source: string, name: string, flags = ""): GroupPlace {
  const place: GroupPlace = {
    found: false,
    inLookaround: false,
    endsAtMatchStart: true,
    tails: [],
  };
  if (flags.includes("v")) {
    return { found: true, inLookaround: true, endsAtMatchStart: false, tails: undefined };
  }
  const stack: Frame[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
    } else if (c === "(") {
      const opensAlternative = stack.length === 0 && (i === 0 || source[i - 1] === "|");
      stack.push(openFrame(source, i, opensAlternative));
    } else if (c === ")") {
      const frame = stack.pop();
      if (frame?.name !== name) continue;
      place.found = true;
      if (stack.some((f) => f.lookaround)) place.inLookaround = true;
      const enclosing = stack.at(-1);
      const closesLookbehind = source[i + 1] === ")" && stack.length === 1 &&
        enclosing?.leadingLookbehind === true;
      if (!closesLookbehind) place.endsAtMatchStart = false;
      const tail = tailPattern(source, i + 1, stack.length);
      place.tails = tail === undefined || place.tails === undefined
        ? undefined
        : [...place.tails, tail];
    }
  }
  if (!place.found) [place.endsAtMatchStart, place.tails] = [false, undefined];
  return place;
}

function openFrame(source: string, at: number, opensAlternative: boolean): Frame {
  if (source[at + 1] !== "?") return { lookaround: false, leadingLookbehind: false };
  const kind = source.slice(at + 2, at + 4);
  if (kind === "<=" || kind === "<!") {
    return { lookaround: true, leadingLookbehind: kind === "<=" && opensAlternative };
  }
  if (kind[0] === "=" || kind[0] === "!") return { lookaround: true, leadingLookbehind: false };
  if (kind[0] === "<") {
    const close = source.indexOf(">", at + 3);
    return { lookaround: false, leadingLookbehind: false, name: source.slice(at + 3, close) };
  }
  return { lookaround: false, leadingLookbehind: false };
}

/** Whether `char` starts a quantifier (`*`, `+`, `?`, `{`). */
function quantifies(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && "*+?{".includes(char);
}

/**
 * A pattern (source) for what the part of `source` from `at` on, inside
 * `depth` open groups, matches up to the end of the match, or `undefined`
 * when it cannot tell (a group of its own is quantified, a back-reference).
 * Lookarounds, `^`, `$`, `\b` and `\B` match no text and are left out, so
 * the pattern allows at least what follows: where only one place in a match
 * fits it, that place is certain. An alternative ends its group.
 */
function tailPattern(source: string, at: number, depth: number): string | undefined {
  let tail = "";
  let i = at;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "|") {
      if (depth === 0) return tail;
      i = closingParen(source, i);
      if (i < 0) return undefined;
      continue;
    }
    if (c === ")") {
      if (depth === 0 || quantifies(source[i + 1])) return undefined;
      depth--;
      i++;
      continue;
    }
    if (
      c === "^" || c === "$" || (c === "\\" && (source[i + 1] === "b" || source[i + 1] === "B"))
    ) {
      i += c === "\\" ? 2 : 1;
      continue;
    }
    let end: number;
    if (c === "(") {
      const close = closingParen(source, i + 1);
      if (close < 0) return undefined;
      if (/^\(\?(?:=|!|<=|<!)/.test(source.slice(i, i + 4))) {
        if (quantifies(source[close + 1])) return undefined;
        i = close + 1;
        continue;
      }
      const group = plainGroup(source.slice(i, close + 1));
      if (group === undefined) return undefined;
      tail += group;
      end = close + 1;
    } else if (c === "\\") {
      const escaped = source[i + 1] ?? "";
      if (escaped === "k" || /[1-9]/.test(escaped)) return undefined; // A back-reference.
      end = escapeEnd(source, i);
      tail += source.slice(i, end);
    } else if (c === "[") {
      end = classEnd(source, i);
      if (end < 0) return undefined;
      tail += source.slice(i, end);
    } else if (quantifies(c)) {
      return undefined;
    } else {
      end = i + 1;
      tail += c;
    }
    const quantifier = source.slice(end).match(/^(?:[*+?]|\{\d+(?:,\d*)?\})\??/)?.[0] ?? "";
    tail += quantifier;
    i = end + quantifier.length;
  }
  return depth === 0 ? tail : undefined;
}

/**
 * A group's source with its groups made non-capturing, or `undefined` when
 * it holds something that reads outside the text it matches (a lookaround,
 * `\b`, `^`, `$`) or refers back to a group.
 */
function plainGroup(group: string): string | undefined {
  let out = "";
  let inClass = false;
  for (let i = 0; i < group.length; i++) {
    const c = group[i]!;
    if (c === "\\") {
      const escaped = group[i + 1] ?? "";
      if (!inClass && /[bBk1-9]/.test(escaped)) return undefined;
      out += c + escaped;
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c;
    } else if (c === "[") {
      inClass = true;
      out += c;
    } else if (c === "^" || c === "$") {
      return undefined;
    } else if (c === "(") {
      if (group[i + 1] !== "?") out += "(?:";
      else if (group[i + 2] === "<" && group[i + 3] !== "=" && group[i + 3] !== "!") {
        out += "(?:";
        i = group.indexOf(">", i + 3);
      } else if (group[i + 2] === ":") out += c;
      else return undefined; // A lookaround or a modifier.
    } else out += c;
  }
  return out;
}

/** The offset just past the escape that starts at `at` (`\d`, `\x41`, `\u{1F600}`, `\p{L}`). */
function escapeEnd(source: string, at: number): number {
  const kind = source[at + 1];
  if (kind === "x") return at + 4;
  if (kind === "c") return at + 3;
  if ((kind === "u" || kind === "p" || kind === "P") && source[at + 2] === "{") {
    return source.indexOf("}", at) + 1;
  }
  if (kind === "u") return at + 6;
  return at + 2;
}

/** The offset just past the class `[…]` that starts at `at`, or -1. */
function classEnd(source: string, at: number): number {
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]") return i + 1;
  }
  return -1;
}

/**
 * The offset of the `)` that closes the group open at `from` (at its
 * top level), or -1.
 */
function closingParen(source: string, from: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** A pattern's source with its named groups numbered only, and where each name went. */
export interface UnnamedSource {
  /** The source with every `(?<name>` written `(`: the same groups, by number. */
  source: string;
  /** Each name and the numbers of its groups (several for a name used in several alternatives). */
  names: Array<[name: string, numbers: number[]]>;
}

/**
 * `source` with its named groups made plain numbered groups, and the
 * numbers each name had. V8 builds a `groups` object for every match of a
 * pattern with names, which cost as much as the match itself for the
 * password patterns (one name in four alternatives); the engine builds it
 * from the numbers instead. `undefined` for a pattern that refers back to a
 * group by name (`\k<sep>`) or uses the `v` flag's nested classes.
 *
 * @example
 * ```ts
 * unnameGroups(String.raw`(?<a>x)|(?<a>y)(z)`);
 * // { source: "(x)|(y)(z)", names: [["a", [1, 2]]] }
 * ```
 */
export function unnameGroups(source: string, flags = ""): UnnamedSource | undefined {
  if (flags.includes("v") || source.includes("\\k<")) return undefined;
  // A pattern that names no group needs no reading character by character.
  if (!/\(\?<[^=!]/.test(source)) return { source, names: [] };
  const names = new Map<string, number[]>();
  let out = "";
  let from = 0;
  let groups = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") inClass = true;
    else if (c === "(") {
      if (source[i + 1] !== "?") groups++;
      else if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") {
        groups++;
        const close = source.indexOf(">", i + 3);
        const name = source.slice(i + 3, close);
        names.set(name, [...(names.get(name) ?? []), groups]);
        out += `${source.slice(from, i)}(`;
        from = close + 1;
      }
    }
  }
  return { source: out + source.slice(from), names: [...names] };
}
