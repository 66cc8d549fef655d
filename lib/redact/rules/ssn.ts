/**
 * US social security numbers: `AAA-GG-SSSS` (dashes or blanks) with a
 * valid structure (no area 000, 666 or 9xx, no group 00, no serial 0000)
 * and SSN context nearby (SSN, social security). Without context a number of
 * this shape is a part number or a ticket.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";

/** Why `value` cannot be an SSN, or `undefined` when its structure is valid. */
export function ssnProblem(value: string): string | undefined {
  const digits = value.replace(/[ -]/g, "");
  const area = digits.slice(0, 3);
  if (area === "000" || area === "666" || area[0] === "9") return `area ${area} is never issued`;
  if (digits.slice(3, 5) === "00") return "group 00 is never issued";
  if (digits.slice(5) === "0000") return "serial 0000 is never issued";
  return undefined;
}

function ssnContext(c: Candidate): string | undefined {
  const window = c.text.slice(Math.max(0, c.start - 80), c.end + 40).toLowerCase();
  return /ssn|social[ _-]?security|soc\.? ?sec/.test(window)
    ? undefined
    : "no SSN context within 80 characters";
}

/** `AAA-GG-SSSS` with SSN context. */
export const ssn: Rule = {
  id: "us_ssn",
  description: "US social security number (valid area, group, serial) with SSN context",
  placeholder: "<SSN>",
  keywords: ["ssn", "social"],
  pattern: () => /(?<=(?<![\w-])(?<head>\d{3}))(?<sep>[- ])\d{2}\k<sep>\d{4}(?![\w-])/dg,
  secretFrom: "head",
  priority: 250,
  validators: [
    function ssnStructure(c) {
      return ssnProblem(c.secret);
    },
    ssnContext,
  ],
  allowlist: [],
  truePositives: [
    "SSN của khách là 536-22-4817 trong hồ sơ",
    "his social security number: 219 09 9999 per the form",
  ],
  falsePositives: [
    // Never-issued areas, groups and serials.
    "SSN 000-12-3456, 666-45-1234, 912-11-2222, 123-00-4567, 123-45-0000",
    // No context.
    "part 536-22-4817 ships Monday",
  ],
};
