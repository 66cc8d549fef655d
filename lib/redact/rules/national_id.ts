/**
 * National ids other than Vietnam's (`cccd.ts`) and the US SSN (`ssn.ts`):
 * Brazil's CPF, written `000.000.000-00` and checked by its two digits;
 * Canada's SIN, nine digits that pass Luhn; and, in two rules by the
 * character they start with, India's PAN and Aadhaar, the UK's national
 * insurance number, Australia's tax file number, Italy's codice fiscale,
 * Japan's My Number, Ireland's PPS number and South Africa's id number,
 * each checked by its own check digit or letter where it has one. All but
 * the CPF need words or a column header that name them: the shapes alone
 * are part numbers and tickets as often.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { type IdColumnKind, idColumnKind, idColumnProblem } from "./_id_columns.ts";
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

/** Verhoeff's tables: the dihedral group D5's products, and the position permutations. */
const VERHOEFF_D = [
  "0123456789",
  "1234067895",
  "2340178956",
  "3401289567",
  "4012395678",
  "5987604321",
  "6598710432",
  "7659821043",
  "8765932104",
  "9876543210",
];
const VERHOEFF_P = [
  "0123456789",
  "1576283094",
  "5803796142",
  "8916043527",
  "9453126870",
  "4286573901",
  "2793806415",
  "7046913258",
];

/** Whether a string of digits ends in its Verhoeff check digit (Aadhaar's). */
export function verhoeffValid(digits: string): boolean {
  let check = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[digits.length - 1 - i]);
    check = Number(VERHOEFF_D[check]![Number(VERHOEFF_P[i % 8]![digit])]);
  }
  return check === 0;
}

/**
 * What a character of the codice fiscale counts at an odd position (1st,
 * 3rd…), as the letter of that value: digits 0 to 9 count as A to J do.
 */
const CF_ODD_VALUES = "BAFHJNPRTVCESULDGIMOQKWZYX";

/** Whether a 16-character Italian codice fiscale carries its check letter. */
export function codiceFiscaleValid(code: string): boolean {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = code.charCodeAt(i);
    const index = c >= 48 && c <= 57 ? c - 48 : c - 65;
    sum += i % 2 === 1 ? index : CF_ODD_VALUES.charCodeAt(index) - 65;
  }
  return code.charCodeAt(15) === 65 + (sum % 26);
}

/** Whether nine digits make an Australian tax file number (weighted sum divisible by 11). */
export function tfnValid(digits: string): boolean {
  const weights = [1, 4, 3, 7, 5, 8, 6, 9, 10];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * weights[i]!;
  return sum % 11 === 0;
}

/** Whether twelve digits make a Japanese My Number (individual number), check digit last. */
export function myNumberValid(digits: string): boolean {
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += Number(digits[11 - n]) * (n <= 6 ? n + 1 : n - 5);
  const rest = sum % 11;
  return Number(digits[11]) === (rest <= 1 ? 0 : 11 - rest);
}

/** Whether an Irish PPS number (7 digits, a check letter, maybe a second letter) checks. */
export function ppsnValid(ppsn: string): boolean {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(ppsn[i]) * (8 - i);
  const second = ppsn[8];
  if (second !== undefined && second !== "W") sum += 9 * (second.charCodeAt(0) - 64);
  const rest = sum % 23;
  return ppsn[7] === (rest === 0 ? "W" : String.fromCharCode(64 + rest));
}

/** Whether thirteen digits make a South African id number: a real birth date, Luhn's check. */
export function saIdValid(digits: string): boolean {
  const month = Number(digits.slice(2, 4));
  const day = Number(digits.slice(4, 6));
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  if (digits[10] !== "0" && digits[10] !== "1") return false;
  return luhnValid(digits);
}

/**
 * A national id of one country: its shape and check, and the words or the
 * column that name it (the shapes alone are part numbers and tickets as
 * often).
 */
interface NationalIdKind {
  /** What the reasons call it. */
  what: string;
  /** Words on the line before the value that name it. */
  words: RegExp;
  /** The names of its column. */
  column: IdColumnKind;
  /** Whether the value (blanks and dashes kept) is one: its shape and its check. */
  valid: (value: string) => boolean;
}

/** The value's digits and letters, blanks and dashes left out. */
function compact(value: string): string {
  return value.replace(/[ -]/g, "");
}

/**
 * Ids led by a digit: India's Aadhaar, Japan's My Number, Australia's tax
 * file number, South Africa's id number, Ireland's PPS number. Made at the
 * first candidate, as {@linkcode letterIds} are: the hook loads every rule
 * and runs a few, and these tables cost its start 0.15 ms.
 */
