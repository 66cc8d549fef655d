/**
 * Commerce and payment tokens with their own prefix: Shopify, Square,
 * Flutterwave, GoCardless, Shippo, Duffel, EasyPost, Plaid, Lob and
 * Braintree. Stripe has its own file; keys meant for browsers (Stripe
 * `pk_`, Flutterwave `FLWPUBK`) are public and stay.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { token } from "./_token.ts";

/** Shopify app and custom-app tokens. */
export const shopify: Rule = token({
  id: "shopify_token",
  description:
    "Shopify access (shpat_), shared secret (shpss_), custom app (shpca_) and private app (shppa_) token",
  placeholder: "<SHOPIFY_TOKEN>",
  keywords: ["shpat_", "shpss_", "shpca_", "shppa_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}(?![\w-])/dg,
  truePositives: [
    "SHOPIFY_ADMIN_TOKEN=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",
    "X-Shopify-Access-Token: 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",
  ],
  falsePositives: ["shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"],
});

/** Square access tokens and OAuth secrets. */
export const square: Rule = token({
  id: "square_token",
  description: "Square access token (EAAA…, sq0atp-) and OAuth secret (sq0csp-)",
  placeholder: "<SQUARE_TOKEN>",
  keywords: ["eaaa", "sq0atp-", "sq0csp-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:EAAA[\w-]{60}|sq0atp-[\w-]{22}|sq0csp-[\w-]{43})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    'SQUARE_ACCESS_TOKEN="EAAAEOgCPr-ypBlTVtYuuCbOa6E0GixMlffSbM-DSJboO8HHYRLDAgLQS7IdVgNI"',
    "square_secret: sq0csp-k_wiXEa83v1VbYOU-JqumRdrZOfpLER5fMDf1u9Eozj",
  ],
  falsePositives: ["EAAA is the prefix of production tokens"],
});

/** Flutterwave secret and encryption keys. */
export const flutterwave: Rule = token({
  id: "flutterwave_key",
  description: "Flutterwave secret key (FLWSECK-…-X) and encryption key (FLWSECK_TEST…)",
  placeholder: "<FLUTTERWAVE_KEY>",
  keywords: ["flwseck"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])FLWSECK(?:_TEST)?(?:-[a-h0-9]{32}-X|[a-h0-9]{12})(?![\w-])/dg,
  truePositives: ["FLW_SECRET_KEY=FLWSECK_TEST-9ad41914b5d695a513e1d55be60456c2-X"],
  falsePositives: ["FLWPUBK_TEST-0123456789abcdef0123456789abcdef-X is public"],
});

/** GoCardless, Lob, Shippo, Duffel and EasyPost keys. */
export const shippingPayments: Rule = token({
  id: "payments_key",
  description:
    "GoCardless (live_/sandbox_ + 40), Lob (live_/test_ + 35 hex), Shippo (shippo_live_), Duffel (duffel_live_) and EasyPost (EZAK, EZTK) keys",
  placeholder: "<PAYMENTS_KEY>",
  keywords: ["live_", "sandbox_", "test_", "ezak", "eztk"],
  pattern: () =>
    /\b(?<![\w-])(?:(?:live|sandbox)_[\w=-]{40}|(?:live|test)_[a-f0-9]{35}|shippo_(?:live|test)_[a-f0-9]{40}|duffel_(?:live|test)_[\w=-]{43}|EZ[AT]K[a-zA-Z0-9]{54})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.2)],
  truePositives: [
    "GOCARDLESS_ACCESS_TOKEN=live_TR4ptuCkS7cDHPrWq6avvNLXGib2zXR92hniYUgx",
    "SHIPPO_API_KEY=shippo_live_40c041d52807a73fa32223c784db567354df9186",
    "duffel_token: duffel_live_ayYQZeXBUGg3b1ELwUTy82YOWY07BRZa56WO3FRk3Yr",
    "EASYPOST_API_KEY=EZAK9Y7NxVKQnBTcZO7KhW7Xj7RcMiFChYVzdb6YlZyDlN6sdNmHhzwwLB",
    "LOB_API_KEY=test_978c9743204aff03285be448136247d069f",
  ],
  falsePositives: ["live_reload_enabled_for_the_dev_server_in_watch"],
});

/** Plaid access tokens. */
export const plaid: Rule = token({
  id: "plaid_token",
  description: "Plaid access token (access-sandbox|development|production-uuid)",
  placeholder: "<PLAID_TOKEN>",
  keywords: ["access-sandbox-", "access-development-", "access-production-"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])access-(?:sandbox|development|production)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}(?![\w-])/dg,
  truePositives: ['{"access_token": "access-production-471d1c0f-0f07-4fe4-a406-66a0d8747310"}'],
  falsePositives: ["access-production-readonly role"],
});

/** Braintree access tokens. */
export const braintree: Rule = token({
  id: "braintree_token",
  description: "Braintree / PayPal access token (access_token$production$…$…)",
  placeholder: "<BRAINTREE_TOKEN>",
  keywords: ["access_token$"],
  startsAtKeyword: true,
  pattern: () => /access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}(?![\w-])/dg,
  truePositives: [
    "BT_TOKEN=access_token$production$guzoirl9ruh56rqr$0bf5c5ea548b9cde8aa9164511bb3e25",
  ],
  falsePositives: ["access_token$production$<merchant>$<secret>"],
});

