/**
 * Slack: bot, user, app-level and configuration tokens (`xox?-`, `xapp-`),
 * and the secret last segment of an incoming-webhook URL. Channel and user
 * ids (`C04…`, `U01…`) are not secrets and never match.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, notPlaceholder } from "../_validators.ts";

/** Slack API tokens. */
export const slackToken: Rule = {
  id: "slack_token",
  description: "Slack bot, user, app-level and configuration tokens",
  placeholder: "<SLACK_TOKEN>",
  keywords: ["xox", "xapp-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,8192}(?![\w-])/dg,
  priority: 800,
  validators: [
    notPlaceholder,
    hasDigitAndLetter,
    function notWordsAtTheEnd(c) {
      // `xoxp-1-SlackAppConfigurationAccessTokenHere`: words where the random part goes,
      // saying what goes there. Capitalised runs alone are no sign: a random tail of
      // letters reads as `KasqlEjQkpcbaborChwUlFtc` about once in 2,000 tokens.
      return /-(?:[A-Z][a-z]{2,}){3,}$/.test(c.secret) &&
          /(?:Token|Key|Secret|Here|Your|Access|Example|Config)(?=[A-Z]|$)/.test(c.secret)
        ? "words where the random part goes"
        : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "SLACK_BOT_TOKEN=xoxb-20481632641-7395012846153-Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1",
    "xapp-1-A07QWERTY12-7391028465123-8f3a9c2e1b5d4a8f9c0e2b4d6f8a1c3e",
    // A random tail of letters only, every run capitalised.
    "SLACK_BOT_TOKEN=xoxb-16564118135-403349136460-KasqlEjQkpcbaborChwUlFtc",
  ],
  falsePositives: [
    // A placeholder.
    "SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxx",
    "paste xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere into the form",
    // Channel and user ids.
    "post in C04QWERTY12 and ping U02ASDFGH34",
  ],
};

/** The secret path segment of an incoming webhook. */
export const slackWebhook: Rule = {
  id: "slack_webhook",
  description: "Slack incoming-webhook secret (the last path segment)",
  placeholder: "<SLACK_WEBHOOK>",
  keywords: ["hooks.slack.com", "/services/t"],
  startsAtKeyword: true,
  pattern: () =>
    // Workflow URLs hold a numeric id before the secret; some write the path as one segment.
    new RegExp(
      String.raw`hooks\.slack\.com\/(?:services|workflows|triggers)\/` +
        String
          .raw`(?:[A-Za-z0-9]{1,20}\/[A-Za-z0-9]{1,20}\/(?:\d{1,24}\/)?(?<secret>[A-Za-z0-9]{16,8192})` +
        String.raw`|(?<secret>[A-Za-z0-9]{40,60})(?![\w\/]))` +
        // The path without its host (urllib3's `Max retries exceeded with url: /services/…`):
        // a team id, a hook id, then the secret.
        String
          .raw`|\/services\/T[A-Z0-9]{8,12}\/B[A-Z0-9]{8,12}\/(?<secret>[A-Za-z0-9]{24})(?![A-Za-z0-9])`,
      "dg",
    ),
  secretGroup: "secret",
  priority: 800,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: [
    "https://hooks.slack.com/services/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",
    "https://hooks.slack.com/workflows/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",
    "curl -X POST hooks.slack.com/triggers/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",
    "HTTPSConnectionPool(host='hooks.slack.com', port=443): Max retries exceeded with url: /services/T0AB12CD3/B0EF45GH6/Zq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1",
  ],
  falsePositives: [
    // The documented placeholder.
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    // A REST path of another service.
    "GET /services/TEAMS/BILLING/status",
  ],
};

/** The Slack family. */
export const slack: Rule[] = [slackToken, slackWebhook];
