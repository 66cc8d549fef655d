/**
 * The redactor: text in, redacted text and per-rule match counts out. Every
 * prompt, assistant message, tool error line and string inside tool arguments
 * passes through here before anything is hashed or sent.
 *
 * The engine (`_engine.ts`) runs the rules of `rules/` in fixed steps:
 * keyword gate, pattern, validators, allowlists, overlap resolution (most
 * specific wins), one replacement pass. `<private>…</private>` spans go
 * first and whole. The text is read once more, decoded: string by string
 * when it is one JSON document (`_json_values.ts`), runs written with URL or
 * `\/` escapes (`_escaped_runs.ts`), base64 runs (`_base64_runs.ts`). A
 * secret found once is replaced wherever else it stands in the text
 * (`withEchoes`). Callers depend only on {@linkcode redactText},
 * {@linkcode redactValue} and {@linkcode explainText}.
 *
 * @module
 */

import { applyFindings, type Finding, scanText, withDisjoint, withEchoes } from "./_engine.ts";
import { base64RunFindings } from "./_base64_runs.ts";
import { escapedRunFindings } from "./_escaped_runs.ts";
import { jsonStringFindings } from "./_json_values.ts";

export { RedactionTimeoutError } from "./_engine.ts";
import { RULES } from "./rules/mod.ts";
import { isSecretKeyName } from "./secret_keys.ts";
import { placeholderProblem } from "./_validators.ts";

/**
 * The e-mail domains kept when the caller names none: the spec's
 * organisation domain. `install --allow-email-domain D` replaces the list.
 */
export const DEFAULT_ALLOWED_EMAIL_DOMAINS: readonly string[] = ["cyberskill.world"];

/** Options for {@linkcode redactText} and {@linkcode redactValue}. */
export interface RedactOptions {
  /**
   * E-mail domains the operator allows (their own company's); addresses at
   * these domains, or their subdomains, are kept. An empty list keeps the
   * default.
   *
   * @default {DEFAULT_ALLOWED_EMAIL_DOMAINS}
   */
  allowEmailDomains?: readonly string[];
  /**
   * A `performance.now()` time after which redaction throws a
   * `RedactionTimeoutError` instead of running on.
   *
   * @default {Infinity}
   */
  deadline?: number;
}

/** The options the engine gets: the default allowlist where none was named. */
function engineOptions(options: RedactOptions): RedactOptions {
  const domains = options.allowEmailDomains;
  return domains === undefined || domains.length === 0
    ? { ...options, allowEmailDomains: DEFAULT_ALLOWED_EMAIL_DOMAINS }
    : options;
}

/** What one redaction pass found and did. */
export interface RedactionResult {
  /** The text with every secret replaced by its placeholder. */
  text: string;
  /** The true number of replaced spans. */
  matchCount: number;
  /** Replaced spans per metric label (a rule's id unless it names another; only those that matched). */
  counts: Record<string, number>;
}

/**
 * Redacts one text.
 *
 * @example
 * ```ts
 * redactText("key AKIAABCDEFGHIJKLMNOP").text; // "key <AWS_KEY>"
 * ```
 */
export function redactText(text: string, options: RedactOptions = {}): RedactionResult {
  const findings = findingsOf(text, engineOptions(options));
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.metricLabel] = (counts[f.metricLabel] ?? 0) + 1;
  return { text: applyFindings(text, findings), matchCount: findings.length, counts };
}

/**
 * What is replaced in `text`: the rules' findings; where `text` is one JSON
 * document, what they find in each of its escaped strings, decoded, as the
 * hook reads a payload; what they find in runs written with URL or `\/`
 * escapes, decoded; base64 runs whose decoded text holds a secret; and every
 * other occurrence of a secret found. `found` is the rules' findings in
 * `text`, when the caller has scanned it already.
 */
function findingsOf(
  text: string,
  options: RedactOptions,
  found: Finding[] = scanText(text, RULES, options).findings,
): Finding[] {
  const scan = (value: string) => scanText(value, RULES, options).findings;
  const decoded = [
    ...jsonStringFindings(text, scan),
    ...escapedRunFindings(text, scan),
    ...base64RunFindings(text, scan, found),
  ];
  return withEchoes(text, withDisjoint(found, decoded));
}

/** What {@linkcode redactLines} returns. */
export interface LinesRedactionResult {
  /** Each text redacted, in the order given. */
  texts: string[];
  /** The true number of replaced spans over all texts. */
  matchCount: number;
  /** Replaced spans per rule id. */
  counts: Record<string, number>;
}

/**
 * Redacts many short texts (field values, object keys) as the lines of one
 * text: each text is its own line, so no match runs from one into the next,
 * and the engine's fixed cost per pass (a good part of a short text's time
 * in the hook's cold process) is paid once. A text holding a line break, or
 * a match that swallowed one, falls back to one pass per text.
 */