/**
 * Razorpay's key secret, found by the key id written just before it: the
 * next argument of a call (`new Api('rzp_live_…', '…')`) or after a colon
 * (`curl -u rzp_live_…:…`). The key id itself goes to the browser.
 */
export const razorpay: Rule = token({
  id: "razorpay_key_secret",
  description:
    "Razorpay key secret, next to its key id (rzp_live_/rzp_test_) as a call's next argument or after a colon",
  placeholder: "<RAZORPAY_SECRET>",
  keywords: ["rzp_live_", "rzp_test_"],
  startsAtKeyword: true,
  pattern: () =>
    /rzp_(?:live|test)_[A-Za-z0-9]{14}(?:\\{0,3}["'][ \t]*,\s{0,40}\\{0,3}["']|:)(?<secret>[A-Za-z0-9]{20,32})(?![A-Za-z0-9])/dg,
  secretGroup: "secret",
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    "$api = new Api('rzp_live_Xq8Lm3Vx7Rt2Kw', 'Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7');",
    "curl -u rzp_test_Xq8Lm3Vx7Rt2Kw:Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7 https://api.razorpay.com/v1/orders",
  ],
  falsePositives: [
    // The key id alone is public.
    "var options = { key: 'rzp_live_Xq8Lm3Vx7Rt2Kw', amount: 49900 };",
    "new Api('rzp_live_Xq8Lm3Vx7Rt2Kw', process.env.RAZORPAY_KEY_SECRET)",
  ],
});

/**
 * VNPAY's hash secret, the key of its payment signatures: 32 capital
 * letters and digits under a name that says hash secret
 * (`vnp_HashSecret=…`, `VNPAY_HASH_SECRET: …`). Often letters alone, which
 * the generic rules want a digit in.
 */
export const vnpayHashSecret: Rule = token({
  id: "vnpay_hash_secret",
  description: "VNPAY hash secret (32 capitals and digits) under a hash-secret name",
  placeholder: "<VNPAY_SECRET>",
  keywords: ["hashsecret", "hash_secret", "hash-secret"],
  startsAtKeyword: true,
  pattern: () =>
    /(?:[Hh]ash|HASH)[_-]?(?:[Ss]ecret|SECRET)\\{0,3}["']?[ \t]{0,4}(?::=|=>|[:=])[ \t]{0,4}\\{0,3}["']?(?<secret>[A-Z0-9]{32})(?![A-Za-z0-9])/dg,
  secretGroup: "secret",
  validators: [notPlaceholder, minEntropy(3.5)],
  truePositives: [
    "Cấu hình VNPay sandbox: vnp_TmnCode=BMBSHIP1, vnp_HashSecret=QWPFSDFIXMRPAPLMESVAPFUWFLDNVJJH. Sao chữ ký sai?",
    'VNPAY_HASH_SECRET: "K7QWPFSDFIXMRPAPLMESVAPFUWFLDNVJ"',
  ],
  falsePositives: [
    "vnp_HashSecret=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "vnp_HashSecret=${VNP_HASH_SECRET}",
  ],
});

/** The payments family. */
/** Mercado Pago's access tokens: `APP_USR-` (production) or `TEST-`, then the app's digits, a date, 32 hex, the user. */
export const mercadoPago: Rule = token({
  id: "mercadopago_access_token",
  description: "Mercado Pago access token (APP_USR-… / TEST-…, digits, 32 hex, user id)",
  placeholder: "<MERCADOPAGO_TOKEN>",
  keywords: ["app_usr-", "test-"],
  // `test-` is in much code: a test token is written in capitals.
  precheck: (facts) => facts.lower.includes("app_usr-") || facts.text.includes("TEST-"),
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:APP_USR|TEST)-\d{10,20}-\d{6}-[0-9a-f]{32}-\d{6,12}(?![\w-])/dg,
  truePositives: [
    "access token de producción: APP_USR-5836952010328924-025886-4f66e8fd09a2373527013e712c3c73b3-350347730",
    "MP_ACCESS_TOKEN=TEST-1234567890123456-101112-0a1b2c3d4e5f60718293a4b5c6d7e8f9-123456789",
  ],
  falsePositives: ["APP_USR-<app_id>-<date>-<hash>-<user_id>"],
});

/** Efí's (formerly Gerencianet's) client secret: `Client_Secret_` and 40 hex digits. */
export const efiClientSecret: Rule = token({
  id: "efi_client_secret",
  description: "Efí / Gerencianet client secret (Client_Secret_ and 40 hex digits)",
  placeholder: "<SECRET>",
  keywords: ["client_secret_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])Client_Secret_[0-9a-f]{40}(?![\w-])/dg,
  truePositives: ["client_secret: Client_Secret_6fa9bac4a002397957a109e53f291673a6bfc774"],
  falsePositives: [
    // Its client id is an id.
    "client_id: Client_Id_e74b94942832d25978a1cf7ee9574ccc90941d74",
  ],
});

export const payments: Rule[] = [
  shopify,
  square,
  flutterwave,
  shippingPayments,
  plaid,
  braintree,
  razorpay,
  vnpayHashSecret,
  mercadoPago,
  efiClientSecret,
];
