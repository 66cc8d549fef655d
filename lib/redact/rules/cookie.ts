/**
 * Session cookies in HTTP headers: `Set-Cookie: connect.sid=s%3A…` and
 * `Cookie: …; sessionid=…` as curl, a browser's devtools and a proxy print
 * them. Whoever holds a session cookie is logged in, whatever it is called
 * beyond `sess`, `sid`, `token`, `auth`, `jwt` or `remember`; consent and
 * preference cookies stay.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** The first session cookie of a `Cookie:` or `Set-Cookie:` header. */
export const sessionCookie: Rule = {
  id: "session_cookie",
  description:
    "Session cookie's value in a Cookie or Set-Cookie header (its name says sess, sid, token, auth, jwt or remember)",
  placeholder: "<SESSION>",
  keywords: ["cookie:"],
  startsAtKeyword: true,
  pattern: () =>
    new RegExp(
      // Starts at the header's name (a literal), then looks back for what may stand before it.
      // The pairs before the session's: a cookie's value holds no blank, `;`, `"`, `,` or `\`
      // (RFC 6265), so text of repeated headers is read once.
      "[Cc]ookie:(?<=(?<![\\w-])(?:[Ss]et-)?[Cc]ookie:)[ \\t]*" +
        "(?:[\\w.!#$%&'*+^`|~-]{1,64}=[^;\\s\",\\\\]{0,400};[ \\t]?){0,20}?" +
        "(?<name>[\\w.-]{0,40}?(?:[Ss][Ee][Ss][Ss]|[Ss][Ii][Dd]|[Tt][Oo][Kk][Ee][Nn]|[Aa][Uu][Tt][Hh]|[Jj][Ww][Tt]|[Rr]emember)[\\w.-]{0,20})" +
        '=(?<secret>[^;\\s",\\\\]{16,4096})',
      "dg",
    ),
  secretGroup: "secret",
  priority: 420,
  validators: [notPlaceholder, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "< Set-Cookie: connect.sid=s%3A-gLdkZ1lqHssi2tPk5ly6DhEiSlIEt.eZjmQAVoTIRXi0jQEhnxrPGA91DP; Path=/; HttpOnly",
    "> Cookie: theme=dark; sessionid=q8lm3vx7rt2kw9pn4yb6hc1jd5fs0ga2; csrftoken_seen=1",
  ],
  falsePositives: [
    "Set-Cookie: CookieConsent={stamp:%27-1%27%2Cnecessary:true}; Path=/",
    "Cookie: theme=dark; lang=vi; sessionid=${SESSION_ID}",
  ],
};