export function redactLines(
  texts: readonly string[],
  options: RedactOptions = {},
): LinesRedactionResult {
  if (texts.length === 0) return { texts: [], matchCount: 0, counts: {} };
  if (!texts.some((text) => text.includes("\n"))) {
    const joined = redactText(texts.join("\n"), options);
    const lines = joined.text.split("\n");
    if (lines.length === texts.length) {
      return { texts: lines, matchCount: joined.matchCount, counts: joined.counts };
    }
  }
  const counts: Record<string, number> = {};
  let matchCount = 0;
  const out = texts.map((text) => {
    const result = redactText(text, options);
    matchCount += result.matchCount;
    for (const [id, n] of Object.entries(result.counts)) counts[id] = (counts[id] ?? 0) + n;
    return result.text;
  });
  return { texts: out, matchCount, counts };
}

/** One replaced span, for reviewers. */
export interface ExplainedMatch {
  /** The rule that matched. */
  ruleId: string;
  /** Its placeholder. */
  placeholder: string;
  /** Offset in the original text. */
  start: number;
  /** Offset just past the span. */
  end: number;
}

/** One candidate that was kept, and why. */
export interface ExplainedRejection {
  /** The rule that proposed it. */
  ruleId: string;
  /** Offset in the original text. */
  start: number;
  /** Offset just past the span. */
  end: number;
  /** Why it was not replaced ("entropy 2.10 ≤ 3.5", "overlaps jwt …"). */
  reason: string;
}

/** What {@linkcode explainText} returns. */
export interface Explanation {
  /** Replaced spans, in text order. */
  matches: ExplainedMatch[];
  /** Rejected candidates with their reasons. */
  rejected: ExplainedRejection[];
}

/**
 * Says what {@linkcode redactText} would replace and which candidates it
 * rejected, with reasons (for `redact --explain`).
 */
export function explainText(text: string, options: RedactOptions = {}): Explanation {
  const engine = engineOptions(options);
  const { findings, rejections } = scanText(text, RULES, { ...engine, explain: true });
  const matches = findingsOf(text, engine, findings).map(({ ruleId, placeholder, start, end }) => ({
    ruleId,
    placeholder,
    start,
    end,
  }));
  return { matches, rejected: rejections };
}

/** Options for {@linkcode redactValue}. */
export interface ValueRedactOptions extends RedactOptions {
  /**
   * Short texts (a row's other fields) to redact in the same pass as the
   * value's keys and short strings, each as its own line (see
   * {@linkcode redactLines}); they come back in {@linkcode ValueRedactionResult.alongside}.
   */
  alongside?: readonly string[];
}

/** What {@linkcode redactValue} returns: the redacted copy and the summed counts. */
export interface ValueRedactionResult {
  /** A copy of the value with every string and every object key redacted. */
  value: unknown;
  /** Replaced spans over all strings and keys (and the texts alongside). */
  matchCount: number;
  /** Replaced spans per metric label. */
  counts: Record<string, number>;
  /** The texts given {@linkcode ValueRedactOptions.alongside}, redacted, in their order. */
  alongside: string[];
}

/**
 * Whether an object is a name/value entry whose name says secret
 * (`{"name": "DB_PASSWORD", "value": "…"}` in ECS, Kubernetes and CI
 * environments): then its `value` is a secret too.
 */
function namesSecretValue(entry: Record<string, unknown>): boolean {
  const name = entry["name"] ?? entry["Name"] ?? entry["key"] ?? entry["Key"];
  return typeof name === "string" && isSecretKeyName(name);
}

/** The rule id counted for a string replaced because its key names a secret. */
export const SECRET_KEY_RULE_ID = "secret_key_name";

/** What replaces a string whose key names a secret. */
export const SECRET_KEY_PLACEHOLDER = "<SECRET>";

/**
 * Longest string {@linkcode redactValue} redacts as a line of its one pass
 * over keys and short strings. Each pass has a cost of its own in the hook's
 * cold process (0.15 ms or more, however short the text), and a tool's input
 * is mostly short strings: a path, a pattern, a description.
 */
export const ONE_PASS_MAX_CHARS = 1024;

/**
 * Whether a string is redacted as a line of the one pass: short, one line,
 * and not a JSON document, whose escaped strings are read decoded only in a
 * pass of its own (see {@linkcode findingsOf}).
 */
function takesOnePass(text: string): boolean {
  if (text.length > ONE_PASS_MAX_CHARS || text.includes("\n")) return false;
  const first = text.trimStart()[0];
  return first !== "{" && first !== "[";
}

/** Whether a string under a secret's key is replaced whole: not empty, and not a template, a masked value or a placeholder. */
function replacedWhole(text: string, secret: boolean): boolean {
  return secret && text.length > 0 && placeholderProblem(text) === undefined;
}

