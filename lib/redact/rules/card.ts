/**
 * Payment card numbers: 13–19 digits, bare or in 4-4-4-4(-3) / 4-6-5
 * groups, with a known issuer prefix and length (Maestro and Napas, the
 * Vietnamese domestic scheme, included), passing Luhn. The test cards that payment
 * providers publish stay, however they are grouped. A card's security code
 * (CVV, CVC) goes too, where a name says so or a card number stands near.
 *
 * @module
 */

import { type Candidate, longestDigitCluster, type Rule } from "../_engine.ts";
import {
  followsDigitGroups,
  inWordList,
  isAsciiLetter,
  luhnValid,
  notDigitRun,
  notPlaceholder,
} from "../_validators.ts";
import { perText } from "../_memo.ts";
import { PUBLISHED_TEST_CARDS } from "./_published_test_cards.ts";

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
  // Maestro: 50, 56–58, 6304, 6759, 676x; 12 to 19 digits.
  if (
    (p2 === 50 || (p2 >= 56 && p2 <= 58) || p4 === 6304 || p4 === 6759 ||
      (p3 === 676 && p4 >= 6761 && p4 <= 6763)) && n >= 12
  ) return undefined;
  // Napas, the Vietnamese domestic scheme: 16 or 19 digits.
  if (p4 === 9704 && (n === 16 || n === 19)) return undefined;
  // Troy, the Turkish domestic scheme: 9792, 16 digits.
  if (p4 === 9792 && n === 16) return undefined;
  return `no issuer with prefix ${digits.slice(0, 4)} and length ${n}`;
}

function cardProblem(c: Candidate): string | undefined {
  const digits = c.secret.replace(/[ .-]/g, "");
  const issuer = issuerProblem(digits);
  if (issuer !== undefined) return issuer;
  if (!luhnValid(digits)) return "Luhn check fails";
  if (/^(\d)\1+$/.test(digits)) return "one digit repeated";
  // `DE37 5710 7128 0601 7273 24`: a valid IBAN is the IBAN rule's, an invalid one no card; nor
  // are a tracking number's groups.
  if (followsDigitGroups(c.text, c.start)) return "groups of a longer number";
  if (inWordList(PUBLISHED_TEST_CARDS, digits)) return "published test card";
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
    // A digit first, then the look back: a leading lookbehind made V8 try every offset (the
    // prefix mix: 4.1 → 0.6 ms/MiB for the rule). Not glued to a word: `toolu_01f…4446581860013`
    // is an id whose last digits may pass Luhn.
    /\d(?<![\w.-]\d)\d{3}(?:\d{9,15}|([ .-])\d{4}\1\d{4}\1\d{4}(?:\1\d{3})?|([ -])\d{6}\2\d{4,5})(?!\d|\.\d)/dg,
  priority: 300,
  validators: [cardProblem],
  allowlist: [],
  truePositives: [
    // A CSV row: the next field may start with a digit.
    "88120,vut@gmx.de,4539148803436467,129.00",
    "card 4539 1488 0343 6467 exp 12/28",
    '"number": "5425233430109903"',
    // Dotted groups.
    "card: 4539.1488.0343.6467",
    // Maestro.
    "refund card 5893 2129 9722 0033 exp 09/27",
    // Napas domestic cards: 16 digits grouped, 16 bare in JSON, 19 dashed.
    "thẻ ATM 9704 3628 1457 3022 bị trừ tiền hai lần",
    '"refund_card": "9704226190384553"',
    "the 19-digit Napas card 9704-1827-0455-9132-670",
  ],
  falsePositives: [
    // Digits that end an id.
    '{"tool_use_id": "toolu_01f854c3a1abf4446581860013"}',
    // A test card from the Stripe docs.
    "4242 4242 4242 4242",
    // Stripe's 3D Secure cards, bare and grouped, and its 2-series Mastercard.
    "cy.get('#card').type('4000002760003184')",
    "3DS challenge: 4000 0025 0000 3155, declined after auth: 4000-0084-0000-1629",
    "mastercard 2223 0031 2200 3222",
    // Braintree and Adyen sandbox cards.
    "BT_SANDBOX_CARD=4009348888881881 ADYEN_CARD=4111 1111 4555 1142",
    // A Napas-like number that fails Luhn.
    "9704 3628 1457 3023",
    // A millisecond timestamp.
    "1716912345123",
    // A 16-digit number that fails Luhn.
    "4539 1488 0343 6468",
    // The groups of an IBAN whose check digits fail.
    'assertFalse(Iban.isValid("DE37 5710 7128 0601 7273 24"))',
  ],
};

/** Whether a text holds a card number's digits (grouped or not); asked once per text. */
const holdsCardNumber = perText((text) => longestDigitCluster(text) >= 13);

/** Rejects a match that starts inside a word (`scvv`, `SPIN`): the patterns start at a name. */
function matchNotInAWord(c: Candidate): string | undefined {
  return isAsciiLetter(c.text.charCodeAt(c.matchStart - 1)) ? "inside a word" : undefined;
}

/** The names of a card's security code, in any case (`cvv`, `CVC2`, `securityCode`, `card_code`). */
const SECURITY_CODE_NAME =
  "(?:cvv2?|cvc2?|csc|cid|security[ _-]?code|card[ _-]?(?:code|verification(?:[ _-]?(?:value|code))?|security[ _-]?code))";

