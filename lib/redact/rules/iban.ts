/**
 * IBANs: country code, check digits and BBAN, compact or in groups of four,
 * with the registered length for the country and a valid mod-97 check.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { mod97Valid } from "../_validators.ts";

/** Mod-97-valid IBANs. */
export const iban: Rule = {
  id: "iban",
  description: "IBAN (registered length, ISO 7064 mod-97)",
  placeholder: "<IBAN>",
  keywords: [],
  // What every IBAN the pattern finds starts with: a cheap scan before the full pattern.
  precheck: (facts) => /[A-Z]{2}\d\d ?[A-Z0-9]{4} ?[A-Z0-9]{4}/.test(facts.text),
  pattern: () =>
    /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/dg,
  priority: 300,
  validators: [
    function mod97(c) {
      return mod97Valid(c.secret) ? undefined : "mod-97 check fails or wrong length";
    },
  ],
  allowlist: [],
  truePositives: ["IBAN: GB82 WEST 1234 5698 7654 32", "pay to FR1420041010050500013M02606"],
  falsePositives: [
    // A wrong check digit.
    "GB83 WEST 1234 5698 7654 32",
    // A product code of the same shape.
    "SKU AB12CDEF3456GH",
  ],
};
