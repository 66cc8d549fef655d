/**
 * Telegram bot tokens (`<bot id>:AA…`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";

/** Numeric bot id (5 to 16 digits), a colon, `A` and 32 to 40 URL-safe characters (35 in all today, `AA…`). */
export const telegram: Rule = {
  id: "telegram_bot_token",
  description: "Telegram bot token",
  placeholder: "<TELEGRAM_TOKEN>",
  keywords: [":a"],
  // The id stands alone or after `/bot`: `clm12345:AgencyId…ContentType` is an XML type.
  pattern: () => /(?<=(?:^|[^\w:]|\/bot)(?<head>\d{5,16})):A[\w-]{32,40}(?![\w-])/dg,
  secretFrom: "head",
  priority: 800,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "https://api.telegram.org/bot7312904561:AAHq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2/getMe",
    'bot = telebot.TeleBot("123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11")',
  ],
  falsePositives: [
    // A timestamp and a short hex word.
    "at 1716912345:AABBCC the job ended",
    '<xsd:element name="AgencyId" type="clm12345:AgencyIdentificationCodeContentType"/>',
  ],
};
