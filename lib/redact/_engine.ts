/**
 * The redaction engine. It runs fixed steps and can say why:
 *
 * 1. one lowercase pass over the text, then each rule's keywords are looked
 *    up in it (in a long text only those whose pairs of characters it holds,
 *    see {@linkcode BytePairs}; in a very long one all at once, see
 *    {@linkcode keywordsIn}), and
 *    its optional precheck (a cheap necessary
 *    condition over {@linkcode TextFacts}) is asked, so only rules that could
 *    match run at all: in a short-lived process compiling a pattern costs far
 *    more than scanning with it;
 * 2. each remaining rule's pattern yields candidate spans (the `secret` named
 *    group when the rule has one, else the whole match);
 * 3. validators and then allowlists may reject a candidate, with a reason
 *    (rules run from the highest priority down, and a candidate whose very
 *    span a rule of higher priority kept is not judged: it cannot win it);
 * 4. overlaps are resolved: higher priority (more specific) wins, then the
 *    longer span, then the earlier one;
 * 5. every surviving span is replaced by its rule's placeholder in one pass,
 *    so no rule ever sees another's placeholder.
 *
 * Patterns are written for V8's backtracking engine to stay linear: every
 * unbounded run is anchored by a lookbehind that stops a new attempt inside
 * the same run, and a rejected candidate is never retried from a later
 * offset inside it.
 *
 * @module
 */

import { BytePairs } from "./_byte_pairs.ts";
import {
  DENSE_KEYWORD_SPACING,
  HASH_MASK,
  hashThree,
  KeywordStarts,
  mergedOffsets,
} from "./_keyword_starts.ts";
import { decodeBase64 } from "./_base64.ts";
import { groupPlace, unnameGroups } from "./_group_place.ts";
import { isAsciiLetter, isWordOrHyphen } from "./_validators.ts";

/** What a validator sees of one candidate. */
export interface Candidate {
  /** The whole text being redacted. */
  text: string;
  /** The span that would be replaced. */
  secret: string;
  /** Offset of the secret in `text`. */
  start: number;
  /** Offset just past the secret. */
  end: number;
  /** The whole regular-expression match (may be wider than the secret). */
  match: string;
  /** Offset of the whole match in `text`. */
  matchStart: number;
  /** Named groups of the match. */
  groups: Readonly<Record<string, string | undefined>>;
  /** The caller's options. */
  options: EngineOptions;
}

/** A check on a candidate: the reason to reject it, or `undefined` to keep it. */
export type Validator = (candidate: Candidate) => string | undefined;

/** One redaction rule, as data. */
export interface Rule {
  /** Stable snake_case id, named in `--explain` and the rule catalogue. */
  id: string;
  /**
   * What its replacements count under in `counts` and in the metric
   * `memory_claude_hook_redactions_total{pattern=…}`: the spec's pattern
   * name where the spec names one (several rules may share it, as the three
   * phone formats share `phone`). The id when omitted.
   */
  metricLabel?: string;
  /** What the rule finds, for reviewers. */
  description: string;
  /** The replacement, naming the type (e.g. `<AWS_KEY>`). */
  placeholder: string;
  /**
   * Lowercase strings of which at least one must occur in the text for the
   * rule to run; empty means the rule always runs.
   */
  keywords: readonly string[];
  /**
   * A cheap necessary condition, asked after the keywords: when it returns
   * `false`, no candidate of this rule could survive its validators, so the
   * pattern is never compiled or run. Must not change what is redacted.
   */
  precheck?: (facts: TextFacts) => boolean;
  /**
   * Ask the precheck before the keywords. For a precheck that reads a fact
   * every text computes anyway, when it spares many keyword scans (each one a
   * pass over the whole text). Never changes what is redacted.
   */
  precheckFirst?: boolean;
  /**
   * Makes the pattern, which must carry the `g` and `d` flags. A function, so
   * that loading the rules creates no regular expression: creating all of
   * them cost 0.4 ms of every hook run, and most rules are skipped by their
   * keywords.
   */
  pattern: () => RegExp;
  /**
   * Every match of the pattern begins where one of the keywords begins (in
   * any case). In a long text the engine then tries the pattern at those
   * offsets alone (see {@linkcode KeywordStarts}); a test holds each rule
   * that says so to it, on its samples, the development corpora and the
   * prefix mix.
   */
  startsAtKeyword?: boolean;
  /** Name of the group holding the secret; the whole match when omitted. */
  secretGroup?: string;
  /**
   * Name of a group, inside a leading lookbehind, where the secret starts; it
   * then ends with the match (the whole match where the group took no part). Lets a pattern start at a rare literal (the `@`
   * of an address) and look back for the rest: V8 skips ahead to a leading
   * literal, where a leading character class makes it try every offset (a
   * 64 KB text: 0.3 ms instead of 1 ms).
   */
  secretFrom?: string;
  /** Specificity: on overlap the higher priority wins. */
  priority: number;
  /** Checks run in order; the first reason given rejects the candidate. */
  validators: readonly Validator[];
  /** Secrets matching any of these are kept (documented examples, templates). */
  allowlist: readonly RegExp[];
  /** Synthetic strings the rule must redact. */
  truePositives: readonly string[];
  /** Synthetic strings that must come back unchanged. */
  falsePositives: readonly string[];
}

/** Options the engine passes through to validators. */
export interface EngineOptions {
  /** E-mail domains whose addresses are kept. */
  allowEmailDomains?: readonly string[];
  /**
   * A `performance.now()` time after which redaction gives up with a
   * {@linkcode RedactionTimeoutError} rather than run on: the hook must
   * finish before Claude Code kills it, and a row without content (fail
   * closed) beats no row.
   *
   * @default {Infinity}
   */
  deadline?: number;
  /**
   * Search the whole text with every pattern, never only where a rule's
   * keywords start ({@linkcode Rule.startsAtKeyword}): what tests compare
   * the faster search with.
   */
  everyOffset?: boolean;
}

