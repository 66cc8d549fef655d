/**
 * Payment card numbers: 13–19 digits, bare or in 4-4-4-4(-3) / 4-6-5
 * groups, with a known issuer prefix and length, passing Luhn. The
 * well-known test cards stay.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { luhnValid } from "../_validators.ts";

const TEST_CARDS = new Set([
  "4242424242424242",
  "4000056655665556",
  "4111111111111111",
  "4012888888881881",
  "4000000000000002",
  "4000000000009995",
  "5555555555554444",
  "5200828282828210",
  "5105105105105100",
  "2223003122003222",
  "378282246310005",
  "371449635398431",
  "6011111111111117",
  "6011000990139424",
  "3056930009020004",
  "30569309025904",
  "38520000023237",
  "3566002020360505",
  "6200000000000005",
]);

function issuerProblem(digits: string): string | undefined {
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  if (digits[0] === "4" && (n === 13 || n === 16 || n === 19)) return undefined;
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && n === 16) return undefined;
  if ((p2 === 34 || p2 === 37) && n === 15) return undefined;
  if ((p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649)) && n >= 16) return undefined;
  if (p4 >= 3528 && p4 <= 3589 && n >= 16) return undefined;
  if ((p2 === 36 || p2 === 38 || p2 === 39 || (p3 >= 300 && p3 <= 305)) && n >= 14) {
    return undefined;
  }
  if (p2 === 62 && n >= 16) return undefined;
  return `no issuer with prefix ${digits.slice(0, 4)} and length ${n}`;
}

function cardProblem(c: Candidate): string | undefined {
  const digits = c.secret.replace(/[ .-]/g, "");
  const issuer = issuerProblem(digits);
  if (issuer !== undefined) return issuer;
  if (!luhnValid(digits)) return "Luhn check fails";
  if (/^(\d)\1+$/.test(digits)) return "one digit repeated";
  if (TEST_CARDS.has(digits)) return "well-known test card";
  return undefined;
}

/** Luhn-valid card numbers. */
export const card: Rule = {
  id: "credit_card",
  description: "Payment card number (issuer prefix, length, Luhn)",
  placeholder: "<CARD>",
  keywords: [],
  precheck: (facts) => facts.digitCluster() >= 13,
  // The first four digits, common to every form, taken once: the same
  // matches, and a start that is no card fails once, not in every form.
  pattern: () =>
    /(?<![\d.-])\d{4}(?:\d{9,15}|([ .-])\d{4}\1\d{4}\1\d{4}(?:\1\d{3})?|([ -])\d{6}\2\d{4,5})(?!\d|[.,]\d)/dg,
  priority: 300,
  validators: [cardProblem],
  allowlist: [],
  truePositives: [
    "card 4539 1488 0343 6467 exp 12/28",
    '"number": "5425233430109903"',
    // Dotted groups.
    "card: 4539.1488.0343.6467",
  ],
  falsePositives: [
    // A test card from the Stripe docs.
    "4242 4242 4242 4242",
    // A millisecond timestamp.
    "1716912345123",
    // A 16-digit number that fails Luhn.
    "4539 1488 0343 6468",
  ],
};
