/**
 * Phone numbers in phone formats: `+` international, national numbers with
 * a trunk `0` and separators or parentheses (UK, FR, DE, VN `(02x)`
 * landlines, `0xxx xxx xxx`), Vietnamese mobiles written bare
 * (`0[35789]xxxxxxxx`), and North American `(212) 555-0100` /
 * `212-555-0100`, displayed or as a `tel:` link. Bare digit runs, dates,
 * times, versions, IPs, ISBNs and money never match: each form needs its
 * trunk prefix or separators.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { followsDigitGroups, named, remembered } from "../_validators.ts";

function digitCount(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

function digitsBetween(min: number, max: number): (c: Candidate) => string | undefined {
  return named(`digitsBetween(${min}, ${max})`, (c: Candidate) => {
    const n = digitCount(c.secret);
    return n < min || n > max ? `${n} digits outside ${min}–${max}` : undefined;
  });
}

/** A phone label ending just before a number: `No. HP:`, `Phone`, `SĐT:`, `WhatsApp -`. */
const PHONE_LABEL =
  /(?:phone|tel|telp|telepon|mobile|cell|hp|wa|nomor(?: wa| hp)?(?: saya)?|sđt|sdt|điện thoại|dien thoai|whatsapp|zalo|handy|telefon[eo]?|teléfono|téléphone|電話)\.?[ \t]*(?:no\.?|number|#)?[ \t]*[:=-]?[ \t]*$/i;

/**
 * A national number has 9 to 11 digits; 12 or 13 (Indonesia's `0812-2916-7672`)
 * only right after a label that says phone: unlabelled, so long a number is
 * an id or an account.
 */
function nationalDigits(c: Candidate): string | undefined {
  const n = digitCount(c.secret);
  if (n >= 9 && n <= 11) return undefined;
  if (n <= 13 && n >= 12 && PHONE_LABEL.test(c.text.slice(Math.max(0, c.start - 24), c.start))) {
    return undefined;
  }
  return `${n} digits outside 9–11, or 12–13 after a phone label`;
}

// Both checks run for every candidate of text dense with numbers: a loop and
// `includes`, not a match array and a pattern each (phone numbers repeated:
// 10 → 3 ms a MiB).
function notDecimal(c: Candidate): string | undefined {
  let separators = 0;
  let dot = false;
  for (let i = 0; i < c.secret.length; i++) {
    const char = c.secret[i];
    if (char === " " || char === "." || char === "(" || char === ")" || char === "-") {
      separators++;
      dot = char === ".";
    }
  }
  return separators === 1 && dot ? "decimal number" : undefined;
}

function notDate(c: Candidate): string | undefined {
  const { secret } = c;
  // Every date form has a `-`, `.` or `/`.
  if (!secret.includes("-") && !secret.includes(".") && !secret.includes("/")) return undefined;
  // A date's parts are a day, a month and a year: India's `+91-22-2569-4964` has the shape.
  return /(?:19|20)\d{2}-[01]\d-[0-3]\d|[0-3]\d[./-][0-3]\d[./-](?:19|20)\d{2}/.test(secret)
    ? "date"
    : undefined;
}

/** `+CC …`. */
export const phoneInternational: Rule = {
  id: "phone_international",
  metricLabel: "phone",
  description: "International phone number starting with +",
  placeholder: "<PHONE>",
  keywords: ["+"],
  precheck: (facts) => facts.digitCluster() >= 8,
  pattern: () => /(?<![\w+])\+[1-9](?:[ .()-]{0,2}\d){7,14}(?!\d)/dg,
  priority: 150,
  validators: [
    digitsBetween(8, 15),
    notDate,
    function notASum(c) {
      // `+15.000.000` on a bank statement: thousands grouped by dots, a credit.
      const digits = c.secret.replace(/\D/g, "").length;
      return /^\+\d{1,3}(?:\.\d{3})+$/.test(c.secret) && digits < 11 ? "a sum" : undefined;
    },
    function notADecimal(c) {
      // `+10.776889,+106.700806`: a latitude and a longitude.
      // WHOIS writes phones `+84.857590465`: more digits after the dot than a coordinate has.
      return /^\+\d{1,3}\.\d{4,7}$/.test(c.secret) ? "a decimal number" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "call +84 912 345 678 today",
    "tel:+1-415-555-0134",
    "+33 1 42 68 53 00",
    // WHOIS's phone format.
    "Registrant Phone: +84.857590465",
    // India's area code and number, grouped like a date.
    "sms to=+91-22-2569-4964 status=FAILED",
  ],
  falsePositives: [
    "11/06/2024  FT241634588530  +15.000.000  THANH TOAN HD 117268",
    "driver GPS: +10.776889,+106.700806 -> ok (Q1 HCMC)",
    // A time-zone offset.
    "2024-05-17T15:01:44+07:00",
    // Arithmetic.
    "x = 3 +4 * 12",
  ],
};

/**
 * What a national number's context makes it instead: the text before it,
 * the number and the text after, joined by NULs (remembered: text built to
 * be slow repeats one context thousands of times).
 */
const anotherNumber = remembered((context: string) => {
  const [before = "", secret = "", after = ""] = context.split("\u0000");
  if (followsDigitGroups(before, before.length)) return "groups of a longer number";
  // `{ 4D 5A 90 00 03 00 00 00 04 00 … }`: bytes of a dump, two hex digits each.
  if (/(?:[0-9A-Fa-f]{2} ){2}$/.test(before) && /^ [0-9A-Fa-f]{2}\b/.test(after)) {
    return "bytes of a dump";
  }
  // `offset 0912345678 bytes`, `size=0387654321`: a quantity, not a number to call.
  if (
    /(?:offset|size|length|count|total|seq(?:uence)?|nonce|epoch|timestamp)[ \t:=#]{1,3}$/i.test(
      before,
    ) ||
    /^[ \t]?(?:bytes?|[KMGT]i?B|ms|records?|rows?|items?|lines?|chars?|times?)\b/.test(after)
  ) return "a quantity";
  // An id's value (`"id": "0315478962"`, `order_id=0912345678`): a record's key, not a number to call.
  if (/(?:^|[^\w])(?:[a-z]+_)?id["']?[ \t]*[:=][ \t]*["']?$/i.test(before)) return "an id";
  // A Vietnamese tax code (mã số thuế) has ten digits, written without a blank or a bracket,
  // and may start like a mobile number; a branch's adds `-001`.
  if (!/^\d{10}$/.test(secret)) return undefined;
  if (/^-\d{3}\b/.test(after)) return "a tax code and its branch";
  return /(?:\bmst|mã số thuế|ma so thue|masothue|tax[ _-]?(?:code|id|no)|\/business\/)[^\n\d]{0,24}$/i
      .test(before)
    ? "a tax code"
    : undefined;
});

/** National numbers with a trunk 0. */
export const phoneNational: Rule = {
  id: "phone_national",
  metricLabel: "phone",
  description:
    "National phone number: trunk 0 with separators or parentheses, VN mobile bare, a Chinese mobile 3-4-4, any in a tel: link",
  placeholder: "<PHONE>",
  keywords: ["0", "8 (", "8("],
  // The validator wants 9–11 digits.
  precheck: (facts) => facts.digitCluster() >= 9,
  pattern: () =>
    new RegExp(
      "(?:(?<=(?<![\\w-])[Tt][Ee][Ll](?:;[\\w=,-]{1,40})?:)|(?<![\\w.+/:-]))(?:\\(0\\d{1,4}\\)[ .-]?\\d{3,4}[ .-]?\\d{3,4}" +
        "|0[1-9]\\d{0,3}(?<sep>[ .-])\\d{2,8}(?:\\k<sep>\\d{2,6}){0,3}" +
        "|0[35789]\\d{8}" +
        // Russia's trunk 8 and the area code in parentheses: `8 (495) 928-48-00`.
        "|8[ ]?\\(\\d{3,5}\\)[ ]?\\d{1,3}-\\d{2}-\\d{2}" +
        // A Chinese mobile number, grouped 3-4-4 (bare, eleven digits say nothing).
        "|1[3-9]\\d(?<cn>[ -])\\d{4}\\k<cn>\\d{4}" +
        // In a `tel:` link any national number may stand bare.
        "|(?<=[Tt][Ee][Ll](?:;[\\w=,-]{1,40})?:)0[1-9]\\d{7,9})(?![\\w]|[.:/]\\d|-\\w)",
      "dg",
    ),
  priority: 150,
  validators: [
    nationalDigits,
    notDate,
    notDecimal,
    function notAnotherNumber(c) {
      return anotherNumber(
        `${c.text.slice(Math.max(0, c.start - 48), c.start)}\u0000${c.secret}\u0000${
          c.text.slice(c.end, c.end + 12)
        }`,
      );
    },
  ],
  allowlist: [],
  truePositives: [
    "hóa đơn bị sai MST, họ nhờ mình gọi số (028) 3858 2570 gặp chị Loan",
    "gọi 0912 345 678 nhé",
    "sdt: 0387654321",
    "office (028) 3823 4567",
    "UK mobile 07911 123456",
    "Paris 01 42 68 53 00",
    "Berlin 030 12345678",
    "звоните дежурному на 8 (495) 917-36-21",
    "订单号,收货人,手机号\nCN2406120031,王芳,139-4418-2756",
    // A vCard's TEL property, its parameters before the colon.
    "BEGIN:VCARD\nFN:Claire Martin\nTEL;TYPE=CELL:06 71 38 24 95\nEND:VCARD",
    // `tel:` links, a mobile and a landline bare there.
    '<a href="tel:0827445190">Gọi ngay</a>',
    '<a href="tel:02437261855">Tổng đài</a>',
    // Indonesia's mobiles reach 12 and 13 digits, after a label.
    "No. HP: 0812-2916-7672",
    "Nomor WA saya 0851-6301-6457, email",
  ],
  falsePositives: [
    // A date.
    "due 05.06.2024",
    // A version and a ratio.
    "v0.12.3 and 0.75",
    // A coordinate and a zero-padded zip pair.
    "lat 021.028511 zip 00123 45678",
    // A 12-digit id that starts with 0.
    "id 087195303790",
    // A port after a host name, not a `tel:` link.
    "hotel:0827445190",
    // Twelve digits with no phone label.
    "Account 0812-2916-7672 closed",
    // A cluster id.
    "on cluster 0517-031022-a8gsed0l finished",
    // The last groups of an IBAN whose check digits fail, and of a USPS tracking number.
    "DE37 5710 7128 0601 7273 24",
    "USPS tracking: 9400 1373 9498 1125 0612 47 (Priority Mail)",
    // A YARA rule's hex string.
    "        $h1 = { 4D 5A 90 00 03 00 00 00 04 00 00 00 FF FF 00 00 }",
    // Quantities.
    "sequence 0938 of 1200 processed; offset 0912345678 bytes into segment 0001.log; size=0387654321",
    // Tax codes (mã số thuế), ten digits like a mobile number's.
    "Người mua: CÔNG TY TNHH AN KHANG — MST: 0316789452\n$ curl -s https://api.vietqr.io/v2/business/0315478962",
    "API tra cứu MST của mình trả về lỗi cho 0301234567-002 nhưng tra MST công ty mẹ 0301234567 thì ra",
    '{"id": "0315478962", "name": "CÔNG TY TNHH MINH PHÁT"} order_id=0912345678',
  ],
};

/** North American Numbering Plan. */
export const phoneNanp: Rule = {
  id: "phone_nanp",
  metricLabel: "phone",
  description:
    "North American phone number (NXX) NXX-XXXX / NXX-NXX-XXXX, and Brazil's (XX) 9XXXX-XXXX",
  placeholder: "<PHONE>",
  keywords: [],
  precheck: (facts) => facts.digitCluster() >= 10,
  pattern: () =>
    /(?:(?<=(?<![\w-])[Tt][Ee][Ll](?:;[\w=,-]{1,40})?:)|(?<![\w.+/:-]))(?:1[ .-])?(?:\([2-9]\d{2}\)[ ]?\d{3}[ .-]\d{4}|\([1-9]\d\)[ ]?9?[2-9]\d{3}-\d{4}|[2-9]\d{2}-[2-9]\d{2}-\d{4}|[2-9]\d{2}\.[2-9]\d{2}\.\d{4}|[2-9]\d{2} [2-9]\d{2} \d{4})(?![\w-]|[.:/]\d)/dg,
  priority: 150,
  validators: [
    function notASize(c) {
      // `256-512-1024 GB`: sizes in a range, not a number to call.
      return /^[ \t]?(?:[KMGTP]i?B|[kMG]Hz|ms|px)\b/.test(c.text.slice(c.end, c.end + 6))
        ? "a size"
        : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "(415) 555-0134",
    "call 303-555-0172",
    "fax 212 555 0147",
    "1-800-555-0199",
    '<a href="TEL:303-555-0172">call us</a>',
    "Abs,\nCamila\nWhatsApp: (11) 98347-2619",
    "Fone: (21) 3456-7812",
  ],
  falsePositives: [
    "dung lượng 256-512-1024 GB",
    // An ISBN.
    "ISBN 978-1-449-37332-0",
    // An IP address.
    "192.168.100.200",
  ],
};

/**
 * The number in a click-to-chat link (`https://wa.me/84827353211`,
 * `api.whatsapp.com/send?phone=…`, `zalo.me/0912…`): written with its
 * country code and no `+`, which no other form here takes.
 */
export const phoneChatLink: Rule = {
  id: "phone_chat_link",
  metricLabel: "phone",
  description: "Phone number in a WhatsApp or Zalo click-to-chat link",
  placeholder: "<PHONE>",
  keywords: ["wa.me/", "whatsapp.com/send", "zalo.me/"],
  startsAtKeyword: true,
  pattern: () =>
    /(?:wa\.me\/|zalo\.me\/|whatsapp\.com\/send\/?\?phone=)\+?(?<secret>\d{8,15})(?![\w-])/dg,
  secretGroup: "secret",
  priority: 150,
  validators: [],
  allowlist: [],
  truePositives: [
    "link https://wa.me/84827353211 — hẹn demo thứ 5",
    "https://api.whatsapp.com/send?phone=5511983472619&text=oi",
    "nhắn qua https://zalo.me/0912345678 nhé",
  ],
  falsePositives: [
    // A group invite, and the link without a number.
    "https://zalo.me/g/qwhfbz593 and https://wa.me/message/ABCDEF123",
  ],
};

/** The phone family. */
/** The words of key names that say their value is a phone number (`phoneNumber`, `mobile_no`, `so_dien_thoai`). */
const PHONE_KEY_WORD =
  "(?:phone|mobile|msisdn|cellphone|telephone|whatsapp|telefone|tel[eé]fono|telem[oó]vel|celular|m[oó]vil|cellulare|t[eé]l[eé]phone|sdt|so_?dien_?thoai)";

/**
 * A number under a key that names a phone (`"phoneNumber":"6179989652"`,
 * `mobile: 0912345678`, `<Phone>…</Phone>`): bare digits that no displayed
 * form would let the other phone rules take. A key about a phone
 * (`phone_verified_at`, `phoneCountryCode`) has more after the word than a
 * number's suffix, and no value follows it.
 */
export const phoneNamed: Rule = {
  id: "phone_named",
  description:
    "Phone number as the value of a key that names a phone (JSON, YAML, assignments, markup)",
  placeholder: "<PHONE>",
  keywords: [
    "phone",
    "mobile",
    "msisdn",
    "cellphone",
    "telephone",
    "whatsapp",
    "telefon",
    "teléfono",
    "telemóvel",
    "telemovel",
    "celular",
    "móvil",
    "movil",
    "cellulare",
    "téléphone",
    "sdt",
    "so_dien",
    "sodien",
  ],
  startsAtKeyword: true,
  // A number of 8 digits or more, joined by at most two separators, is in the text: asked
  // first, once for every phone rule, before ten keywords are looked for.
  precheckFirst: true,
  precheck: (facts) => facts.digitCluster() >= 8,
  pattern: () =>
    new RegExp(
      // Starts at the word (a literal) and looks back for the name's head: a leading class made
      // V8 try every offset.
      `${PHONE_KEY_WORD}(?<=(?<![\\w-])[\\w-]{0,20}${PHONE_KEY_WORD})(?:[_-]?(?:number|num|no|nr))?` +
        "(?:\\\\{0,3}[\"']?[ \\t]{0,4}[:=][ \\t]{0,4}\\\\{0,3}[\"']?|>)" +
        "(?<secret>\\+?\\d[\\d ().-]{6,18}\\d)(?![\\d.])",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 140,
  validators: [
    digitsBetween(8, 15),
    notDate,
  ],
  allowlist: [],
  truePositives: [
    '"billTo":{"firstName":"Kevin","email":"k@x.com","phoneNumber":"6179989652","country":"US"}',
    "customer:\n  mobile_no: 81312345678\n",
    "<Phone>3912345678</Phone>",
    // Spain's and Portugal's numbers have no trunk 0: the label says phone.
    "Cliente: Lucía Ortega\nTeléfono: 755 31 84 20\nTelemóvel: 912 604 377",
  ],
  falsePositives: [
    '"phone_verified_at": "2024-06-11", "mobile_app_version": "10.4.2"',
    '"phoneCountryCode": "44", "phone": "+44 <redacted>"',
    '"phone_count": 12345678',
  ],
};

export const phone: Rule[] = [
  phoneInternational,
  phoneNational,
  phoneNanp,
  phoneChatLink,
  phoneNamed,
];