/** Redaction ran past its {@linkcode EngineOptions.deadline}. */
export class RedactionTimeoutError extends RangeError {
  /** Makes the error; the message names no content. */
  constructor() {
    super("Cannot redact: the text took longer than the time budget allows");
    this.name = "RedactionTimeoutError";
  }
}

/** Throws when `deadline` has passed. */
function checkDeadline(deadline: number | undefined): void {
  if (deadline !== undefined && performance.now() > deadline) throw new RedactionTimeoutError();
}

/** A span that will be replaced. */
export interface Finding {
  /** The rule that found it. */
  ruleId: string;
  /** The rule's metric label (its id unless it names another). */
  metricLabel: string;
  /** Its replacement. */
  placeholder: string;
  /** Offset in the original text. */
  start: number;
  /** Offset just past the span. */
  end: number;
}

/** A candidate that was not replaced, and why. */
export interface Rejection {
  /** The rule that proposed it. */
  ruleId: string;
  /** Offset in the original text. */
  start: number;
  /** Offset just past the span. */
  end: number;
  /** Why it was rejected (validator, allowlist or overlap). */
  reason: string;
}

/** What one scan found. */
export interface ScanResult {
  /** Accepted spans, sorted by offset, never overlapping. */
  findings: Finding[];
  /** Rejected candidates (filled only when asked for). */
  rejections: Rejection[];
}

/** Options for {@linkcode scanText}. */
export interface ScanOptions extends EngineOptions {
  /**
   * Collect rejected candidates with their reasons (for `--explain`).
   *
   * @default {false}
   */
  explain?: boolean;
  /**
   * Find keywords in one pass ({@linkcode keywordsIn}) in a text of
   * {@linkcode WARM_INDEXED_MIN_CHARS} or more (`true`), or only in one of
   * {@linkcode INDEXED_MIN_CHARS} (`false`), whatever the process scanned
   * before: what tests compare the two with. Changes no result.
   *
   * @default {whether the process has scanned {@linkcode WARM_AFTER_CHARS}}
   */
  onePassKeywords?: boolean;
}

/**
 * Facts about one text for rule prechecks, each computed at most once and
 * only when first asked for.
 */
export class TextFacts {
  /** The text being redacted. */
  readonly text: string;
  /** The text, lowercased. */
  readonly lower: string;
  #digits = -1;

  /** Wraps one text (and its lowercase form). */
  constructor(text: string, lower: string = text.toLowerCase()) {
    this.text = text;
    this.lower = lower;
  }

  /**
   * Whether `prefix` starts a word somewhere in the text: occurs after
   * neither a letter, digit, `_` nor `-` (what `(?<![\w-])prefix` asks).
   * Case-sensitive, as the patterns that ask it are.
   */
  startsWord(prefix: string): boolean {
    return startsWordIn(this.text, prefix);
  }

  /**
   * Whether `word` (lowercase) may stand alone in the text: occurs, in any
   * case, with no ASCII letter right before or after it (what
   * `(?<![A-Za-z])word(?![A-Za-z])` with the `i` flag asks). Always true when
   * lowercasing changed the text's length, since the offsets then differ.
   */
  mayHaveWord(word: string): boolean {
    return mayHaveWordIn(this.text, this.lower, word);
  }

  /**
   * Digits in the longest cluster of digits joined by at most two of
   * ` .()-`, capped at 13, or 0 when no cluster has 8 digits. Every phone
   * number, card number and 12-digit id lies inside one such cluster.
   */
  digitCluster(): number {
    return this.#digits >= 0 ? this.#digits : (this.#digits = longestDigitCluster(this.text));
  }
}

// The methods' work, in functions: V8 compiles a method at its first call in
// each hook run, and a function ahead, from Deno's code cache (hook/build.ts).

function startsWordIn(text: string, prefix: string): boolean {
  for (let at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
    if (at === 0 || !isWordOrHyphen(text.charCodeAt(at - 1))) return true;
  }
  return false;
}

function mayHaveWordIn(text: string, lower: string, word: string): boolean {
  if (lower.length !== text.length) return true;
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + word.length);
    if (!isAsciiLetter(before) && !isAsciiLetter(after)) return true;
    if (isAsciiLetter(after)) {
      // Inside a word: the next one stands alone only past this word's end (`pw` repeated).
      LETTERS.lastIndex = at + word.length;
      LETTERS.test(lower);
      at = LETTERS.lastIndex - 1;
    }
  }
  return false;
}

/**
 * Digits in the longest cluster of `text` (see {@linkcode TextFacts.digitCluster}),
 * for a validator, which sees the text but not its facts.
 */
export function longestDigitCluster(text: string): number {
  let best = 0;
  // 8 to 13 digits joined by at most two separators; bounded, so linear.
  const cluster = /\d(?:[ .()-]{0,2}\d){7}(?:[ .()-]{0,2}\d){0,5}/g;
  let m: RegExpExecArray | null;
  while (best < 13 && (m = cluster.exec(text)) !== null) {
    let n = 0;
    const s = m[0];
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 48 && c <= 57) n++;
    }
    if (n > best) best = n;
  }
  return best;
}

/** A run of ASCII letters (the text lowercased), sticky: where a word ends. */
const LETTERS = /[a-z]*/y;

/**
 * Texts this long remember which keywords they hold. A shorter one is
 * searched again for a keyword that several rules share: 100 searches of
 * the short texts of a tool call cost less than remembering 500 (0.07 ms a
 * text less in the hook's cold process).
 */
export const MEMO_MIN_CHARS = 2048;

/**
 * Texts this long rule keywords out by their pairs of characters
 * ({@linkcode BytePairs}) before searching for them: a 64 KB tool input in
 * the hook's cold process took 3.3 to 4.8 ms to search for every keyword
 * (from its rarest character on), and 1.2 to find its pairs (0.6 to 0.9 of
 * it sorting) and search for the 15 keywords they leave. Finding the pairs
 * costs about 0.4 ms whatever the length, and the 634 searches 0.3 ms a KB:
 * a 4 KB prompt's redaction took 0.4 ms less with pairs, a 1 KB message's
 * no less.
 */
export const PAIRED_MIN_CHARS = 2048;

