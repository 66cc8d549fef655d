/**
 * US social security numbers: `AAA-GG-SSSS` (dashes or blanks) with a
 * valid structure (no area 000, 666 or 9xx, no group 00, no serial 0000)
 * and SSN context: nearby (SSN, social security, an HL7 `PID` segment), or the header of the
 * table column it stands in (a CSV's `ssn`, however many rows down). Nine
 * bare digits count only as the value of a key or the cell of a column that
 * names an SSN. Without context a number of this shape is a part number or
 * a ticket.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { idColumnProblem, SSN_COLUMN } from "./_id_columns.ts";

/** Why `value` cannot be an SSN, or `undefined` when its structure is valid. */
export function ssnProblem(value: string): string | undefined {
  const digits = value.replace(/[ -]/g, "");
  const area = digits.slice(0, 3);
  if (area === "000" || area === "666" || area[0] === "9") return `area ${area} is never issued`;
  if (digits.slice(3, 5) === "00") return "group 00 is never issued";
  if (digits.slice(5) === "0000") return "serial 0000 is never issued";
  return undefined;
}

/** A valid area, group and serial. */
function ssnStructure(c: Candidate): string | undefined {
  return ssnProblem(c.secret);
}

/**
 * SSN context within 160 characters before the number (40 after), or else
 * the header of the column it stands in: the text's tables are read only
 * for a number with no context nearby.
 */
function ssnContext(c: Candidate): string | undefined {
  const window = c.text.slice(Math.max(0, c.start - 160), c.end + 40).toLowerCase();
  // Stripe Connect's `individual[id_number]` is a US person's SSN when it has an SSN's shape.
  if (/ssn|social[ _-]?security|soc\.? ?sec|tax[ _-]?id|taxpayer|id[ _-]?number/.test(window)) {
    return undefined;
  }
  // A payroll's rows hold each employee's SSN: a cell of one (`,089-44-3016,`), not prose.
  if (window.includes("payroll") && isDelimitedCell(c.text, c.start, c.end)) return undefined;
  // HL7 v2's patient segment: `PID|…|` holds the patient's SSN in its nineteenth field.
  if (/(?:^|[\n\r])PID\|[^\n\r]*$/.test(c.text.slice(Math.max(0, c.start - 1000), c.start))) {
    return undefined;
  }
  return idColumnProblem(c.text, c.start, c.end, SSN_COLUMN, "an SSN");
}

/** Whether `[start, end)` is a cell of a delimited row: a `,`, tab, `|` or `;` on each side. */
function isDelimitedCell(text: string, start: number, end: number): boolean {
  return /[,\t|;]/.test(text[start - 1] ?? "") && /[,\t|;]/.test(text[end] ?? "");
}

/** `AAA-GG-SSSS` with SSN context. */
export const ssn: Rule = {
  id: "us_ssn",
  description:
    "US social security number (valid area, group, serial) with SSN context nearby or in its column's header",
  placeholder: "<SSN>",
  keywords: ["ssn", "social", "tax", "id_number", "id number", "id-number", "pid|", "payroll"],
  pattern: () => /(?<=(?<![\w-])(?<head>\d{3}))(?<sep>[- ])\d{2}\k<sep>\d{4}(?![\w-])/dg,
  secretFrom: "head",
  priority: 250,
  validators: [
    ssnStructure,
    ssnContext,
  ],
  allowlist: [],
  truePositives: [
    "SSN của khách là 536-22-4817 trong hồ sơ",
    "MSH|^~\\&|EPIC|MGH|||202406110830||ADT^A04|1|P|2.5\nPID|1||E2841193^^^MGH^MR||MORALES^KATHERINE^J||19840722|F|||41 Lamartine St^^Boston^MA^02130||(212)690-7053|||S||V00918273|782-74-7592",
    "his social security number: 219 09 9999 per the form",
    "[{'holder': 'Aiko Lindqvist', 'tax_id': '468-63-1052', 'currency': 'USD'}]",
    '-d "individual[email]=marcus@fastmail.com" -d "individual[id_number]=291-26-2870"',
    // A column's cells, rows below its header.
    "id,name,ssn,start\n1,Ann Lee,219-09-9999,2024-06-03\n2,Bo Kim,536-22-4817,2024-06-03\n3,Cy Ng,412-71-3305,2024-06-03\n4,Di Oh,318-44-2209,2024-06-03",
    "$ rg -n Okafor hr/payroll_march.csv\n77:E-4410,Chidi Okafor,412-71-3305,checking,2024-03-29",
  ],
  falsePositives: [
    // Never-issued areas, groups and serials.
    "SSN 000-12-3456, 666-45-1234, 912-11-2222, 123-00-4567, 123-45-0000",
    // No context.
    "part 536-22-4817 ships Monday",
    "the payroll run for batch 536-22-4817 of store 12 is late",
    // Another column of the table, far below its header.
    "id,ssn_last4,tracking,notes\n1,4817,T-1,first row with a long note that pushes the header far away\n2,2209,T-2,a second long row of notes to push the header out of reach\n3,3305,536-22-4817,ok",
  ],
};

/**
 * Nine bare digits as the value of a key naming an SSN (`"ssn": "…"`,
 * `social_security_number=…`): forms and APIs send it without dashes.
 */
export const ssnValue: Rule = {
  id: "us_ssn_value",
  metricLabel: "us_ssn",
  description: "US social security number as nine bare digits, the value of a key naming an SSN",
  placeholder: "<SSN>",
  keywords: ["ssn", "social"],
  startsAtKeyword: true,
  // Starts at the key (a literal), then looks back for what may stand before it.
  pattern: () =>
    /(?:[Ss][Ss][Nn]|[Ss]ocial_?[Ss]ecurity(?:_?[Nn](?:o|umber))?|SOCIAL_?SECURITY(?:_?N(?:O|UMBER))?)(?<![A-Za-z](?:[Ss][Ss][Nn]|[Ss]ocial_?[Ss]ecurity(?:_?[Nn](?:o|umber))?|SOCIAL_?SECURITY(?:_?N(?:O|UMBER))?))\\{0,3}["']?[ \t]{0,4}(?:[:=]|\.{2,60})[ \t]{0,4}\\{0,3}["']?(?<secret>\d{9})(?![\w-]|\.\d)/dg,
  secretGroup: "secret",
  priority: 250,
  validators: [
    ssnStructure,
  ],
  allowlist: [],
  truePositives: [
    // A form's fields read out with dot leaders.
    "  employee_id .......... 100611\n  ssn .................. 548457027\n",
    '{"first_name": "Tyler", "dob": "1991-03-14", "ssn": "536224817"}',
    "applicant.social_security_number=219099999",
  ],
  falsePositives: [
    '{"ssn_verified": true, "order": "536224817"}',
    '{"ssn": "000123456"}',
  ],
};
