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
   * For each occurrence, the literal text that always follows it to the
   * end of the match (`'` after `'(?<secret>[^']+)'`, empty for a group that
   * ends the match), or `undefined` when some occurrence is followed by
   * anything else (a class, a quantified part, a group that consumes).
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
      let tail = literalTail(source, i + 1, stack.length);
      // Under `i` a letter also matches its other case: only tails without letters stay literal.
      if (flags.includes("i") && /[^ -@[-`{-~]/.test(tail ?? "")) tail = undefined;
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
 * The literal text that the part of `source` from `at` on, inside `depth`
 * open groups, always matches up to the end of the match, or `undefined`
 * when that part may match anything else. Lookarounds, `^`, `$`, `\b` and
 * `\B` match no text and are skipped; an alternative ends its group.
 */
function literalTail(source: string, at: number, depth: number): string | undefined {
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
    if (c === "(") {
      if (!/^\(\?(?:=|!|<=|<!)/.test(source.slice(i, i + 4))) return undefined;
      const close = closingParen(source, i + 1);
      if (close < 0 || quantifies(source[close + 1])) return undefined;
      i = close + 1;
      continue;
    }
    if (c === "^" || c === "$") {
      i++;
      continue;
    }
    let literal = c;
    if (c === "\\") {
      const escaped = source[i + 1] ?? "";
      if (escaped === "b" || escaped === "B") {
        i += 2;
        continue;
      }
      if (/[\w]/.test(escaped)) return undefined; // A class, a back-reference or a code.
      literal = escaped;
      i++;
    } else if ("[.".includes(c) || quantifies(c)) return undefined;
    if (quantifies(source[i + 1])) return undefined;
    tail += literal;
    i++;
  }
  return depth === 0 ? tail : undefined;
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