const digitIds = (): readonly NationalIdKind[] => [
  {
    what: "an Aadhaar",
    words: /aadh?aar|uidai|आधार/i,
    column: idColumnKind(/aadh?aar|uid[ _-]?no/i),
    valid: (value) => {
      const digits = compact(value);
      return /^[2-9]\d{11}$/.test(digits) && verhoeffValid(digits);
    },
  },
  {
    what: "a My Number",
    words: /マイナンバー|個人番号|my[ _-]?number/i,
    column: idColumnKind(/マイナンバー|個人番号|my[ _-]?number/i),
    valid: (value) => {
      const digits = compact(value);
      return /^\d{12}$/.test(digits) && myNumberValid(digits);
    },
  },
  {
    what: "a tax file number",
    words: /tax file|(?<![A-Za-z])TFN(?![A-Za-z])/i,
    column: idColumnKind(/(?<![a-z])tfn(?![a-z])|tax[ _-]?file/i),
    valid: (value) => {
      const digits = compact(value);
      return /^\d{9}$/.test(digits) && tfnValid(digits);
    },
  },
  {
    what: "an id number",
    words: /id[ _-]?(?:number|no\b)|identity number|(?:rsa|sa) id/i,
    column: idColumnKind(/id[ _-]?(?:number|no)(?![a-z])|identity[ _-]?number/i),
    valid: (value) => /^\d{13}$/.test(value) && saIdValid(value),
  },
  {
    what: "a PPS number",
    words: /ppsn|pps (?:number|no)|personal public service/i,
    column: idColumnKind(/ppsn|pps[ _-]?(?:number|no)/i),
    valid: (value) => /^\d{7}[A-W][A-IW]?$/.test(value) && ppsnValid(value),
  },
];

/**
 * Ids led by a letter: India's PAN (the fourth letter the holder's kind),
 * the UK's national insurance number (prefixes never issued left out),
 * Italy's codice fiscale.
 */
const letterIds = (): readonly NationalIdKind[] => [
  {
    what: "a PAN",
    words:
      /(?<![A-Za-z])PAN(?![A-Za-z])|(?<![a-z])pan(?:[ _-]?(?:no|number|card))?["']?\s*[:=]|permanent account/i,
    column: idColumnKind(/(?<![a-z])pan(?![a-z])|pan[ _-]?(?:no|number)|permanent[ _-]?account/i),
    valid: (value) => /^[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]$/.test(value),
  },
  {
    what: "a national insurance number",
    words: /national insurance|(?<![A-Za-z])NINO(?![A-Za-z])|(?<![A-Za-z])NI[ _-]?(?:number|no)\b/i,
    column: idColumnKind(
      /(?<![a-z])nino(?![a-z])|national[ _-]?insurance|(?<![a-z])ni[ _-]?(?:number|no)(?![a-z])/i,
    ),
    valid: (value) =>
      /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]$/.test(value) &&
      !/^(?:BG|GB|NK|KN|TN|NT|ZZ)/.test(value),
  },
  {
    what: "a codice fiscale",
    words: /fiscale|fiscal code|tax code|cod\. ?fisc|codfisc|(?<![A-Za-z])C\.?F\.?(?![A-Za-z])/i,
    column: idColumnKind(/fiscale|codfisc|fiscal[ _-]?code|tax[ _-]?code|(?<![a-z])cf(?![a-z])/i),
    valid: (value) =>
      /^[A-Z]{6}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z]$/.test(value) && codiceFiscaleValid(value),
  },
];

/**
 * The kind a candidate is: one whose shape and check hold, named on the
 * line before or by the column it stands in.
 */
function namedIdOf(
  makeKinds: () => readonly NationalIdKind[],
): (c: Candidate) => string | undefined {
  let kinds: readonly NationalIdKind[] | undefined;
  return function namedId(c: Candidate): string | undefined {
    const before = lineBefore(c.text, c.start, 120);
    let checked = false;
    for (const kind of kinds ??= makeKinds()) {
      if (!kind.valid(c.secret)) continue;
      checked = true;
      if (kind.words.test(before)) return undefined;
      if (idColumnProblem(c.text, c.start, c.end, kind.column, kind.what) === undefined) {
        return undefined;
      }
    }
    return checked
      ? "no national id named nearby, nor its column"
      : "no national id's shape and check hold";
  };
}

/** Names of the digit-led ids but the PPS number (whose seven digits no digit cluster counts). */
const DIGIT_ID_NAMES = [
  "aadhaar",
  "aadhar",
  "uidai",
  "आधार",
  "マイナンバー",
  "個人番号",
  "my number",
  "mynumber",
  "my_number",
  "tax file",
  "tfn",
  "id number",
  "id_number",
  "idnumber",
  "identity number",
  "id no",
  "rsa id",
  "sa id",
];

/** Names of Ireland's PPS number. */
const PPS_NAMES = ["ppsn", "pps number", "pps no", "pps_no", "personal public service"];

/** Names of the letter-led ids but `pan` and `cf`, which stand inside other words. */
const LETTER_ID_NAMES = [
  "permanent account",
  "national insurance",
  "nino",
  "ni number",
  "ni no",
  "ni_number",
  "ni_no",
  "fiscale",
  "fiscal code",
  "tax code",
  "cod. fisc",
  "codfisc",
];