/**
 * A card's security code: under a key that names it (`"cvc": "123"`,
 * `<pay:cvv>230</pay:cvv>`, `securityCode=509`), or said in prose (`CVV
 * 078`, `cvc: 878`) in a text that holds a card number.
 */
export const cardSecurityCode: Rule = {
  id: "card_security_code",
  description:
    "Card security code (CVV, CVC, CSC) under a key that names it, or said next to its name in a text with a card number",
  placeholder: "<CVV>",
  keywords: ["cvv", "cvc", "csc", "cid", "security", "card"],
  startsAtKeyword: true,
  // A card number in the text, or the two names a code is mostly given under: asked before the
  // six keywords are looked for.
  precheckFirst: true,
  precheck: (facts) =>
    facts.digitCluster() >= 13 || facts.lower.includes("cvv") || facts.lower.includes("cvc"),
  pattern: () =>
    new RegExp(
      // Starts at the name (a leading lookbehind made V8 try every offset); `notInAWord` looks back.
      `(?<name>${SECURITY_CODE_NAME})(?![A-Za-z])` +
        // A key: quotes, `:`, `=`, `>` of markup; or prose: a blank, `is`, `:`.
        "(?:(?<key>\\\\{0,3}[\"']?[ \\t]{0,4}(?:[:=]|=>)|>)|(?<said>[ \\t]{1,4}(?:is[ \\t]+|:[ \\t]*)?))" +
        "[ \\t]{0,4}(?:\\\\{0,3}[\"'])?(?<secret>\\d{3,4})(?!\\d|[.,/-]\\d|[ \\t]*(?:digits|chiffres|dígitos|ziffern))",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 300,
  validators: [
    notPlaceholder,
    matchNotInAWord,
    function besideACard(c) {
      // Said in prose: the text holds a card number.
      return c.groups["key"] !== undefined || holdsCardNumber(c.text)
        ? undefined
        : "no card number in the text";
    },
  ],
  allowlist: [],
  truePositives: [
    "My card is 5514 5438 4627 9971, expiry 09/27, CVV 078. Please put the payment through.",
    '"card":{"number":"5429039858999121","expirationMonth":"03","securityCode":"509"}',
    "<pay:pan>5245952290983341</pay:pan>\n<pay:expiry>09/27</pay:expiry>\n<pay:cvv>230</pay:cvv>",
    "- card 5223 9088 4929 7514, exp 09/27, cvc 878",
  ],
  falsePositives: [
    "The CVV is 3 digits on the back (4 on Amex).",
    "cvc_length: 3, cvv_required: true",
    "CVC 737 for every Adyen test card",
    '<input name="cvc" maxlength="4" placeholder="CVC">',
  ],
};

/** What a gap between `PIN` and its digits may not hold: words about a PIN, not a PIN. */
const PIN_SPEC_WORDS =
  /\b(?:length|digits?|attempts?|retr\w*|tries|count|max\w*|min\w*|until|since|expir\w*|valid\w*|years?|dates?)\b/i;

/**
 * A PIN given in words: `PIN is 4821`, `POS admin PIN (Sapo terminal): 777718`,
 * `el PIN … es 2287`, `mã PIN là 1234`. Only the capitalised `PIN`, so that a
 * board's pins stay (`pin 13`), and never `PIN 4`, a pin's number; the words
 * between stay in one sentence and name no length, count or date.
 */
export const pinCode: Rule = {
  id: "pin_code",
  description:
    "A PIN said in words (`PIN is 4821`, `admin PIN (POS): 777718`), 4 to 8 digits, in one sentence with the capitalised word",
  placeholder: "<PIN>",
  keywords: ["pin"],
  startsAtKeyword: true,
  precheckFirst: true,
  precheck: (facts) => facts.text.includes("PIN"),
  pattern: () =>
    /PIN(?![A-Za-z]|[ \t]*#?\d)(?<gap>(?:[^\n.!?]|[.!?](?=\S)){0,80}?)(?:(?<![A-Za-z])(?:is|es|est|ist|lautet|é|là)(?![A-Za-z])|[:=])[ \t]*["']?(?<secret>\d{4,8})(?![\d.,/-]?\d)/dg,
  secretGroup: "secret",
  priority: 300,
  validators: [
    notPlaceholder,
    matchNotInAWord,
    function saysAPin(c) {
      return PIN_SPEC_WORDS.test(c.groups["gap"] ?? "")
        ? "words about a PIN, not a PIN"
        : undefined;
    },
    notDigitRun,
  ],
  allowlist: [],
  truePositives: [
    "[ops-bridge] 14:02 sam.k: for the vendor card, PIN is 4821, don't write it anywhere else",
    "- POS admin PIN (Sapo terminal, needed for refunds over 2tr): 777718",
    "el PIN que pide el terminal de supervisor para anular operaciones es 2287.",
    "SIM PIN: 7390, PUK: 51938274",
  ],
  falsePositives: [
    "Connect the sensor to PIN 4 = 1500 ms pulse",
    "PIN length: 6 digits, max attempts: 3",
    "Enter your PIN: 1234",
    "the PIN expires on: 2025",
    "spinning at: 1200 rpm",
    "PIN. The order number is 48213",
  ],
};