/**
 * Texts this long find all keywords in one pass ({@linkcode keywordsIn}):
 * there a `String.includes` per keyword, hundreds of scans of the whole
 * text, cost most of the time, and text built from one keyword's
 * characters made each scan slow (1 MiB of `sk-`: 91 ms, 19 ms in one
 * pass). The pass is a loop in JavaScript, which the hook's cold process
 * runs slowly at first (about 7 ms before it is compiled), so shorter
 * texts, where the scans cost less, take them. Measured in a cold process
 * with the hook's V8 flags: 256 KiB of prose 9 ms in one pass against 6
 * with scans, 1 MiB 15 against 23, 1 MiB of `pg_dump --password=` 31
 * against 56.
 */
export const INDEXED_MIN_CHARS = 256 * 1024;

/**
 * Characters a process scans before it counts as long-lived: from then on
 * texts of {@linkcode WARM_INDEXED_MIN_CHARS} or more find their keywords
 * in one pass too. The hook's short process runs the pass slowly (it is
 * interpreted, see {@linkcode INDEXED_MIN_CHARS}) and scans at most a
 * payload; a process that redacts text after text (the `redact` command, a
 * benchmark) soon has the pass compiled, and then a 4 KB text's keywords
 * took 0.03 ms in one pass against 0.65 ms in 620 scans.
 */
export const WARM_AFTER_CHARS = 1024 * 1024;

/** In a long-lived process, texts this long find their keywords in one pass (see {@linkcode WARM_AFTER_CHARS}). */
export const WARM_INDEXED_MIN_CHARS = 128;

/** Characters this process has scanned, up to {@linkcode WARM_AFTER_CHARS}. */
let scannedChars = 0;

/** Whether a text of `length` characters finds its keywords in one pass ({@linkcode keywordsIn}). */
function findsKeywordsInOnePass(length: number, options: ScanOptions): boolean {
  const warm = options.onePassKeywords ?? scannedChars >= WARM_AFTER_CHARS;
  if (scannedChars < WARM_AFTER_CHARS) scannedChars += length;
  return length >= INDEXED_MIN_CHARS || (warm && length >= WARM_INDEXED_MIN_CHARS);
}

/** Keywords of a rule list, grouped for {@linkcode keywordsIn}. */
interface KeywordIndex {
  /** Keywords of one character, looked up with `includes`. */
  singles: string[];
  /** Groups of keywords that share a hash of their first two or three characters. */
  groups: string[][];
  /** Group number + 1 of two-character keywords, by the hash of their characters. */
  byTwo: Int32Array;
  /** Group number + 1 of longer keywords, by the hash of their first three characters. */
  byThree: Int32Array;
  /**
   * By the hash of two characters: 1 when a two-character keyword may be
   * those, plus 2 when a longer keyword may start with them. Most offsets of
   * prose start no keyword, and this one lookup tells.
   */
  starts: Uint8Array;
}

const indexes = new WeakMap<readonly Rule[], KeywordIndex>();

function hashTwo(a: number, b: number): number {
  return (a * 31 + b) & HASH_MASK;
}

function keywordIndex(rules: readonly Rule[]): KeywordIndex {
  const known = indexes.get(rules);
  if (known !== undefined) return known;
  const built: KeywordIndex = {
    singles: [],
    groups: [],
    byTwo: new Int32Array(HASH_MASK + 1),
    byThree: new Int32Array(HASH_MASK + 1),
    starts: new Uint8Array(HASH_MASK + 1),
  };
  const add = (table: Int32Array, hash: number, keyword: string) => {
    if (table[hash] === 0) table[hash] = built.groups.push([]);
    built.groups[table[hash]! - 1]!.push(keyword);
  };
  for (const keyword of new Set(rules.flatMap((rule) => rule.keywords))) {
    const [a, b, c] = [0, 1, 2].map((i) => keyword.charCodeAt(i)) as [number, number, number];
    if (keyword.length < 2) built.singles.push(keyword);
    else if (keyword.length === 2) {
      add(built.byTwo, hashTwo(a, b), keyword);
      built.starts[hashTwo(a, b)]! |= 1;
    } else {
      add(built.byThree, hashThree(a, b, c), keyword);
      built.starts[hashTwo(a, b)]! |= 2;
    }
  }
  indexes.set(rules, built);
  return built;
}

/**
 * Offsets at which one group's keywords are compared before the rest of the
 * text may be searched for them with `includes` instead: text dense with a
 * group's first characters but without its keywords (1 MiB of `passwrd: `
 * and the `password` keywords) compared them at every occurrence, a sixth
 * of the time of its redaction.
 */
export const GROUP_COMPARISONS = 64;

/**
 * A group compared more often than once per this many characters is dense
 * (see {@linkcode GROUP_COMPARISONS}). In prose a group's first characters
 * are seldom this close, and searching the rest of a long text once for
 * each of its keywords costs more than comparing them where they may start.
 */
const DENSE_GROUP_SPACING = 64;

/**
 * The keywords of `rules` that occur in `lower`, found in one pass: at each
 * offset a table indexed by a hash of the next two characters says whether
 * some keyword may start there; where one may, two tables indexed by a hash
 * of the next two and three characters name the group of keywords to
 * compare. A group whose keywords are all found is skipped
 * from then on, and so is a dense one compared at
 * {@linkcode GROUP_COMPARISONS} offsets, once the rest of the text is
 * searched for what it has left; the pass stops when no group is left,
 * and `recorder`, when given, records no keyword any more.
 */
