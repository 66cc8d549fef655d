/**
 * Two-factor recovery (backup) codes, listed under words that say so:
 * GitHub's and GitLab's `xxxxx-xxxxx`, Google's eight digits (also `1234
 * 5678`), Nextcloud's ten capitals and digits, the `XXXX-XXXX` of many others. Each code logs in once in place of
 * the second factor, so a list of them is as good as the account's password.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";

/**
 * Words that name a list of recovery codes, in English, French, Spanish,
 * Portuguese, German and Vietnamese. No CJK: a keyword byte pairs cannot
 * rule out costs every long text a search.
 */
const RECOVERY_WORDS =
  /(?:recovery|backup|2fa|mfa|two-factor|one-time|scratch)[ _-](?:verification[ _-])?codes?|codes? de (?:r[ée]cup[ée]ration|secours|recupera[cç][aã]o|respaldo)|wiederherstellungscodes?|backup-codes?|mã (?:khôi phục|dự phòng)/i;

/** A word each name of {@linkcode RECOVERY_WORDS} holds. */
const RECOVERY_HINTS = [
  "recovery",
  "backup",
  "2fa",
  "mfa",
  "two-factor",
  "one-time",
  "scratch",
  "cup",
  "secours",
  "respaldo",
  "wiederherstellung",
  "khôi phục",
  "dự phòng",
];

/** What opens a code's line: blanks, and a list's dash, bullet or number. */
const CODE_LINE_START = "[ \\t]{0,8}(?:[-*•]|\\d{1,2}[.)])?[ \\t]{0,4}";

/**
 * Whether the line before or after holds a code of the same shape with a
 * digit: a list of random codes, where words (`ESCALATION`) hold none.
 */
function nextToACode(c: { text: string; start: number; end: number; secret: string }): boolean {
  const shape = shapeOf(c.secret);
  const lineStart = c.text.lastIndexOf("\n", c.start - 1);
  const lineEnd = c.text.indexOf("\n", c.end);
  // Its own line too: some lists print two codes a line.
  const lines = [lineAround(c.text, c.start)];
  if (lineStart >= 0) lines.push(lineAround(c.text, lineStart - 1));
  if (lineEnd >= 0) lines.push(lineAround(c.text, lineEnd + 1));
  return lines.some((line) =>
    line.split(/\s+/).some((word) => {
      const code = word.replace(/^(?:[-*•]|\d{1,2}[.)])/, "");
      return code !== c.secret && shapeOf(code) === shape && /\d/.test(code);
    })
  );
}

/** A code's shape: each letter or digit an `x` (`ab1cd-e2fgh` → `xxxxx-xxxxx`). */
function shapeOf(code: string): string {
  return code.replace(/[A-Za-z0-9]/g, "x");
}

/** The line of `text` that holds offset `at`. */
function lineAround(text: string, at: number): string {
  const end = text.indexOf("\n", at);
  return text.slice(text.lastIndexOf("\n", at - 1) + 1, end < 0 ? text.length : end);
}

