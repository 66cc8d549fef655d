/**
 * JSON Web Tokens, the whole `header.payload.signature` (a JWT after
 * `Bearer` is a JWT, never half-eaten by the bearer rule: this rule ranks
 * higher).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";

/** Three base64url parts with JSON header and payload (`eyJ…`). */
export const jwt: Rule = {
  id: "jwt",
  description: "JSON Web Token: base64url JSON header and payload, and the signature",
  placeholder: "<JWT>",
  keywords: ["eyj"],
  pattern: () => /(?<![\w-])eyJ[\w-]{6,}\.ey[\w-]{6,}\.[\w-]*/dg,
  priority: 700,
  validators: [],
  allowlist: [],
  truePositives: [
    "token=eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjQyLCJyb2xlIjoib3BzIn0.c2lnbmF0dXJlLXBhcnQtZmFrZQ",
    "Authorization: Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJib3QtOSJ9.Zm9vYmFyYmF6cXV4MTIz",
  ],
  falsePositives: [
    // Base64 of a JSON config without dots is data, not a token.
    "value: eyJ0aGVtZSI6ImRhcmsiLCJsYW5nIjoidmkifQ",
    // The textbook shape with letters standing for the parts.
    "a JWT looks like aaaa.bbbb.cccc",
  ],
};
