/**
 * JSON Web Tokens, the whole `header.payload.signature`, also unsigned
 * (`header.payload.` with `alg: none`, or `header.payload` with no dot at
 * all when the header decodes to a JWT header). A JWT after `Bearer` is a
 * JWT, never half-eaten by the bearer rule: this rule ranks higher.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { isBase64 } from "../_validators.ts";

/** A two-part token must have a header that names `alg` or `typ`. */
function headerOfTwoParts(c: Candidate): string | undefined {
  if (c.groups["signature"] !== undefined) return undefined;
  const header = c.secret.slice(0, c.secret.indexOf("."));
  const base64 = header.replace(/-/g, "+").replace(/_/g, "/").padEnd(header.length + 3 & ~3, "=");
  if (!isBase64(base64)) return "header is not base64url";
  const decoded = atob(base64);
  return /"(?:alg|typ)"/.test(decoded) ? undefined : "two parts without a JWT header";
}

/** Base64url JSON header and payload (`eyJ…`), and the signature when there is one. */
export const jwt: Rule = {
  id: "jwt",
  description: "JSON Web Token: base64url JSON header and payload, and the signature if any",
  placeholder: "<JWT>",
  keywords: ["eyj"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])eyJ[\w-]{6,8192}\.eyJ[\w-]{6,8192}(?<signature>\.[\w-]{0,8192})?(?![\w-])/dg,
  priority: 700,
  validators: [headerOfTwoParts],
  allowlist: [],
  truePositives: [
    "token=eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjQyLCJyb2xlIjoib3BzIn0.c2lnbmF0dXJlLXBhcnQtZmFrZQ",
    "Authorization: Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJib3QtOSJ9.Zm9vYmFyYmF6cXV4MTIz",
    // Unsigned, alg none.
    "the JWT is eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9. without signature",
    // Header and payload only.
    'id_token = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiIxMjM0NTY3ODkwIn0"',
  ],
  falsePositives: [
    // Base64 of a JSON config without dots is data, not a token.
    "value: eyJ0aGVtZSI6ImRhcmsiLCJsYW5nIjoidmkifQ",
    // The textbook shape with letters standing for the parts.
    "a JWT looks like aaaa.bbbb.cccc",
    // Two base64 JSON objects that are not a JWT header and payload.
    "eyJ0aGVtZSI6ImRhcmsifQ.eyJsYW5nIjoidmkifQ",
  ],
};

/** Base64 that decodes to a JWT's `eyJ….eyJ…`. */
function decodesToJwt(c: Candidate): string | undefined {
  const padded = c.secret.padEnd(c.secret.length + 3 & ~3, "=");
  if (!isBase64(padded)) return "not base64";
  return /^eyJ[\w-]{6,}\.eyJ[\w-]{6,}/.test(atob(padded)) ? undefined : "does not decode to a JWT";
}

/** A JWT encoded once more in base64 (`ZXlK…`, as Kubernetes secrets and some SDKs store it). */
export const jwtBase64: Rule = {
  id: "jwt_base64",
  description: "A JSON Web Token encoded once more in base64 (ZXlK…)",
  placeholder: "<JWT>",
  keywords: ["zxlk"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w+/-])ZXlK[A-Za-z0-9+/]{40,8192}={0,2}(?![\w+/=-])/dg,
  priority: 700,
  validators: [decodesToJwt],
  allowlist: [],
  truePositives: [
    "  token: ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUpoY0hBdE9TSXNJbWxoZENJNk1UY3dNREF3TURBd01IMC5sNkZ5cVQ5bVIyeE4ydzhjVjR6UTFrQnA3c0wzZEowZ0E=",
  ],
  falsePositives: [
    // Base64 of a JSON object, not of a token.
    "ZXlKMGFHVnRaU0k2SW1SaGNtc2lMQ0pzWVc1bklqb2lkbWtpZlE9PQ==",
  ],
};
