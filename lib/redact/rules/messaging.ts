/**
 * Messaging and e-mail tokens: Discord bot tokens and webhooks, Twilio,
 * Mailgun, Mailchimp, Brevo (Sendinblue), MailerSend, Resend, Intercom,
 * Microsoft Teams incoming webhooks and Firebase Cloud Messaging server
 * keys. Telegram, Slack and SendGrid have files of their own.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { token } from "./_token.ts";

/** Rejects a Discord-shaped token whose parts are words, not base64 (`Foo.bar.baz`). */
function discordParts(c: Candidate): string | undefined {
  const [id = "", , hmac = ""] = c.secret.split(".");
  if (!/\d/.test(id) || !/[a-z]/.test(id) || !/[A-Z].*[A-Z]/.test(id.slice(1))) {
    return "first part is not base64 of a user id";
  }
  return /\d|[A-Z].*[a-z]|[a-z].*[A-Z]/.test(hmac) ? undefined : "last part is not base64";
}

/** Discord bot tokens: base64 user id, timestamp, HMAC. */
export const discordBotToken: Rule = token({
  id: "discord_bot_token",
  description: "Discord bot token (base64 user id . timestamp . HMAC)",
  placeholder: "<DISCORD_TOKEN>",
  keywords: [],
  // What the middle part needs: a `.`, six characters, a `.`. A pattern, not a
  // loop: a cold process runs a pattern natively but interprets a loop over
  // every dot of a long text (1 MB of prose: 7 ms).
  precheck: (facts) => /\.[\w-]{6}\./.test(facts.text),
  pattern: () =>
    /(?<=(?<![\w.-])(?<head>[MNO][A-Za-z0-9_-]{23,27}))\.[\w-]{6}\.[\w-]{27,40}(?![\w.-])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, discordParts, minEntropy(3.5)],
  truePositives: [
    'client.login("MTEzMDQ3NDU2MTg0OTM4MDg2NA.G1dXU0.vpy7BrjqwUINnzsUg_fVTiHSLsbQmXcZbmQtBJ");',
  ],
  falsePositives: ["NotificationCenterDefaults.center.observerForNotificationsNamesList"],
});

/** Discord webhook URLs: the token path segment. */
export const discordWebhook: Rule = token({
  id: "discord_webhook",
  description: "Discord webhook token (the last path segment of /api/webhooks/<id>/<token>)",
  placeholder: "<DISCORD_WEBHOOK>",
  keywords: ["/api/webhooks/"],
  pattern: () =>
    /discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/(?<secret>[\w-]{60,80})(?![\w-])/dg,
  secretGroup: "secret",
  truePositives: [
    "https://discord.com/api/webhooks/1130474561849380864/CtfImcvPLvZ6hYuZcmcrDqMOgTNfHA0rJa-ZVLS3izND7tF3bBg9YSLiGW-1iynaLcPp",
  ],
  falsePositives: ["https://discord.com/api/webhooks/{id}/{token}"],
});

/** Twilio API key and account ids. */
export const twilio: Rule = token({
  id: "twilio_key",
  description: "Twilio API key SID (SK + 32 hex) and account SID (AC + 32 hex)",
  placeholder: "<TWILIO_KEY>",
  keywords: [],
  // "sk" and "ac" are in most lowercased text; the ids want them in capitals.
  precheck: (facts) => facts.text.includes("SK") || facts.text.includes("AC"),
  pattern: () => /(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])/dg,
  truePositives: [
    'TWILIO_API_KEY="SKbc2e22118cc85661ba22e98ff6344664"',
    "account_sid = 'AC414eee8fd7bb746301fb60cb3607bb21'",
  ],
  falsePositives: ["SKU-12345 and ACME-corp"],
});

/**
 * The auth token a Twilio client is built with, right after the account or
 * API key SID: `Client("AC…", "…")`, `Client("SK…", "…", "AC…")`.
 */