export function keywordsIn(
  lower: string,
  rules: readonly Rule[],
  recorder?: KeywordStarts,
): Set<string> {
  const index = keywordIndex(rules);
  const found = new Set<string>();
  for (const keyword of index.singles) if (lower.includes(keyword)) found.add(keyword);
  // Each group's keywords not found yet: text dense with one group's first
  // characters compared the found ones again at every offset.
  const left = index.groups.map((group) => [...group]);
  const compared = new Int32Array(left.length);
  let groupsLeft = index.groups.length;
  const { byTwo, byThree, starts } = index;
  let b = lower.charCodeAt(0);
  for (let at = 0; at < lower.length - 1 && (groupsLeft > 0 || recorder?.recording); at++) {
    const a = b;
    b = lower.charCodeAt(at + 1);
    // The hash of the next three characters, when the recorder or a group asks it.
    let three = -1;
    if (recorder !== undefined && at + 2 < lower.length) {
      three = hashThree(a, b, lower.charCodeAt(at + 2));
      recorder.visit(at, three);
    }
    const pair = hashTwo(a, b);
    const start = starts[pair]!;
    if (start === 0) continue;
    if (start & 1) groupsLeft -= lookAt(lower, at, byTwo[pair]!, left, compared, found);
    if (start & 2) {
      if (three < 0) three = hashThree(a, b, lower.charCodeAt(at + 2));
      groupsLeft -= lookAt(lower, at, byThree[three]!, left, compared, found);
    }
  }
  return found;
}

/**
 * Moves the keywords of group number `group` (+ 1; 0 for none) that start
 * at `at` to `found`, or, once the group is dense, those that occur from
 * `at` on; 1 when that leaves the group empty, else 0.
 */
function lookAt(
  lower: string,
  at: number,
  group: number,
  left: string[][],
  compared: Int32Array,
  found: Set<string>,
): number {
  if (group === 0) return 0;
  const keywords = left[group - 1]!;
  if (keywords.length === 0) return 0;
  const times = ++compared[group - 1]!;
  if (times <= GROUP_COMPARISONS || times * DENSE_GROUP_SPACING < at) {
    return matchAt(lower, at, keywords, found);
  }
  for (const keyword of keywords) if (lower.includes(keyword, at)) found.add(keyword);
  keywords.length = 0;
  return 1;
}

/**
 * Moves the keywords of `left` that start at `at` to `found`; 1 when that
 * leaves `left` empty, else 0.
 */
function matchAt(lower: string, at: number, left: string[], found: Set<string>): number {
  for (let i = left.length - 1; i >= 0; i--) {
    const keyword = left[i]!;
    if (!lower.startsWith(keyword, at)) continue;
    found.add(keyword);
    left.splice(i, 1);
    if (left.length === 0) return 1;
  }
  return 0;
}

interface Ranked extends Finding {
  priority: number;
}

/**
 * Finds every span the rules would replace, resolving overlaps so that the
 * most specific rule wins.
 */
export function scanText(
  text: string,
  rules: readonly Rule[],
  options: ScanOptions = {},
): ScanResult {
  const { explain = false, onePassKeywords: _, ...engineOptions } = options;
  const rejections: Rejection[] = [];
  const candidates: Ranked[] = [];
  const facts = new TextFacts(text);
  const lower = facts.lower;
  // In a long text, where the keywords of rules that match only there start, in the same pass.
  const starts = lower.length >= INDEXED_MIN_CHARS && lower.length === text.length &&
      !engineOptions.everyOffset
    ? new KeywordStarts(lower, rules)
    : undefined;
  const indexed = findsKeywordsInOnePass(lower.length, options)
    ? keywordsIn(lower, rules, starts)
    : undefined;
  const pairs = indexed === undefined && lower.length >= PAIRED_MIN_CHARS
    ? new BytePairs(lower)
    : undefined;
  // Rules share keywords (`secret`, `pass`, `sk-ant-`…); in all but a short text each is
  // looked up once.
  const seen = new Map<string, boolean>();
  const occurs = (keyword: string): boolean => {
    if (indexed !== undefined) return indexed.has(keyword);
    if (lower.length < MEMO_MIN_CHARS) return lower.includes(keyword);
    let found = seen.get(keyword);
    if (found === undefined) {
      found = (pairs === undefined || pairs.mayHold(keyword)) && lower.includes(keyword);
      seen.set(keyword, found);
    }
    return found;
  };
  const keyed = (rule: Rule): boolean => rule.keywords.length === 0 || rule.keywords.some(occurs);
  const prechecked = (rule: Rule): boolean => rule.precheck === undefined || rule.precheck(facts);
  // Spans already kept, with the highest priority that kept each: a rule of lower priority
  // proposing the very same span cannot win it (see {@linkcode collect}). Not when explaining:
  // then every candidate is judged and its reason given.
  const claimed = explain ? undefined : new Map<number, number>();
  const offsetsOf = (rule: Rule): Int32Array | undefined => {
    if (!rule.startsAtKeyword || starts === undefined || rule.keywords.length === 0) {
      return undefined;
    }
    const lists: number[][] = [];
    let total = 0;
    for (const keyword of rule.keywords) {
      const list = starts.starts.get(keyword);
      // A short or dense keyword: the whole text is searched.
      if (list === undefined) return undefined;
      lists.push(list);
      total += list.length;
    }
    return total * DENSE_KEYWORD_SPACING > lower.length ? undefined : mergedOffsets(lists);
  };
  // Only the rules whose keywords occur and whose precheck passes are read any further: in the
  // hook's bundle a rule is built at its first read past those (`hook/build.ts`), so the others
  // cost nothing.
  const runnable: Rule[] = [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    // Asked of the clock only now and then: each asking costs the hook's cold process 1 µs.
    if (i % DEADLINE_EVERY_RULES === 0) checkDeadline(engineOptions.deadline);
    const runs = rule.precheckFirst
      ? prechecked(rule) && keyed(rule)
      : keyed(rule) && prechecked(rule);
    if (runs) runnable.push(rule);
  }
  const ordered = inPriorityOrder(runnable);
  const lowest = ordered.at(-1)?.priority ?? 0;
  for (const rule of ordered) {
    checkDeadline(engineOptions.deadline);
    collect(
      text,
      rule,
      engineOptions,
      candidates,
      explain ? rejections : undefined,
      claimed,
      lowest,
      offsetsOf(rule),
    );
  }
  const findings = resolveOverlaps(candidates, explain ? rejections : undefined);
  checkDeadline(engineOptions.deadline);
  return { findings, rejections };
}

/** Shortest secret whose other occurrences {@linkcode withEchoes} replaces too. */
export const ECHO_MIN_CHARS = 8;

