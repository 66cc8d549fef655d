/**
 * Two-factor recovery (backup) codes, listed under words that say so:
 * GitHub's and GitLab's `xxxxx-xxxxx`, Google's eight digits (also `1234
 * 5678`), Nextcloud's ten capitals and digits, the `XXXX-XXXX` of many others. Each code logs in once in place of
 * the second factor, so a list of them is as good as the account's password.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";

/** Words that name a list of recovery codes, in the languages the prose rules read. */
const RECOVERY_WORDS =
  /(?:recovery|backup|2fa|mfa|two-factor|one-time|scratch)[ _-](?:verification[ _-])?codes?|codes? de (?:r[ée]cup[ée]ration|secours|recupera[cç][aã]o|respaldo)|wiederherstellungscodes?|backup-codes?|mã (?:khôi phục|dự phòng)|リカバリーコード|恢复码|备用码|복구 코드/i;

/** A code alone on its line, or an item of a list: a dash, bullet or number may open it. */
const CODE_LINE = "(?<=(?:^|\\n|\\\\n)[ \\t]{0,8}(?:[-*•]|\\d{1,2}[.)])?[ \\t]{0,4})";

/**
 * Whether the line before or after holds a code of ten capitals with a
 * digit: a list of random codes, where words (`ESCALATION`) hold none.
 */
function nextToACode(c: { text: string; start: number; end: number }): boolean {
  const around = c.text.slice(Math.max(0, c.start - 13), c.end + 13);
  return /(?:^|\n)(?=[A-Z]{0,9}\d)[A-Z0-9]{10}\r?\n[A-Z]{10}(?:\r?\n|$)|(?:^|\n)[A-Z]{10}\r?\n(?=[A-Z]{0,9}\d)[A-Z0-9]{10}(?:\r?\n|$)/
    .test(around);
}

/** Recovery codes listed under words that say so. */
export const recoveryCode: Rule = {
  id: "recovery_code",
  description:
    "Two-factor recovery or backup codes listed under words that say so (xxxxx-xxxxx, 8 digits, XXXX-XXXX)",
  placeholder: "<RECOVERY_CODE>",
  keywords: [
    "recovery",
    "backup",
    "2fa",
    "mfa",
    "two-factor",
    "one-time",
    "scratch",
    "code de",
    "codes de",
    "wiederherstellungscode",
    "mã khôi phục",
    "mã dự phòng",
    "リカバリーコード",
    "恢复码",
    "备用码",
    "복구 코드",
  ],
  precheck: (facts) => RECOVERY_WORDS.test(facts.lower),
  pattern: () =>
    new RegExp(
      CODE_LINE +
        // Nextcloud's and others' ten capitals and digits.
        "(?<secret>[a-z0-9]{4,6}-[a-z0-9]{4,6}|[A-Z0-9]{4,5}-[A-Z0-9]{4,5}(?:-[A-Z0-9]{4,5})?|\\d{4} ?\\d{4}|[A-Z0-9]{10})" +
        // Google prints two codes a line, each numbered in its downloaded file.
        "(?=[ \\t]*(?:\\r?\\n|\\\\n|$)|[ \\t]{2,8}(?:\\d{1,2}[.)][ \\t]{1,4})?\\d{4} ?\\d{4})" +
        "|(?<=(?:^|\\n|\\\\n)[ \\t]{0,8}(?:\\d{1,2}[.)][ \\t]{1,4})?\\d{4} ?\\d{4}[ \\t]{2,8}(?:\\d{1,2}[.)][ \\t]{1,4})?)" +
        "(?<secret>\\d{4} ?\\d{4})(?=[ \\t]*(?:\\r?\\n|\\\\n|$))",
      "dg",
    ),
  secretGroup: "secret",
  priority: 420,
  validators: [
    function listedAsRecoveryCodes(c) {
      // The words stand above the list: within 600 characters before the code.
      const before = c.text.slice(Math.max(0, c.start - 600), c.start);
      if (!RECOVERY_WORDS.test(before)) return "no recovery codes named above";
      // `20240517`: a date.
      if (/^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$/.test(c.secret)) return "a date";
      // Ten capitals without a digit count next to a code with one.
      if (!/\d/.test(c.secret) && !nextToACode(c)) return "no digit";
      // `2024-2025`, `0900-1700`: years and hours; a code with a dash holds a letter too.
      return c.secret.includes("-") && !/[A-Za-z]/.test(c.secret) ? "digits and a dash" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "these are the recovery codes for the org owner account:\n\nb7ac1-eb800\n4097c-ea6e7\na6b68-2cf48\n",
    "Google backup codes (each works once):\n1. 4817 2265\n2. 9034 1178\n",
    "Backup codes\n\n  5531 9028    7714 3002\n  1208 4471    6630 9125\n",
    "BACKUP VERIFICATION CODES\n\n1. 4829 1175    2. 6603 9142\n3. 3387 0051    4. 7719 2286\n",
    "MFA recovery codes:\n- K7QF-2ZLM-9XW4\n- T8VB-R3NP-6HCD\n",
    "Backup codes for user marco (generated 2024-10-02):\nEVNABNP36Z\nPYMUDYFBNB\nW88B4DBKWO\n",
  ],
  falsePositives: [
    "Recovery codes are shown once; we keep ours in the vault.\nSupport hours:\n2024-2025\n0900-1700",
    "backup codes regenerate on rotation\n\nrelease notes\nabcde-fghij\n",
    "Recovery code length: 10\n\nports:\n  - 8080\n",
    "Backup codes: see the vault.\nESCALATION\nOPERATIONS\n",
  ],
};
