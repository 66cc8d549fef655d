/**
 * Stripe secret and restricted keys, live and test mode. Publishable keys
 * (`pk_…`) and object ids (`pi_`, `cus_`, `ch_`) are public by design.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** `sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`. */
export const stripe: Rule = {
  id: "stripe_key",
  description: "Stripe secret and restricted keys (live and test)",
  placeholder: "<STRIPE_KEY>",
  keywords: ["sk_live_", "sk_test_", "rk_live_", "rk_test_", "sk_prod_", "rk_prod_"],
  startsAtKeyword: true,
  pattern: () => /(?<![\w-])[sr]k_(?:live|test|prod)_[A-Za-z0-9]{16,8192}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: [
    "stripe.api_key = 'sk_test_51Hq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9'",
    "STRIPE_KEY=rk_live_51Mn5Op7Qr9St1Uv3Wx5Yz7Ab3Cd5Ef7Gh9Ij1Kl3",
    "stripe_secret: sk_prod_4eC39HqLyjWDarjtT1zdp7dc9Xb",
  ],
  falsePositives: [
    // A publishable key is meant for browsers.
    "Stripe('pk_live_51Hq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9')",
    // Object ids.
    "refund ch_3Pq8Lm3Vx7Rt2Kw9 for cus_Qw3Er5Ty9Ui1",
  ],
};
