/**
 * Webhook signing secrets (`whsec_…`, Stripe and Svix).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { notPlaceholder } from "../_validators.ts";

/** `whsec_` plus base64. */
export const webhookSecret: Rule = {
  id: "webhook_secret",
  description: "Webhook signing secret (whsec_)",
  placeholder: "<WEBHOOK_SECRET>",
  keywords: ["whsec_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])whsec_[A-Za-z0-9+/=]{20,8192}/dg,
  priority: 800,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: ["STRIPE_WEBHOOK_SECRET=whsec_Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga"],
  falsePositives: [
    // Template.
    "whsec_xxxxxxxxxxxxxxxxxxxxxxxx",
  ],
};