/** Longest such secret: a longer span (a `<private>` block, a key file) is its own context. */
const ECHO_MAX_CHARS = 512;

/**
 * Texts with more distinct secrets than this, or more findings than
 * {@linkcode ECHO_MAX_FINDINGS}, get no echoes: each secret is one search of
 * the whole text, and text dense with secrets holds thousands (1 MiB of
 * `passwrd: ` repeated: one value, 58,000 findings, as many echoes).
 */
export const ECHO_MAX_SECRETS = 32;

/** See {@linkcode ECHO_MAX_SECRETS}. */
export const ECHO_MAX_FINDINGS = 1024;

/** Whether the code is an ASCII letter or digit. */
function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || isAsciiLetter(code);
}

/**
 * `findings` (sorted, disjoint) with every other occurrence of a secret they
 * replace, as a whole token, replaced the same way: a password found where
 * it is set is gone where the assistant quotes it back, an SSN found beside
 * its label is gone in the test diff below. Only secrets of
 * {@linkcode ECHO_MIN_CHARS} to {@linkcode ECHO_MAX_CHARS} characters, and
 * none in a text with more than {@linkcode ECHO_MAX_SECRETS} distinct ones
 * or {@linkcode ECHO_MAX_FINDINGS} findings.
 */
export function withEchoes(text: string, findings: Finding[]): Finding[] {
  if (findings.length === 0 || findings.length > ECHO_MAX_FINDINGS) return findings;
  const secrets = new Map<string, Finding>();
  for (const f of findings) {
    const length = f.end - f.start;
    if (length < ECHO_MIN_CHARS || length > ECHO_MAX_CHARS) continue;
    const secret = text.slice(f.start, f.end);
    if (!secrets.has(secret)) secrets.set(secret, f);
    // A Basic credential's password, decoded and quoted back (`svc:Xr…` under the header).
    const password = decodedPassword(secret);
    if (password !== undefined && !secrets.has(password)) {
      secrets.set(password, { ...f, placeholder: "<PASSWORD>" });
    }
    if (secrets.size > ECHO_MAX_SECRETS) return findings;
  }
  const found = new Set(findings.map((f) => f.start));
  const echoes: Finding[] = [];
  for (const [secret, f] of secrets) {
    const wordAtStart = isAsciiLetterOrDigit(secret.charCodeAt(0));
    const wordAtEnd = isAsciiLetterOrDigit(secret.charCodeAt(secret.length - 1));
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length)) {
      const end = at + secret.length;
      if (wordAtStart && isAsciiLetterOrDigit(text.charCodeAt(at - 1))) continue;
      if (wordAtEnd && isAsciiLetterOrDigit(text.charCodeAt(end))) continue;
      if (!found.has(at)) echoes.push({ ...f, start: at, end });
    }
  }
  return withDisjoint(findings, echoes);
}

/**
 * The password of a `user:password` pair that `secret` is the base64 of
 * (a Basic credential), when it is {@linkcode ECHO_MIN_CHARS} long or more.
 */
function decodedPassword(secret: string): string | undefined {
  if (secret.length < 12 || !/^[A-Za-z0-9+/]+={0,2}$/.test(secret) || secret.length % 4 !== 0) {
    return undefined;
  }
  const decoded = decodeBase64(secret);
  if (decoded === undefined) return undefined;
  const pair = /^[\x21-\x39\x3b-\x7e]{1,64}:([\x21-\x7e]{8,128})$/.exec(decoded);
  return pair?.[1];
}

/** Whether `[start, end)` overlaps one of `findings` (sorted by start, disjoint). */
export function overlapsAny(findings: readonly Finding[], start: number, end: number): boolean {
  let low = 0;
  let high = findings.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (findings[middle]!.end <= start) low = middle + 1;
    else high = middle;
  }
  return low < findings.length && findings[low]!.start < end;
}

/**
 * `findings` (sorted, disjoint) and those of `more` that overlap none of
 * them nor an earlier one of `more`, sorted by start.
 */
export function withDisjoint(findings: Finding[], more: Finding[]): Finding[] {
  if (more.length === 0) return findings;
  const extra = [...more].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  let next = 0;
  for (const candidate of extra) {
    while (next < findings.length && findings[next]!.end <= candidate.start) {
      pushDisjoint(merged, findings[next++]!);
    }
    const overlapsFinding = next < findings.length && findings[next]!.start < candidate.end;
    if (!overlapsFinding) pushDisjoint(merged, candidate);
  }
  while (next < findings.length) pushDisjoint(merged, findings[next++]!);
  return merged;
}

/** Appends `f` unless it overlaps the last of `out` (sorted by start). */
function pushDisjoint(out: Finding[], f: Finding): void {
  const last = out.at(-1);
  if (last === undefined || last.end <= f.start) out.push(f);
}

/** The deadline is checked before each rule that runs, and before every this many rules. */
const DEADLINE_EVERY_RULES = 16;

/** Positions in a rule list stay under this, and so fit under a priority in one sort key. */
const MAX_RULES = 0x10000;

/**
 * `rules` from the highest priority to the lowest, in their order where
 * equal: what a span claimed first then spares the rules after it (see
 * {@linkcode collect}); the overlaps resolve as in any order.
 */
function inPriorityOrder(rules: readonly Rule[]): readonly Rule[] {
  if (rules.length >= MAX_RULES) throw new RangeError(`at most ${MAX_RULES - 1} rules`);
  // Sorted as numbers, natively: a comparator called from the sort cost the hook's cold
  // process 0.1 to 0.2 ms more for 184 rules. Priority descending, then position ascending.
  const keys = new Float64Array(rules.length);
  for (let i = 0; i < rules.length; i++) keys[i] = -rules[i]!.priority * MAX_RULES + i;
  keys.sort();
  const ordered: Rule[] = [];
  for (let i = 0; i < keys.length; i++) {
    ordered.push(rules[((keys[i]! % MAX_RULES) + MAX_RULES) % MAX_RULES]!);
  }
  return ordered;
}

/**
 * A kept span's end and the priority that kept it, as one number (priorities
 * stay under 4,096): the claimed spans are keyed by their start, a small
 * integer, which a `Map` hashes for nothing.
 */
