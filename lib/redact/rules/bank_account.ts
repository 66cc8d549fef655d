/**
 * Bank account numbers under a label that names one (`Account number:`,
 * `acct no`, `account_number ....`, `Account` after a BSB or a sort code,
 * `Kontonummer`), 6 to 17 digits, with a bank named nearby
 * (a bank, BSB, routing number, sort code, IBAN, SWIFT/BIC, a checking or
 * savings account, a direct deposit). An account number alone is as often a
 * cloud account, a customer's or an order's. Vietnamese transfer details
 * (`STK … Techcombank`) are left as the Vietnamese rules have them: a
 * receipt's account is the payee's, given to be paid.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { notDigitRun, notPlaceholder } from "../_validators.ts";

/** Words that say a bank is meant, in the label's language or another. */
const BANK_WORDS =
  /bank|\bbsb\b|routing|\baba\b|sort[ _-]?code|\biban\b|\bswift\b|\bbic\b|checking|savings|direct[ _-]?deposit|wire[ _-]?transfer|banque|banco|bancari|kreditinstitut|\bblz\b/;

/** A bank named within 200 characters before the number or 80 after. */
function bankNearby(c: Candidate): string | undefined {
  const window = c.text.slice(Math.max(0, c.start - 200), c.end + 80).toLowerCase();
  return BANK_WORDS.test(window) ? undefined : "no bank named nearby";
}

/** An account number under its label, with a bank named nearby. */
export const bankAccount: Rule = {
  id: "bank_account_number",
  description:
    "Bank account number (6 to 17 digits) under a label naming one, with a bank, BSB, routing number, sort code or IBAN nearby",
  placeholder: "<BANK_ACCOUNT>",
  keywords: [
    "account",
    "acct",
    "a/c",
    "kontonummer",
    "numéro de compte",
    "número de cuenta",
    "número da conta",
  ],
  // The match starts at the label: in a long text only those offsets are tried.
  startsAtKeyword: true,
  precheck: (facts) => BANK_WORDS.test(facts.lower),
  pattern: () =>
    /(?<![\p{L}\d])(?:(?:account|acct|a\/c)(?:[ _-]?(?:number|num|nr|no\.?|#))?|kontonummer|num[ée]ro de compte|n[úu]mero de (?:cuenta|conta))(?![\p{L}\d_])\\{0,3}["']?[ \t]{0,4}(?:[:=#]|\.{2,60}|is(?![\p{L}\d_]))?[ \t]{0,4}\\{0,3}["']?(?<secret>\d(?:[ -]?\d){5,16})(?![\d-]|[.,]\d)/dgiu,
  secretGroup: "secret",
  priority: 260,
  validators: [notPlaceholder, notDigitRun, bankNearby],
  allowlist: [],
  truePositives: [
    "Tax file number: (in vault)\nBank: BSB 062-000  Account 313410778\nMobile: (in vault)",
    "  bank_name ............ Chase\n  routing_number ....... 021000021\n  account_number ....... 5199834747\n  account_type ......... checking",
    "Please pay the invoice to Account number: 41234567, sort code 20-00-00 (Barclays).",
    "Direct deposit: routing 021000021, acct no 000123456789",
    "Kontonummer: 0532013000, BLZ 37040044 (Commerzbank)",
    '{"bank_account_number": "2000145632", "bank": "ING"}',
  ],
  falsePositives: [
    "Chuyển khoản thành công 5.000.000đ tới STK 0071000123456 Techcombank, nội dung: thanh toan",
    // No bank named: a cloud account, an order.
    "The AWS account number 123456789012 owns the bucket.",
    "Account 553812 placed order 77812 on Tuesday.",
    // A bank named, but no number under the label, or a count.
    "Bank account numbers are 8 digits in the UK; sort codes 6.",
    "bank accounts: 12 of 40 reconciled",
    // Examples.
    "bank account number: 12345678",
  ],
};