/**
 * National ids led by a digit, one rule (one scan of the text) for five
 * countries: seven digits and a letter (a PPS number), nine digits in
 * threes (a tax file number), twelve in fours (an Aadhaar, a My Number),
 * thirteen bare (a South African id number).
 */
export const digitNationalId: Rule = {
  id: "national_id_digits",
  metricLabel: "national_id",
  description:
    "Indian Aadhaar (Verhoeff), Japanese My Number, Australian tax file number, South African id number (birth date, Luhn) or Irish PPS number: its check holds and it is named nearby or by its column",
  placeholder: "<NATIONAL_ID>",
  keywords: [...DIGIT_ID_NAMES, ...PPS_NAMES],
  // Nine digits or more in a row (their groups joined), or a PPS number's seven and its name.
  precheck: (facts) =>
    facts.digitCluster() >= 9 || PPS_NAMES.some((name) => facts.lower.includes(name)),
  // A digit first, then the look back: a leading lookbehind made V8 try every offset.
  pattern: () =>
    /\d(?<![\w.-]\d)(?:\d{6}[A-W][A-IW]?|\d{2}([ -]?)\d{3}\1\d{3}|\d{3}([ -]?)\d{4}\2\d{4}\d?)(?![\w-]|\.\d)/dg,
  priority: 300,
  validators: [namedIdOf(digitIds)],
  allowlist: [],
  truePositives: [
    'kyc: {"aadhaar": "2345 6789 0124", "verified": true}',
    "Aadhaar no. 4839 2715 6084 linked to the account",
    "マイナンバー: 1234 5678 9018\n扶養: 2",
    "employee_no,name,my_number\nJ-4,Sato,123456789018",
    "Tax file number: 123 456 782 (declaration lodged)",
    'super = {"member": "Noah Price", "tfn": "123456782"}',
    'raise InvalidIDNumber(f"bad checksum for {emp.id_number}")\nInvalidIDNumber: bad checksum for 9202204720083',
    "SA ID: 9202204720083 (verified at onboarding)",
    "  ppsn: 1234567T\n  tax_credits: 76.92",
    "PPS number 1234567FA on the P60",
  ],
  falsePositives: [
    // Checks that fail, or a valid number no id names.
    "Aadhaar no. 4839 2715 6085 linked to the account",
    "invoice 4839 2715 6084 paid",
    "マイナンバー: 1234 5678 9017",
    "注文番号 1234 5678 9018",
    "Tax file number: 123 456 783 (declaration lodged)",
    "order 123 456 782 dispatched",
    "SA ID: 9202204720082 (verified at onboarding)",
    "SA ID: 9213204720083",
    "build 9202204720083 passed",
    "  ppsn: 1234567K\n  tax_credits: 76.92",
    "ticket 1234567T closed",
  ],
};

/** National ids led by a letter, one rule for three countries: India's PAN, the UK's NINO, Italy's codice fiscale. */
export const letterNationalId: Rule = {
  id: "national_id_letters",
  metricLabel: "national_id",
  description:
    "Indian PAN (five letters, four digits, a letter), UK national insurance number (two letters, six digits, A to D) or Italian codice fiscale (check letter): named nearby or by its column",
  placeholder: "<NATIONAL_ID>",
  keywords: [...LETTER_ID_NAMES, "pan", "cf"],
  // `pan` and `cf` stand inside many words (`company`, `cfg`): the whole word, or another name.
  precheck: (facts) =>
    facts.mayHaveWord("pan") || facts.mayHaveWord("cf") ||
    LETTER_ID_NAMES.some((name) => facts.lower.includes(name)),
  // A letter first, then the look back: a leading lookbehind made V8 try every offset.
  pattern: () =>
    /[A-Z](?<![\w-][A-Z])(?:[A-Z]{2}[ABCFGHJLPT][A-Z]\d{4}[A-Z]|[A-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]|[A-Z]{5}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z])(?![\w-])/dg,
  priority: 300,
  validators: [namedIdOf(letterIds)],
  allowlist: [],
  truePositives: [
    'employee = {"name": "Ravi Iyer", "pan": "AKQPR4821M", "city": "Pune"}',
    "PAN of the director: BXTPS6093K (as on the filing)",
    "emp_id,name,pan,ifsc\nE-101,Asha Rao,DRWPA7315Q,HDFC0000123",
    "Her NI number on the P45 reads JW 48 21 77 B, please update the record",
    "staff_id,name,nino\nS-12,Owen Hale,PX482117C",
    "Codice fiscale del cliente: RSSMRA85T10A562S",
    "matricola;cognome;codice_fiscale\nM-7;Verdi;RSSMRA85T10A562S",
  ],
  falsePositives: [
    // A holder kind, a prefix or a check letter that cannot be; a valid shape no id names.
    'payload = {"pan": "AKQXR4821M"}',
    "part ABCPD1234E ships Monday",
    "NI number GB 48 21 77 B",
    "route JW 48 21 77 B closed",
    "Codice fiscale del cliente: RSSMRA85T10A562T",
    "SKU RSSMRA85T10A562S in stock",
  ],
};