function claim(end: number, priority: number): number {
  return end * 4096 + priority;
}

/** Whether `claimed` holds `[start, end)` kept at a priority above `priority`. */
function claimedAbove(
  claimed: Map<number, number>,
  start: number,
  end: number,
  priority: number,
): boolean {
  const held = claimed.get(start);
  return held !== undefined && Math.floor(held / 4096) === end && held % 4096 > priority;
}

/** How the engine finds a rule's secret in a match (see {@linkcode compiledOf}). */
interface Compiled {
  /** The rule's pattern, as it made it (with `d`). */
  pattern: RegExp;
  /** The rule's pattern without the `d` flag, and without group names where {@linkcode names} is set. */
  search: RegExp;
  /** Each group name and the numbers of its groups in {@linkcode search}, when it has none. */
  names?: ReadonlyArray<readonly [name: string, numbers: readonly number[]]>;
  /** Builds a match's named groups from its numbered ones (see {@linkcode groupsReader}). */
  readGroups?: (m: RegExpExecArray) => Record<string, string | undefined>;
  /**
   * How the secret's offsets follow from a match without `d`: the whole
   * match; the group's text found once in the match; the group ending where
   * the match starts; or `exact`, matching again at the same offset with `d`.
   */
  secretAt: "match" | "unique" | "start" | "exact";
  /** What may follow the secret group to the end of the match, anchored (see {@linkcode groupPlace}). */
  tail?: RegExp;
  /** The pattern with `d` and `y`, made on first need. */
  exact?: RegExp;
}

const compiledRules = new WeakMap<Rule, Compiled>();

/**
 * A rule's pattern, made once per process for text dense with its matches
 * (see {@linkcode DENSE_MATCHES}), run without the `d` flag: with
 * it V8 builds the offsets of every group of every match, three times the
 * cost of the match itself on text dense with matches. Where the secret's
 * offsets do not follow from the match and the group's text (see
 * {@linkcode groupPlace}), that match alone is run again with `d`. Its
 * groups lose their names too (see {@linkcode unnameGroups}).
 */
function compiledOf(rule: Rule): Compiled {
  const known = compiledRules.get(rule);
  if (known !== undefined) return known;
  const pattern = rule.pattern();
  const unnamed = unnameGroups(pattern.source, pattern.flags);
  const compiled: Compiled = {
    pattern,
    search: new RegExp(unnamed?.source ?? pattern.source, pattern.flags.replace("d", "")),
    secretAt: "match",
  };
  if (unnamed !== undefined) {
    compiled.names = unnamed.names;
    compiled.readGroups = groupsReader(unnamed.names);
  }
  if (rule.secretGroup !== undefined) {
    const place = groupPlace(pattern.source, rule.secretGroup, pattern.flags);
    compiled.secretAt = place.found && !place.inLookaround ? "unique" : "exact";
    if (place.tails !== undefined) {
      const flags = [...pattern.flags].filter((flag) => "isu".includes(flag)).join("");
      compiled.tail = new RegExp(`^(?:${[...new Set(place.tails)].join("|")})$`, flags);
    }
  } else if (rule.secretFrom !== undefined) {
    const place = groupPlace(pattern.source, rule.secretFrom, pattern.flags);
    compiled.secretAt = place.endsAtMatchStart ? "start" : "exact";
  }
  compiledRules.set(rule, compiled);
  return compiled;
}

/** The match at `m.index` again, with the offsets of its groups. */
function exactMatch(compiled: Compiled, text: string, at: number): RegExpExecArray {
  const { source, flags } = compiled.pattern;
  compiled.exact ??= new RegExp(source, flags.replace("g", "") + "y");
  compiled.exact.lastIndex = at;
  return compiled.exact.exec(text)!;
}

/** Occurrences of a secret in its match that {@linkcode tailedAt} tries before giving up. */
const MAX_TAIL_TRIES = 16;

/**
 * Where `secret` sits in `match` when it occurs there more than once: the
 * one occurrence followed by what may follow the group to the end of the
 * match, or `undefined` when not exactly one is.
 */
function tailedAt(match: string, secret: string, compiled: Compiled): number | undefined {
  const tail = compiled.tail;
  if (tail === undefined) return undefined;
  let found: number | undefined;
  let tries = 0;
  for (let at = match.indexOf(secret); at >= 0; at = match.indexOf(secret, at + 1)) {
    if (++tries > MAX_TAIL_TRIES) return undefined;
    if (!tail.test(match.slice(at + secret.length))) continue;
    if (found !== undefined) return undefined;
    found = at;
  }
  return found;
}

/** The named groups of match `m`, as V8 would give them. */
function groupsOf(compiled: Compiled, m: RegExpExecArray): Record<string, string | undefined> {
  return compiled.readGroups === undefined ? m.groups ?? {} : compiled.readGroups(m);
}

/**
 * A function that builds the named groups of a match from its numbered
 * ones, written out as one object literal: every object it makes has the
 * same shape, where setting the names one by one in a loop cost 300 ns a
 * match. The names come from the rules' own patterns (identifiers, quoted
 * here all the same), never from the text.
 *
 * @example
 * ```ts
 * groupsReader([["a", [1, 2]]]); // (m) => ({"a": m[1] !== undefined ? m[1] : m[2]})
 * ```
 */
export function groupsReader(
  names: ReadonlyArray<readonly [name: string, numbers: readonly number[]]>,
): (m: RegExpExecArray) => Record<string, string | undefined> {
  // Groups of one name lie in different alternatives: one at most took part.
  const fields = names.map(([name, numbers]) => {
    const value = numbers.map((n) => `m[${n}] !== undefined ? m[${n}] : `).join("") + "undefined";
    return `${JSON.stringify(name)}: ${value}`;
  });
  return new Function("m", `return {${fields.join(", ")}};`) as (
    m: RegExpExecArray,
  ) => Record<string, string | undefined>;
}

