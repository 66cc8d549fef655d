/**
 * SendGrid API keys (`SG.<id>.<secret>`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { notPlaceholder } from "../_validators.ts";

/** `SG.` plus two base64url parts. */
export const sendgrid: Rule = {
  id: "sendgrid_key",
  description: "SendGrid API key",
  placeholder: "<SENDGRID_KEY>",
  keywords: ["sg."],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}(?![\w-])/dg,
  priority: 800,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: [
    "SENDGRID_API_KEY=SG.Qm3Lz8Vx2Rt7Kw9Pn4Yb6H.c1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1Op3As5Df7Gh9Jk1",
  ],
  falsePositives: [
    // A Java-style package path.
    "import SG.util.StringHelpers.format",
  ],
};
