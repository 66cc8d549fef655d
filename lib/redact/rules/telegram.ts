/**
 * Telegram bot tokens (`<bot id>:AA…`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { notPlaceholder } from "../_validators.ts";

/** Numeric bot id, a colon, `AA` and 33 URL-safe characters. */
export const telegram: Rule = {
  id: "telegram-bot-token",
  description: "Telegram bot token",
  placeholder: "<TELEGRAM_TOKEN>",
  keywords: [":aa"],
  pattern: () => /(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{30,40}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: [
    "https://api.telegram.org/bot7312904561:AAHq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2/getMe",
  ],
  falsePositives: [
    // A timestamp and a short hex word.
    "at 1716912345:AABBCC the job ended",
  ],
};