/** The offsets of `rule`'s secret in match `m` with `groups`, or `undefined` for none. */
function secretSpan(
  rule: Rule,
  compiled: Compiled,
  text: string,
  m: RegExpExecArray,
  groups: Readonly<Record<string, string | undefined>>,
): [start: number, end: number] | undefined {
  const matchEnd = m.index + m[0].length;
  if (compiled.secretAt === "match") return [m.index, matchEnd];
  if (rule.secretGroup !== undefined) {
    const secret = groups[rule.secretGroup];
    if (secret === undefined || secret.length === 0) return undefined;
    if (compiled.secretAt === "unique") {
      // Outside lookarounds a group captures part of the match: where its
      // text occurs only once in the match, that is where it is.
      const at = m[0].indexOf(secret);
      const only = at >= 0 && m[0].indexOf(secret, at + 1) < 0
        ? at
        : tailedAt(m[0], secret, compiled);
      if (only !== undefined) return [m.index + only, m.index + only + secret.length];
    }
    return exactMatch(compiled, text, m.index).indices!.groups![rule.secretGroup];
  }
  // secretFrom: a branch of the pattern without the group leaves the whole match.
  const head = groups[rule.secretFrom!];
  if (head === undefined) return [m.index, matchEnd];
  if (compiled.secretAt === "start") return [m.index - head.length, matchEnd];
  const span = exactMatch(compiled, text, m.index).indices!.groups![rule.secretFrom!];
  return [span === undefined ? m.index : span[0], matchEnd];
}

/**
 * Matches of one rule after which the engine runs its faster form of the
 * pattern (see {@linkcode compiledOf}). Making that form reads the pattern
 * character by character, which in the hook's cold process costs more (0.1
 * to 0.2 ms a rule) than it saves on the few matches of ordinary text; text
 * dense with matches pays it back many times.
 */
export const DENSE_MATCHES = 256;