export const twilioAuthToken: Rule = token({
  id: "twilio_auth_token",
  description: "Twilio auth token or API key secret (32 hex) passed after the SID to a client",
  placeholder: "<TWILIO_SECRET>",
  keywords: [],
  precheck: (facts) => facts.text.includes("SK") || facts.text.includes("AC"),
  pattern: () =>
    /(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}\\{0,3}["'][ \t]{0,4},[ \t]{0,4}\\{0,3}["'](?<secret>[0-9a-f]{32})(?![A-Za-z0-9])/dg,
  secretGroup: "secret",
  truePositives: [
    'client = Client("SKbc2e22118cc85661ba22e98ff6344664", "f3c9a1e07b5d42e8a6c1d9b3e5f70a24", "AC414eee8fd7bb746301fb60cb3607bb21")',
  ],
  // Names, not values.
  falsePositives: ["Client(account_sid, auth_token)"],
});

/** Mailgun private API keys. */
export const mailgun: Rule = token({
  id: "mailgun_key",
  description: "Mailgun private API key (key- + 32 hex)",
  placeholder: "<MAILGUN_KEY>",
  keywords: ["key-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])key-[0-9a-f]{32}(?![\w-])/dg,
  truePositives: [
    "curl -s --user 'api:key-b0a7487049058c938c13021e4b415266' https://api.mailgun.net/v3/domains",
  ],
  falsePositives: ["key-value store and key-rotation-policy"],
});

/** Mailchimp API keys. */
export const mailchimp: Rule = token({
  id: "mailchimp_key",
  description: "Mailchimp API key (32 hex + data centre, -us12)",
  placeholder: "<MAILCHIMP_KEY>",
  keywords: ["-us"],
  startsAtKeyword: true,
  // The literal first and the hex in a lookbehind: a pattern that opens with a
  // character class is tried at every offset (37 ms a MiB of prose, 3 ms so).
  pattern: () => /(?<=(?<![\w-])(?<head>[0-9a-f]{32}))-us\d{1,2}(?![\w-])/dg,
  secretFrom: "head",
  truePositives: [
    'client.set_config({"api_key": "f88a482f95d5c5f751bcf6c37cd50e07-us14", "server": "us14"})',
  ],
  falsePositives: ["build cache-us1 in us-east"],
});

/** Brevo (Sendinblue) and MailerSend and Resend keys. */
export const mailKeys: Rule = token({
  id: "mail_api_key",
  description:
    "Brevo / Sendinblue (xkeysib-, xsmtpsib-), MailerSend (mlsn.) and Resend (re_) API keys",
  placeholder: "<MAIL_API_KEY>",
  keywords: ["xkeysib-", "xsmtpsib-", "mlsn.", "re_"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w.-])(?:x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}|mlsn\.[a-f0-9]{64}|re_[A-Za-z0-9]{8}_?[A-Za-z0-9]{24,32})(?![\w-])/dg,
  validators: [
    notPlaceholder,
    hasDigitAndLetter,
    minEntropy(3),
    function mixedCaseResend(c) {
      // Without its inner `_`, only both cases tell a key from a `re_…` identifier.
      return !c.secret.startsWith("re_") || /[a-z]/.test(c.secret) && /[A-Z]/.test(c.secret)
        ? undefined
        : "a re_ name in one case";
    },
  ],
  truePositives: [
    "const resend = new Resend('re_dlsUyHyG_fCnQI6DUGiqp0jvS9QFqOn1cI');",
    "BREVO_API_KEY=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",
    "MAILERSEND_API_KEY=mlsn.ff6a1f03ba834f6bbe571a87fe855480278b7f3e304da25a878b74731ec9a507",
    "const resend = new Resend('re_fU2eeLs3_GSoP8Q6AHttHMaJytigsGQXh');",
    "the key you gave me (`re_6DEdF5zVzSvA6NZwVDwyDBliaohM1jnQ`)",
  ],
  falsePositives: ["re_compile_pattern_for_matching_all_lines re_0123456789abcdef0123456789ab0"],
});