/** Recovery codes listed under words that say so. */
export const recoveryCode: Rule = {
  id: "recovery_code",
  description:
    "Two-factor recovery or backup codes listed under words that say so (xxxxx-xxxxx, 8 digits, XXXX-XXXX)",
  placeholder: "<RECOVERY_CODE>",
  // Every name holds `code` or `mã `: two lookups, not one for each name (12 searches of every 4 KB
  // prompt cost 18 µs).
  keywords: ["code", "mã "],
  // Every name above holds `code` or `mã `; the words themselves are looked for before each
  // candidate only (a search of the whole text for them cost the prefix mix 1.5 ms a 256 KiB).
  precheck: (facts) =>
    (facts.lower.includes("code") || facts.lower.includes("mã ")) &&
    RECOVERY_HINTS.some((word) => facts.lower.includes(word)),
  // Each alternative starts at a line break or a digit, not at a lookbehind: that made V8 try
  // every offset (the prefix mix).
  pattern: () =>
    new RegExp(
      `(?:^|\\n|\\\\n)${CODE_LINE_START}` +
        "(?<secret>[a-z0-9]{4,6}(?:-[a-z0-9]{4,6}){1,3}|[A-Z0-9]{4,5}-[A-Z0-9]{4,5}(?:-[A-Z0-9]{4,5})?|\\d{4} ?\\d{4}|[A-Z0-9]{10})" +
        // Google prints two codes a line, each numbered in its downloaded file.
        "(?=[ \\t]*(?:\\r?\\n|\\\\n|$)|[ \\t]{2,8}(?:\\d{1,2}[.)][ \\t]{1,4})?(?:\\d{4} ?\\d{4}|[a-z0-9]{4,6}-[a-z0-9]{4,6}))" +
        // The second code of a line of two: from the blanks before it (a leading class would be
        // tried at every offset).
        "|[ \\t]{2,8}(?<secret>[a-z0-9]{4,6}-[a-z0-9]{4,6})(?<=(?:^|\\n|\\\\n)[ \\t]{0,8}[a-z0-9]{4,6}-[a-z0-9]{4,6}[ \\t]{2,8}[a-z0-9]{4,6}-[a-z0-9]{4,6})" +
        "(?=[ \\t]*(?:\\r?\\n|\\\\n|$))" +
        "|(?<secret>\\d{4} ?\\d{4})(?<=(?:^|\\n|\\\\n)[ \\t]{0,8}(?:\\d{1,2}[.)][ \\t]{1,4})?\\d{4} ?\\d{4}[ \\t]{2,8}(?:\\d{1,2}[.)][ \\t]{1,4})?\\d{4} ?\\d{4})" +
        "(?=[ \\t]*(?:\\r?\\n|\\\\n|$))",
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
      // A code without a digit counts next to one of its shape with a digit.
      if (!/\d/.test(c.secret) && !nextToACode(c)) return "no digit";
      // `2024-2025`, `0900-1700`: years and hours; a code of four digits, a dash and four more
      // holds a letter too (five and five, GitHub's, may not).
      return /^\d{4}-\d{4}$/.test(c.secret) ? "digits and a dash" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "these are the recovery codes for the org owner account:\n\nb7ac1-eb800\n4097c-ea6e7\na6b68-2cf48\n",
    "Google backup codes (each works once):\n1. 4817 2265\n2. 9034 1178\n",
    "Backup codes\n\n  5531 9028    7714 3002\n  1208 4471    6630 9125\n",
    "BACKUP VERIFICATION CODES\n\n1. 4829 1175    2. 6603 9142\n3. 3387 0051    4. 7719 2286\n",
    "MFA recovery codes:\n- K7QF-2ZLM-9XW4\n- T8VB-R3NP-6HCD\n",
    "Shopify staff account recovery codes:\n\ncta74-qje5h\nysgtu-njbvm\n",
    "Backup codes for user marco (generated 2024-10-02):\nEVNABNP36Z\nPYMUDYFBNB\nW88B4DBKWO\n",
    "Your new backup codes, each works once:\n\n    k4m2-qwrt    zpln-x8vd\n    7hd3-mnbq    rtye-wq2z\n",
    "GitHub recovery codes\n8e4a1-c09f2\n51287-93046\n",
    "Cloudflare backup codes\nk4m2-qw7t-zpln-x8vd\n7hd3-mnbq-rtye-wq2z\n",
  ],
  falsePositives: [
    "Recovery codes are shown once; we keep ours in the vault.\nSupport hours:\n2024-2025\n0900-1700",
    "backup codes regenerate on rotation\n\nrelease notes\nabcde-fghij\n",
    "Recovery code length: 10\n\nports:\n  - 8080\n",
    "Backup codes: see the vault.\nESCALATION\nOPERATIONS\n",
  ],
};
