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

/** What {@linkcode redactValue} returns: the redacted copy and the summed counts. */
export interface ValueRedactionResult {
  /** A copy of the value with every string and every object key redacted. */
  value: unknown;
  /** Replaced spans over all strings and keys. */
  matchCount: number;
  /** Replaced spans per metric label. */
  counts: Record<string, number>;
}

/** Every distinct object key inside a value, redacted in one pass, and what that pass found. */
function redactKeys(
  value: object,
  options: RedactOptions,
): { byKey: Map<string, string>; matchCount: number; counts: Record<string, number> } {
  const keys = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    const isArray = Array.isArray(node);
    for (const [key, item] of Object.entries(node as Record<string, unknown>)) {
      if (!isArray) keys.add(key);
      if (item !== null && typeof item === "object") stack.push(item);
    }
  }
  const list = [...keys];
  const result = redactLines(list, options);
  const byKey = new Map<string, string>();
  list.forEach((key, i) => {
    if (result.texts[i] !== key) byKey.set(key, result.texts[i]!);
  });
  return { byKey, matchCount: result.matchCount, counts: result.counts };
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
 * Redacts every string value and every object key inside a JSON value
 * (objects, arrays, nested), leaving numbers, booleans and null alone. A key
 * that names a secret ({@linkcode isSecretKeyName}) makes every non-empty
 * string under it a secret, replaced whole, unless the string is a template,
 * a masked value or a placeholder (`${DB_PASSWORD}`, `********`). Iterative, so a value nested
 * 10,000 deep does not overflow the stack.
 */
export function redactValue(value: unknown, options: RedactOptions = {}): ValueRedactionResult {
  const counts: Record<string, number> = {};
  let matchCount = 0;
  const redactString = (text: string, secret: boolean): string => {
    // A template, a masked value or a placeholder under a secret's key stays (`${DB_PASSWORD}`).
    if (secret && text.length > 0 && placeholderProblem(text) === undefined) {
      matchCount++;
      counts[SECRET_KEY_RULE_ID] = (counts[SECRET_KEY_RULE_ID] ?? 0) + 1;
      return SECRET_KEY_PLACEHOLDER;
    }
    const result = redactText(text, options);
    if (result.matchCount === 0) return text;
    matchCount += result.matchCount;
    for (const [id, n] of Object.entries(result.counts)) counts[id] = (counts[id] ?? 0) + n;
    return result.text;
  };
  if (typeof value === "string") return { value: redactString(value, false), matchCount, counts };
  if (value === null || typeof value !== "object") return { value, matchCount, counts };
  const redactedKeys = redactKeys(value, options);
  matchCount += redactedKeys.matchCount;
  for (const [id, n] of Object.entries(redactedKeys.counts)) counts[id] = (counts[id] ?? 0) + n;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<[source: unknown, target: unknown, secret: boolean]> = [[value, root, false]];
  while (stack.length > 0) {
    const [source, target, underSecret] = stack.pop()!;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (let index = 0; index < source.length; index++) {
        out[index] = copyOf(source[index], underSecret);
      }
      continue;
    }
    const out = target as Record<string, unknown>;
    const named = namesSecretValue(source as Record<string, unknown>);
    for (const [key, item] of Object.entries(source as Record<string, unknown>)) {
      const secret = underSecret || isSecretKeyName(key);
      const namedValue = named && (key === "value" || key === "Value");
      const redactedKey = redactedKeys.byKey.get(key) ?? key;
      let name = redactedKey;
      // Two keys redacted alike must not overwrite each other.
      for (let n = 2; Object.hasOwn(out, name); n++) name = `${redactedKey}#${n}`;
      // Defined, not assigned: a "__proto__" key must stay a key, not become the prototype.
      Object.defineProperty(out, name, {
        value: copyOf(item, secret || namedValue),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return { value: root, matchCount, counts };

  function copyOf(item: unknown, secret: boolean): unknown {
    if (typeof item === "string") return redactString(item, secret);
    if (item === null || typeof item !== "object") return item;
    const copy = Array.isArray(item) ? [] : {};
    stack.push([item, copy, secret]);
    return copy;
  }
}