/** What {@linkcode copyValue} does with each key and string it meets. */
interface ValueVisitor {
  /** The copy's name for a key. */
  rename(key: string): string;
  /** The copy's text for a string; `secret` when a key above it names a secret. */
  restring(text: string, secret: boolean): string;
  /** Only visit: make no copy, as a first walk that gathers what to redact need not. */
  visitOnly?: boolean;
}

/**
 * How {@linkcode redactValue} redacts a string: replaced whole (under a
 * secret's key), as a line of the one pass, or in a pass of its own.
 */
type StringWay = "whole" | "line" | "alone";

/**
 * A copy of `value` whose keys and strings the visitor gives. Iterative, so a
 * value nested 10,000 deep does not overflow the stack; the same value is
 * always visited in the same order, which {@linkcode redactValue} relies on
 * to walk it twice.
 */
function copyValue(value: unknown, visitor: ValueVisitor): unknown {
  const { rename, restring, visitOnly = false } = visitor;
  if (typeof value === "string") return restring(value, false);
  if (value === null || typeof value !== "object") return value;
  const root: unknown = visitOnly ? undefined : Array.isArray(value) ? [] : {};
  const stack: Array<[source: unknown, target: unknown, secret: boolean]> = [[value, root, false]];
  const copyOf = (item: unknown, secret: boolean): unknown => {
    if (typeof item === "string") return restring(item, secret);
    if (item === null || typeof item !== "object") return item;
    const copy = visitOnly ? undefined : Array.isArray(item) ? [] : {};
    stack.push([item, copy, secret]);
    return copy;
  };
  while (stack.length > 0) {
    const [source, target, underSecret] = stack.pop()!;
    if (Array.isArray(source)) {
      const out = target as unknown[] | undefined;
      for (let index = 0; index < source.length; index++) {
        const item = copyOf(source[index], underSecret);
        if (out !== undefined) out[index] = item;
      }
      continue;
    }
    const out = target as Record<string, unknown> | undefined;
    const named = namesSecretValue(source as Record<string, unknown>);
    for (const [key, item] of Object.entries(source as Record<string, unknown>)) {
      const secret = underSecret || isSecretKeyName(key);
      const namedValue = named && (key === "value" || key === "Value");
      const renamed = rename(key);
      const copy = copyOf(item, secret || namedValue);
      if (out === undefined) continue;
      let name = renamed;
      // Two keys redacted alike must not overwrite each other.
      for (let n = 2; Object.hasOwn(out, name); n++) name = `${renamed}#${n}`;
      // Defined, not assigned: a "__proto__" key must stay a key, not become the prototype.
      Object.defineProperty(out, name, {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root;
}

/**
 * Redacts every string value and every object key inside a JSON value
 * (objects, arrays, nested), leaving numbers, booleans and null alone. A key
 * that names a secret ({@linkcode isSecretKeyName}) makes every non-empty
 * string under it a secret, replaced whole, unless the string is a template,
 * a masked value or a placeholder (`${DB_PASSWORD}`, `********`). The keys,
 * the short strings and `alongside` are redacted in one pass, as the lines of
 * one text ({@linkcode redactLines}); each longer string in a pass of its own.
 */
export function redactValue(
  value: unknown,
  options: ValueRedactOptions = {},
): ValueRedactionResult {
  const { alongside = [], ...redactOptions } = options;
  // The first walk decides each string's way and gathers the lines of the one pass; the second
  // takes the decisions in the same order.
  const keys = new Set<string>();
  const strings: string[] = [];
  const ways: StringWay[] = [];
  copyValue(value, {
    rename: (key) => {
      keys.add(key);
      return key;
    },
    restring: (text, secret) => {
      const way = replacedWhole(text, secret) ? "whole" : takesOnePass(text) ? "line" : "alone";
      ways.push(way);
      if (way === "line") strings.push(text);
      return text;
    },
    visitOnly: true,
  });
  const keyList = [...keys];
  const lines = redactLines([...keyList, ...strings, ...alongside], redactOptions);
  const counts = { ...lines.counts };
  let matchCount = lines.matchCount;
  const byKey = new Map<string, string>();
  keyList.forEach((key, i) => byKey.set(key, lines.texts[i]!));
  let nextWay = 0;
  let nextLine = keyList.length;
  const copy = copyValue(value, {
    rename: (key) => byKey.get(key)!,
    restring: (text) => {
      switch (ways[nextWay++]) {
        case "whole":
          matchCount++;
          counts[SECRET_KEY_RULE_ID] = (counts[SECRET_KEY_RULE_ID] ?? 0) + 1;
          return SECRET_KEY_PLACEHOLDER;
        case "line":
          return lines.texts[nextLine++]!;
        default: {
          const result = redactText(text, redactOptions);
          matchCount += result.matchCount;
          for (const [id, n] of Object.entries(result.counts)) counts[id] = (counts[id] ?? 0) + n;
          return result.text;
        }
      }
    },
  });
  const alongsideAt = keyList.length + strings.length;
  return { value: copy, matchCount, counts, alongside: lines.texts.slice(alongsideAt) };
}
