/**
 * Hostile text made inert and visible. Every string from the store (a prompt,
 * an error line, a tool name, a session id) may carry markup, control
 * characters that move the cursor, or bidirectional overrides that make a
 * line read differently than it is stored. The view shows each such character
 * as a visible `⟨U+XXXX⟩` marker and escapes the rest for HTML.
 *
 * @module
 */

/**
 * C0 and C1 controls (but tab and newline), bidirectional embeddings,
 * overrides, isolates and marks, zero-width characters, line and paragraph
 * separators, lone surrogates, and the byte-order mark.
 */
const INVISIBLE =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with every invisible or direction-changing character shown as `⟨U+XXXX⟩`. */
export function visible(text: string): string {
  return text.replace(
    INVISIBLE,
    (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`,
  );
}

/** Options for {@linkcode clip}. */
export interface ClipOptions {
  /** The most UTF-16 code units kept. */
  max: number;
}

/** `text` cut to `options.max` code units (never inside a surrogate pair), and whether it was cut. */
export function clip(text: string, options: ClipOptions): { text: string; clipped: boolean } {
  if (text.length <= options.max) return { text, clipped: false };
  let end = options.max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { text: text.slice(0, end), clipped: true };
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` safe in HTML text and in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** Stored text for a page: invisible characters shown, then escaped. */
export function safeHtml(text: string): string {
  return escapeHtml(visible(text));
}

/** Markup built by {@linkcode markup}: inserted as it is into other markup. */
export class Html {
  /** The markup. */
  readonly markup: string;

  /** Wraps markup that is already safe; only {@linkcode markup} should call this. */
  constructor(markup: string) {
    this.markup = markup;
  }

  /** The markup. */
  toString(): string {
    return this.markup;
  }
}

/**
 * A template tag for HTML that escapes every value it is given ({@linkcode safeHtml}),
 * except markup it built itself and arrays of those. `undefined`, `null` and
 * `false` insert nothing. Escaping is the default, so a forgotten call cannot
 * let stored text through as markup.
 */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let markup = strings[0]!;
  for (let i = 0; i < values.length; i++) markup += insert(values[i]) + strings[i + 1]!;
  return new Html(markup);
}

function insert(value: unknown): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(insert).join("");
  if (value === undefined || value === null || value === false) return "";
  return safeHtml(String(value));
}
