/**
 * User-marked privacy: a `<private>…</private>` span is removed whole, before
 * any other rule can see into it. An unclosed `<private>` hides the rest of
 * the text (fail closed).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";

/** `<private>…</private>`, tags included. */
export const privateSpan: Rule = {
  id: "private_span",
  description: "A span the user marked <private>…</private>; unclosed runs to the end",
  placeholder: "<PRIVATE>",
  keywords: ["<private>"],
  startsAtKeyword: true,
  pattern: () => /<private>[\s\S]*?(?:<\/private>|$)/dgi,
  priority: 1000,
  validators: [],
  allowlist: [],
  truePositives: [
    "my home address is <private>12 Hang Bac, Hanoi</private> fyi",
    "<private>everything after an unclosed tag",
  ],
  falsePositives: [
    // Only the exact tag marks privacy; a word about privacy does not.
    "mark private notes with the private tag",
  ],
};