/** Intercom access tokens (base64 of `tok:`). */
export const intercom: Rule = token({
  id: "intercom_token",
  description: "Intercom access token (dG9rOj…, base64 of tok:)",
  placeholder: "<INTERCOM_TOKEN>",
  keywords: ["dg9roj"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w+/-])dG9rOj[A-Za-z0-9+/_-]{40,120}={0,2}(?![\w+/=-])/dg,
  truePositives: [
    "INTERCOM_ACCESS_TOKEN=dG9rOjWgDZ7NFkDyH9dt6PQiSg86WqkoSRWX97vz1+GwZvt2vCC5XdoUpWpe=",
  ],
  falsePositives: ["dG9rOj is base64 for tok:"],
});

/** Microsoft Teams incoming webhooks. */
export const teamsWebhook: Rule = token({
  id: "teams_webhook",
  description: "Microsoft Teams / Office 365 incoming webhook (the path after webhookb2/)",
  placeholder: "<TEAMS_WEBHOOK>",
  keywords: ["webhook.office.com", "outlook.office.com/webhook"],
  pattern: () =>
    /(?:\.webhook\.office\.com\/webhookb2|outlook\.office\.com\/webhook)\/(?<secret>[\w-]{36}@[\w-]{36}\/IncomingWebhook\/[a-f0-9]{32}\/[\w-]{36}(?:\/[\w-]{20,80})?)/dg,
  secretGroup: "secret",
  truePositives: [
    "https://acme.webhook.office.com/webhookb2/6c7989a4-e334-4cac-a54e-5f75932930a4@f9cfbed9-a3b1-47f2-ae86-5d0f1bd32eec/IncomingWebhook/aef45f482e0f12e60c664284cee625a4/a5014d27-b55e-479d-a236-c25e0984841e",
  ],
  falsePositives: ["post to https://acme.webhook.office.com/webhookb2/<connector-url>"],
});

/** Firebase Cloud Messaging legacy server keys. */
export const firebaseFcm: Rule = token({
  id: "firebase_fcm_key",
  description: "Firebase Cloud Messaging server key (AAAA…:APA91b…)",
  placeholder: "<FCM_KEY>",
  keywords: [":apa91b"],
  pattern: () => /\b(?<![\w-])AAAA[\w-]{7}:APA91b[\w-]{100,200}(?![\w-])/dg,
  truePositives: [
    '"Authorization": "key=AAAAv1Nak3B:APA91bHkB5K2sG6WYuQkPV-udiHlKjPnWfp_Nq9KIEOV7jbxr09ucOJhyTfUAel9mn5GHyarNcjYZyXuRyt-pFBeaA4ng3sRggib-xy4YLLTT11ynSgLROaZ5Ibgho9we1Ch2ChthENm"',
  ],
  falsePositives: ["server keys look like AAAA…:APA91b…"],
});

/**
 * Ably's API key, `appId.keyId:secret`: the whole key, since the part before
 * the colon says which key the secret unlocks. Asked only where Ably is
 * named, as its client and variables always are.
 */
export const ably: Rule = token({
  id: "ably_api_key",
  description: "Ably API key (appId.keyId:secret) where Ably is named",
  placeholder: "<ABLY_KEY>",
  keywords: ["ably"],
  // Starts at the colon, asks for the secret's length, then looks back for the app and key ids
  // (see `secretFrom`): most colons are followed by a blank.
  pattern: () =>
    /:(?=[A-Za-z0-9_+/=-]{40,50}(?![\w+/=-]))(?<=(?<![\w.-])(?<head>[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{6}):)[A-Za-z0-9_+/=-]{40,50}(?![\w+/=-])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "const rest = new Ably.Rest('xVLyHw.Dw7fPg:q8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw9Zx1');",
    "ABLY_API_KEY=xVLyHw.Dw7fPg:q8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw9Zx1",
  ],
  falsePositives: [
    "ABLY_API_KEY=appId.keyId:keySecretxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "ably channel chat.room01:presence-updates-for-all-the-members-of-this-room",
  ],
});

/** The messaging family. */
export const messaging: Rule[] = [
  ably,
  discordBotToken,
  discordWebhook,
  twilio,
  twilioAuthToken,
  mailgun,
  mailchimp,
  mailKeys,
  intercom,
  teamsWebhook,
  firebaseFcm,
];
