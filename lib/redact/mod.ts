/**
 * The redactor: text in, redacted text and per-rule match counts out. Every
 * prompt, assistant message, tool error line and string inside tool arguments
 * passes through here before anything is hashed or sent.
 *
 * The engine and rules behind this interface are replaced by the full engine
 * (issue 3); callers depend only on {@linkcode redactText} and
 * {@linkcode redactValue}.
 *
 * @module
 */

/** Options for {@linkcode redactText} and {@linkcode redactValue}. */
export interface RedactOptions {
  /**
   * E-mail domains the operator allows (their own company's); addresses at
   * these domains, or their subdomains, are kept.
   *
   * @default {[]}
   */
  allowEmailDomains?: readonly string[];
}

/** What one redaction pass found and did. */
export interface RedactionResult {
  /** The text with every secret replaced by its placeholder. */
  text: string;
  /** The true number of replaced spans. */
  matchCount: number;
  /** Replaced spans per rule id (only rules that matched). */
  counts: Record<string, number>;
}

interface SimpleRule {
  id: string;
  placeholder: string;
  pattern: RegExp;
}

const RULES: SimpleRule[] = [
  { id: "aws-access-key-id", placeholder: "<AWS_KEY>", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    id: "anthropic-key",
    placeholder: "<ANTHROPIC_KEY>",
    pattern: /\bsk-ant-[a-z0-9]+-[A-Za-z0-9_-]{20,}/g,
  },
  { id: "openai-key", placeholder: "<OPENAI_KEY>", pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/g },
  { id: "github-token", placeholder: "<GITHUB_TOKEN>", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
  {
    id: "jwt",
    placeholder: "<JWT>",
    pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g,
  },
  { id: "bearer", placeholder: "<TOKEN>", pattern: /(?<=\bBearer )[A-Za-z0-9._~+/-]{16,}=*/g },
  {
    id: "email",
    placeholder: "<EMAIL>",
    pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g,
  },
];

/**
 * Redacts one text.
 *
 * @example
 * ```ts
 * redactText("key AKIAABCDEFGHIJKLMNOP").text; // "key <AWS_KEY>"
 * ```
 */
export function redactText(text: string, options: RedactOptions = {}): RedactionResult {
  const allowed = options.allowEmailDomains ?? [];
  const counts: Record<string, number> = {};
  let matchCount = 0;
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match) => {
      if (rule.id === "email" && isAllowedEmail(match, allowed)) return match;
      counts[rule.id] = (counts[rule.id] ?? 0) + 1;
      matchCount++;
      return rule.placeholder;
    });
  }
  return { text: out, matchCount, counts };
}

/** What {@linkcode redactValue} returns: the redacted copy and the summed counts. */
export interface ValueRedactionResult {
  /** A copy of the value with every string (not keys) redacted. */
  value: unknown;
  /** Replaced spans over all strings. */
  matchCount: number;
  /** Replaced spans per rule id. */
  counts: Record<string, number>;
}

/**
 * Redacts every string value inside a JSON value (objects, arrays, nested),
 * leaving keys, numbers, booleans and null alone. Iterative, so a value nested
 * 10,000 deep does not overflow the stack.
 */
export function redactValue(value: unknown, options: RedactOptions = {}): ValueRedactionResult {
  const counts: Record<string, number> = {};
  let matchCount = 0;
  const redactString = (text: string): string => {
    const result = redactText(text, options);
    if (result.matchCount === 0) return text;
    matchCount += result.matchCount;
    for (const [id, n] of Object.entries(result.counts)) counts[id] = (counts[id] ?? 0) + n;
    return result.text;
  };
  if (typeof value === "string") return { value: redactString(value), matchCount, counts };
  if (value === null || typeof value !== "object") return { value, matchCount, counts };
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<[source: unknown, target: unknown]> = [[value, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    const entries = Array.isArray(source)
      ? source.map((item, index) => [index, item] as const)
      : Object.entries(source as Record<string, unknown>);
    for (const [key, item] of entries) {
      let copy: unknown = item;
      if (typeof item === "string") copy = redactString(item);
      else if (item !== null && typeof item === "object") {
        copy = Array.isArray(item) ? [] : {};
        stack.push([item, copy]);
      }
      (target as Record<string | number, unknown>)[key] = copy;
    }
  }
  return { value: root, matchCount, counts };
}

function isAllowedEmail(address: string, allowedDomains: readonly string[]): boolean {
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  return allowedDomains.some((allowed) => {
    const wanted = allowed.toLowerCase();
    return domain === wanted || domain.endsWith(`.${wanted}`);
  });
}