function collect(
  text: string,
  rule: Rule,
  options: EngineOptions,
  out: Ranked[],
  rejections: Rejection[] | undefined,
  claimed: Map<number, number> | undefined,
  lowest: number,
  offsets: Int32Array | undefined,
): void {
  let pattern = rule.pattern();
  let compiled: Compiled | undefined;
  let matches = 0;
  const nextAtOffsets = offsets === undefined ? undefined : matchesAt(text, rule, offsets);
  // Spans claimed before this rule ran, by rules of its priority or higher; its own claims
  // never spare its own candidates.
  const claimedBefore = claimed !== undefined && claimed.size !== 0 ? claimed : undefined;
  // In text dense with this rule's matches, the secrets it has accepted: the same secret again
  // is accepted without its validators (an echo would replace it in text less dense), so text
  // built of one candidate repeated is validated once (`"Authorization": "key=…"` repeated:
  // sixteen validators at each of 9,362 repeats in 256 KiB).
  let accepted: Set<string> | undefined;
  for (;;) {
    if (matches === DENSE_MATCHES && compiled === undefined && nextAtOffsets === undefined) {
      compiled = compiledOf(rule);
      compiled.search.lastIndex = pattern.lastIndex;
      pattern = compiled.search;
    }
    const m = nextAtOffsets === undefined ? pattern.exec(text) : nextAtOffsets();
    if (m === null) break;
    // Often enough to stop within milliseconds, seldom enough to cost nothing.
    if ((++matches & 1023) === 0) checkDeadline(options.deadline);
    if (m[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const groups = compiled === undefined ? m.groups ?? {} : groupsOf(compiled, m);
    const span = compiled === undefined
      ? indexedSpan(rule, m)
      : secretSpan(rule, compiled, text, m, groups);
    if (span === undefined) continue;
    const start = span[0];
    const end = span[1];
    // The same span kept by a rule of higher priority: this candidate would lose it to that
    // one, or with it to a third, so its validators need not run (text dense with one secret
    // that three rules find: a third of its time).
    if (claimedBefore !== undefined && claimedAbove(claimedBefore, start, end, rule.priority)) {
      continue;
    }
    const candidate: Candidate = {
      text,
      secret: text.slice(start, end),
      start,
      end,
      match: m[0],
      matchStart: m.index,
      groups,
      options,
    };
    const known = accepted?.has(candidate.secret) === true;
    const reason = known ? undefined : rejectionReason(rule, candidate);
    if (reason === undefined) {
      if (compiled !== undefined && !known) (accepted ??= new Set()).add(candidate.secret);
      // The lowest priority claims nothing: no rule after it could be spared.
      if (claimed !== undefined && rule.priority > lowest) {
        const held = claimed.get(start);
        if (held === undefined || Math.floor(held / 4096) !== end || held % 4096 < rule.priority) {
          claimed.set(start, claim(end, rule.priority));
        }
      }
      out.push({
        ruleId: rule.id,
        metricLabel: rule.metricLabel ?? rule.id,
        placeholder: rule.placeholder,
        start,
        end,
        priority: rule.priority,
      });
    } else {
      rejections?.push({ ruleId: rule.id, start, end, reason });
    }
  }
}

const stickyPatterns = new WeakMap<Rule, RegExp>();

/**
 * The matches of `rule`'s pattern that start at `offsets` (ascending), one
 * at a time, as a global search of the text would find them: none starts
 * inside the one before.
 */
function matchesAt(
  text: string,
  rule: Rule,
  offsets: Int32Array,
): () => RegExpExecArray | null {
  let sticky = stickyPatterns.get(rule);
  if (sticky === undefined) {
    const { source, flags } = rule.pattern();
    sticky = new RegExp(source, flags.replace("g", "") + "y");
    stickyPatterns.set(rule, sticky);
  }
  const pattern = sticky;
  let next = 0;
  let from = 0;
  return () => {
    while (next < offsets.length) {
      const at = offsets[next++]!;
      if (at < from) continue;
      pattern.lastIndex = at;
      const m = pattern.exec(text);
      if (m === null) continue;
      from = at + Math.max(1, m[0].length);
      return m;
    }
    return null;
  };
}

/** The offsets of `rule`'s secret in match `m` of its own pattern (with `d`), or `undefined` for none. */
function indexedSpan(rule: Rule, m: RegExpExecArray): readonly [number, number] | undefined {
  const matchEnd = m.index + m[0].length;
  if (rule.secretGroup !== undefined) {
    const span = m.indices?.groups?.[rule.secretGroup];
    return span === undefined || span[0] === span[1] ? undefined : span;
  }
  // secretFrom: a branch of the pattern without the group leaves the whole match.
  const head = rule.secretFrom === undefined ? undefined : m.indices?.groups?.[rule.secretFrom];
  return [head === undefined ? m.index : head[0], matchEnd];
}

function rejectionReason(rule: Rule, candidate: Candidate): string | undefined {
  for (const validate of rule.validators) {
    const reason = validate(candidate);
    if (reason !== undefined) return reason;
  }
  for (const allowed of rule.allowlist) {
    if (allowed.test(candidate.secret)) return `allowlisted by ${allowed}`;
  }
  return undefined;
}

/** Which of two candidates wins an overlap: higher priority, then the longer, then the earlier. */
function byPrecedence(a: Ranked, b: Ranked): number {
  return b.priority - a.priority || (b.end - b.start) - (a.end - a.start) || a.start - b.start;
}

/**
 * The candidates that stand, sorted by offset. Only candidates that overlap
 * can take anything from each other, so each run of overlapping ones (a
 * cluster) is resolved on its own: sorting every candidate of a text dense
 * with secrets by precedence cost more than finding them.
 */
function resolveOverlaps(candidates: Ranked[], rejections: Rejection[] | undefined): Finding[] {
  candidates.sort((a, b) => a.start - b.start);
  const findings: Finding[] = [];
  const lost: Lost[] | undefined = rejections === undefined ? undefined : [];
  for (let first = 0; first < candidates.length;) {
    let end = candidates[first]!.end;
    let next = first + 1;
    for (; next < candidates.length && candidates[next]!.start < end; next++) {
      end = Math.max(end, candidates[next]!.end);
    }
    if (next === first + 1) findings.push(toFinding(candidates[first]!));
    else {
      const cluster = candidates.slice(first, next);
      for (const c of resolveCluster(cluster, end, lost)) findings.push(toFinding(c));
    }
    first = next;
  }
  if (rejections !== undefined && lost !== undefined) {
    // In the order of precedence over the whole text, as when all were sorted at once.
    for (const { loser, winner } of lost.sort((a, b) => byPrecedence(a.loser, b.loser))) {
      rejections.push({
        ruleId: loser.ruleId,
        start: loser.start,
        end: loser.end,
        reason: `overlaps ${winner.ruleId} (more specific)`,
      });
    }
  }
  return findings;
}

/** A candidate that lost an overlap, and to whom. */
interface Lost {
  loser: Ranked;
  winner: Ranked;
}

/**
 * The winners of one cluster of overlapping candidates (sorted by offset,
 * ending at `end`), sorted by offset; the losers go to `lost` when given.
 */
function resolveCluster(cluster: Ranked[], end: number, lost: Lost[] | undefined): Ranked[] {
  const from = cluster[0]!.start;
  cluster.sort(byPrecedence);
  const accepted: Ranked[] = [];
  // A small cluster (most are two candidates on one span) compares with each
  // winner; a large one marks which winner (index + 1) holds each offset, so
  // that text dense with overlapping candidates stays linear.
  const owner = cluster.length > SMALL_CLUSTER ? new Int32Array(end - from) : undefined;
  for (const c of cluster) {
    let held = 0;
    if (owner === undefined) {
      // The winner named is the one holding the first offset, as with `owner`.
      for (let i = 0; i < accepted.length; i++) {
        const a = accepted[i]!;
        if (
          a.start < c.end && c.start < a.end && (held === 0 || a.start < accepted[held - 1]!.start)
        ) {
          held = i + 1;
        }
      }
    } else {
      for (let i = c.start - from; i < c.end - from && held === 0; i++) held = owner[i]!;
    }
    if (held !== 0) {
      const winner = accepted[held - 1]!;
      lost?.push({ loser: c, winner });
      if (sameSecretGoesOn(winner, c) && isFree(accepted, owner, from, winner.end, c.end)) {
        owner?.fill(held, winner.end - from, c.end - from);
        winner.end = c.end;
      }
      continue;
    }
    accepted.push(c);
    owner?.fill(accepted.length, c.start - from, c.end - from);
  }
  return accepted.sort((a, b) => a.start - b.start);
}

/**
 * Whether `loser` reads the secret `winner` found, from the same offset,
 * further on: `"secret_key" => "sk_ubT4yN3m#P7r5&@*xC"`, where the
 * unquoted-value rule stops at `#` and the quoted one goes on to the quote.
 * The winner's name stands and the loser's end with it, so no tail of the
 * secret is left in clear.
 */
function sameSecretGoesOn(winner: Ranked, loser: Ranked): boolean {
  return loser.start === winner.start && loser.end > winner.end;
}

/** Whether no winner holds an offset in `start`..`end` (`owner` marks them, from `from`, when given). */
function isFree(
  accepted: readonly Ranked[],
  owner: Int32Array | undefined,
  from: number,
  start: number,
  end: number,
): boolean {
  if (owner !== undefined) {
    for (let i = start - from; i < end - from; i++) if (owner[i] !== 0) return false;
    return true;
  }
  return accepted.every((a) => a.end <= start || end <= a.start);
}

/** Clusters up to this many candidates are resolved by comparing them with each winner. */
const SMALL_CLUSTER = 16;

function toFinding(c: Ranked): Finding {
  return {
    ruleId: c.ruleId,
    metricLabel: c.metricLabel,
    placeholder: c.placeholder,
    start: c.start,
    end: c.end,
  };
}

/** Replaces each finding (sorted, disjoint) by its placeholder, in one pass. */
export function applyFindings(text: string, findings: readonly Finding[]): string {
  if (findings.length === 0) return text;
  // Concatenation, which V8 keeps as a tree until the result is read, cost
  // half what an array of parts and `join` did with 100,000 findings.
  let out = "";
  let at = 0;
  for (const f of findings) {
    out = out + text.slice(at, f.start) + f.placeholder;
    at = f.end;
  }
  return out + text.slice(at);
}
