/**
 * National ids other than Vietnam's (`cccd.ts`) and the US SSN (`ssn.ts`):
 * Brazil's CPF, written `000.000.000-00` and checked by its two digits, and
 * Canada's SIN, nine digits that pass Luhn, with words or a column header
 * that name it.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { idColumnKind, idColumnProblem } from "./_id_columns.ts";
import { lineBefore, luhnValid } from "../_validators.ts";

/** Whether the 11 digits of a CPF carry their two check digits. */
export function cpfValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (length: number): number => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/** Brazil's CPF, in its written form; bare 11 digits only after the word CPF. */
export const brazilCpf: Rule = {
  id: "br_cpf",
  description:
    "Brazilian CPF (000.000.000-00, or 11 digits after the word CPF), check digits valid",
  placeholder: "<NATIONAL_ID>",
  keywords: [],
  precheck: (facts) => facts.digitCluster() >= 11 || facts.lower.includes("cpf"),
  // Strings joined: the linter reads no group name twice in one literal.
  pattern: () =>
    new RegExp(
      // Formatted: a digit first, then the look back (a leading lookbehind made V8 try every offset).
      "(?<secret>\\d(?<![\\w.-]\\d)\\d{2}\\.\\d{3}\\.\\d{3}-\\d{2})(?![\\w-]|\\.\\d)" +
        // Bare, after the word: starts at the word (a literal), not at every digit.
        "|cpf[^\\n\\d]{0,40}(?<![\\w.-])(?<secret>\\d{11})(?![\\w-]|\\.\\d)",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 310,
  validators: [
    function checkDigits(c: Candidate) {
      return cpfValid(c.secret.replace(/\D/g, "")) ? undefined : "check digits fail";
    },
  ],
  allowlist: [],
  truePositives: [
    '"identification": {"type": "CPF", "number": "328.077.384-94"}',
    "chave pix (é o meu CPF): 329.513.800-11",
    "CPF do titular: 32807738494",
  ],
  falsePositives: [
    // Check digits that fail, a version, a bare number with no CPF named.
    "328.077.384-95",
    "release 100.200.300-12 built",
    "order 32807738494 shipped",
  ],
};

/** What names a SIN column or says SIN nearby. */
const SIN_COLUMN = idColumnKind(
  /(?<![a-z])sin(?![a-z])|social[ _-]?insurance|assurance[ _-]?sociale|(?<![a-z])nas(?![a-z])/i,
);

/** SIN words before the number on its line, or a column header that names it. */
function sinContext(c: Candidate): string | undefined {
  const before = lineBefore(c.text, c.start, 80);
  if (
    /(?<![A-Za-z])SIN(?![A-Za-z])|social insurance|assurance sociale|(?<![A-Za-z])NAS(?![A-Za-z])/i
      .test(before)
  ) {
    return undefined;
  }
  return idColumnProblem(c.text, c.start, c.end, SIN_COLUMN, "a SIN");
}

/** Canada's social insurance number. */
export const canadaSin: Rule = {
  id: "ca_sin",
  description: "Canadian social insurance number (9 digits, Luhn) named nearby or by its column",
  placeholder: "<NATIONAL_ID>",
  keywords: ["sin", "social insurance", "assurance sociale", "nas"],
  // `sin` stands inside many words (`using`): the whole word, or the other names, first.
  precheck: (facts) =>
    facts.digitCluster() >= 9 &&
    (facts.mayHaveWord("sin") || facts.mayHaveWord("nas") ||
      facts.lower.includes("social insurance") || facts.lower.includes("assurance sociale")),
  // A digit first, then the look back: a leading lookbehind made V8 try every offset.
  pattern: () => /(?<secret>\d(?<![\w.-]\d)\d{2}([ -]?)\d{3}\2\d{3})(?![\w-]|\.\d)/dg,
  secretGroup: "secret",
  priority: 290,
  validators: [
    function sinShape(c: Candidate) {
      const digits = c.secret.replace(/\D/g, "");
      if (digits[0] === "0" || digits[0] === "8") return `no SIN starts with ${digits[0]}`;
      return luhnValid(digits) ? undefined : "Luhn check fails";
    },
    sinContext,
  ],
  allowlist: [],
  truePositives: [
    "EmployeeNo,Surname,GivenName,SIN,Phone\n129443,Tremblay,Julie,172 975 690,(905) 638-6680",
    "Employee SIN: 131 144 123 (on file)",
  ],
  falsePositives: [
    "ticket 172 975 690 reopened",
    "EmployeeNo,SIN,Badge\n129443,on file,172975690",
  ],
};
