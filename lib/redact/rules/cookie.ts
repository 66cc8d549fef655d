/**
 * Session cookies in HTTP headers: `Set-Cookie: connect.sid=s%3A…` and
 * `Cookie: …; sessionid=…` as curl, a browser's devtools and a proxy print
 * them. Whoever holds a session cookie is logged in, whatever it is called
 * beyond `sess`, `sid`, `token`, `auth`, `jwt` or `remember`; consent and
 * preference cookies stay. Cookies saved as objects (Playwright's and
 * Puppeteer's JSON, fastlane's `spaceauth` YAML) are read by their next key,
 * `domain`: every cookie saved so is a login's. The Erlang distribution
 * cookie is no browser's, but whoever holds it joins the cluster (RabbitMQ,
 * CouchDB, Elixir releases).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import {
  hasBothCasesAndDigit,
  hasDigitAndLetter,
  minEntropy,
  notPlaceholder,
} from "../_validators.ts";

/** What a session cookie's name holds, in any case: `sess`, `sid`, `token`, `auth`, `jwt`, `remember`. */
const SESSION_NAME_WORD =
  "(?:[Ss][Ee][Ss][Ss]|[Ss][Ii][Dd]|[Tt][Oo][Kk][Ee][Nn]|[Aa][Uu][Tt][Hh]|[Jj][Ww][Tt]|[Rr]emember)";

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
        `(?<name>[\\w.-]{0,40}?${SESSION_NAME_WORD}[\\w.-]{0,20})` +
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

/**
 * A session cookie of a framework that names it, written `name=value`
 * anywhere, not only in a header: a test's `'connect.sid=s%3A…'`, curl's
 * `-b 'PHPSESSID=…'`, `document.cookie = 'sessionid=…'`.
 */
export const namedSessionCookie: Rule = {
  id: "named_session_cookie",
  metricLabel: "session_cookie",
  description:
    "Session cookie of a framework that names it (connect.sid, PHPSESSID, JSESSIONID, ASP.NET_SessionId, laravel_session, sessionid, _app_session) as name=value",
  placeholder: "<SESSION>",
  keywords: [
    "connect.sid",
    "phpsessid",
    "jsessionid",
    "asp.net_sessionid",
    "sessionid=",
    "_session=",
  ],
  pattern: () =>
    /(?<![\w.-])(?<name>connect\.sid|PHPSESSID|JSESSIONID|ASP\.NET_SessionId|laravel_session|sessionid|_[a-z]{2,30}_session)=(?<secret>[^;\s"',\\]{16,4096})/dg,
  secretGroup: "secret",
  priority: 420,
  validators: [notPlaceholder, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "const ADMIN = 'connect.sid=s%3AQm7ZJFGmzyZI_AQmXBuJp65g527bR1GZ3.ky6hxP9qtHbuSooYPkosU1xxhkdaLw0SNNcdaO4sm3r';",
    "curl -s -b 'PHPSESSID=9k2m7q4x1v8n3b6c5z0lrt2p' https://intranet.example/admin/",
  ],
  falsePositives: [
    "curl -b 'PHPSESSID=${SESSION}' https://intranet.example/",
    "the cookie is named connect.sid=<value> by default",
  ],
};

/**
 * A session cookie in a Netscape cookie jar (curl's `-c`/`-b` file, wget's,
 * yt-dlp's): seven fields a line, split by tabs, the name and value last.
 */
export const cookieJarSession: Rule = {
  id: "cookie_jar_session",
  description:
    "Session cookie's value in a Netscape cookie jar line (curl, wget), its name saying sess, sid, token, auth, jwt or remember",
  placeholder: "<SESSION>",
  keywords: ["\ttrue\t", "\tfalse\t"],
  pattern: () =>
    new RegExp(
      // Starts at the expiry (digits between tabs) and looks back for the fields before it.
      "\\t\\d{1,12}\\t(?<=\\t(?:TRUE|FALSE)\\t[^\\t\\n]{1,400}\\t(?:TRUE|FALSE)\\t\\d{1,12}\\t)" +
        `(?<name>[^\\t\\n]{0,60}?${SESSION_NAME_WORD}[^\\t\\n]{0,80})` +
        "\\t(?<secret>[^\\t\\s]{16,4096})",
      "dg",
    ),
  secretGroup: "secret",
  priority: 420,
  validators: [notPlaceholder, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "# Netscape HTTP Cookie File\n#HttpOnly_.shop.lan\tTRUE\t/\tTRUE\t1759487122\tka_session\tPrI7XkcQSucPSIuQbskmwHyGMfwvceJ5\n",
    "app.lan\tFALSE\t/\tTRUE\t0\tXSRF-TOKEN\t4110a95ab7a7fa3b16253d8afb108f426bf85e42712be5476ed38f0adefbde61",
  ],
  falsePositives: [
    "app.lan\tFALSE\t/\tTRUE\t1730079122\tka_lang\ten-GB",
    "app.lan\tFALSE\t/\tTRUE\t1730079122\tsession_theme\tdark",
  ],
};

/**
 * A saved cookie's value: `{"name": "…", "value": "…", "domain": …}` as
 * Playwright's `storageState` and Puppeteer write them, or the same keys in
 * YAML (fastlane's `spaceauth`, Ruby's `HTTP::Cookie`).
 */
export const savedCookie: Rule = {
  id: "saved_cookie",
  metricLabel: "session_cookie",
  description:
    'A saved cookie\'s value ({"name", "value", "domain"} in JSON, name:/value:/domain: in YAML)',
  placeholder: "<SESSION>",
  keywords: ["domain"],
  precheck: (facts) => facts.lower.includes("cookie"),
  pattern: () =>
    new RegExp(
      // Starts at the value's key, looks back for the name and ahead for the domain.
      '"value"(?<="name"[ \\t]{0,4}:[ \\t]{0,4}"(?<name>[^"\\n]{1,100})"[ \\t]{0,4},\\s{0,20}"value")' +
        '[ \\t]{0,4}:[ \\t]{0,4}"(?<secret>[^"\\s\\\\]{16,4096})"(?=[ \\t]{0,4},\\s{0,20}"domain")' +
        "|value:(?<=(?:^|\\n)[ \\t]{0,40}name:[ \\t]{0,4}(?<name>\\S{1,100})[ \\t]*\\r?\\n[ \\t]{0,40}value:)" +
        "[ \\t]{0,4}(?<secret>[^\\s\"']{16,4096})(?=[ \\t]*\\r?\\n[ \\t]{0,40}domain:)",
      "dg",
    ),
  secretGroup: "secret",
  priority: 420,
  validators: [
    notPlaceholder,
    function notAnalyticsCookie(c) {
      return /^_(?:ga|gid|gcl|fbp|hj)/i.test(c.groups["name"] ?? "")
        ? "an analytics cookie"
        : undefined;
    },
    hasDigitAndLetter,
    minEntropy(3.5),
  ],
  allowlist: [],
  truePositives: [
    '{"cookies": [{"name": "sessionid", "value": "q8lm3vx7rt2kw9pn4yb6hc1jd5fs0ga2", "domain": ".shop.vn", "path": "/"}]}',
    '- !ruby/object:HTTP::Cookie\n  name: myacinfo\n  value: DAWTKN7q2Lm9Vx4Rt8Kw3Pn6Yb1Hc5Jd0Fs2Ga7Ue4Io9Qw3Er\n  domain: apple.com\n  path: "/"',
  ],
  falsePositives: [
    '{"cookies": [{"name": "_ga", "value": "GA1.1.1795402321.1718000000", "domain": ".shop.vn"}]}',
    "env:\n- name: SESSION_COOKIE_NAME\n  value: shop_session_2024_v1\n- name: DOMAIN\n  value: shop.vn",
  ],
};

/**
 * A session id handed out under the name `sid`: Synology DSM's login answers
 * `"sid": "…"` and takes it back as `_sid=…` in every URL after. Twilio's
 * resource SIDs (two capitals, 32 hex digits) and Windows' SIDs (`S-1-5-…`)
 * are ids, not sessions.
 */
export const sessionId: Rule = {
  id: "session_id",
  metricLabel: "session_cookie",
  description: 'Session id under the name sid ("sid": "…" in a login\'s answer, _sid=… in a URL)',
  placeholder: "<SESSION>",
  keywords: ["sid"],
  startsAtKeyword: true,
  pattern: () =>
    /sid(?<=(?<![\w-])_?sid)\\{0,3}"?[ \t]{0,4}[:=][ \t]{0,4}\\{0,3}"?(?<secret>[A-Za-z0-9_-]{32,512})(?![\w-])/dg,
  secretGroup: "secret",
  priority: 420,
  validators: [
    notPlaceholder,
    function notTwilioSid(c) {
      return /^[A-Z]{2}[0-9a-f]{32}$/.test(c.secret) ? "a Twilio resource SID" : undefined;
    },
    hasBothCasesAndDigit,
    minEntropy(4),
  ],
  allowlist: [],
  truePositives: [
    '{"data": {"did": "c884d7a485e4c0cb", "sid": "Kq7mZ2xLp5Rt7Kw9Pn4Yb6Hc1Jd3Fs0GaUe4Io7Qw3-Er5Ty9Ui1Op3As5Df7"}, "success": true}',
    "curl 'https://nas.lan:5001/webapi/entry.cgi?api=SYNO.FileStation.List&_sid=Vq8mZ2xLp5Rt7Kw9Pn4Yb6Hc1Jd3Fs0GaUe4Io'",
  ],
  falsePositives: [
    '{"status": "delivered", "sid": "SMb7e2d9f4a1c8e6b3d0f5a2c7e9b4d1f8", "num_segments": "1"}',
    "Get-ADUser an.le | Select sid\nsid : S-1-5-21-3623811015-3361044348-30300820-1013",
  ],
};

/**
 * Erlang's distribution cookie: `RABBITMQ_ERLANG_COOKIE=…`, `-setcookie …`,
 * `erlang_cookie: …`, the `.erlang.cookie` file's content (echoed into it,
 * or said in a comment). Often 20 capitals, with no digit the generic rules
 * ask for.
 */
export const erlangCookie: Rule = {
  id: "erlang_cookie",
  description:
    "Erlang distribution cookie (RABBITMQ_ERLANG_COOKIE, -setcookie, erlang_cookie, the .erlang.cookie file)",
  placeholder: "<SECRET>",
  keywords: ["cookie"],
  // The validator wants Erlang's words near: without one in the text no candidate passes.
  precheck: (facts) =>
    ["erlang", "setcookie", "rabbit", "couch", "elixir", "vm.args", "-name", "-sname"].some((
      word,
    ) => facts.lower.includes(word)),
  pattern: () =>
    new RegExp(
      "(?:erlang[._-]?cookie|setcookie|(?<![\\w-])cookie(?=[ \\t]*[=:]))(?![A-Za-z])" +
        // `.erlang.cookie on every node = …`: a few words before the operator.
        "(?:[^\\n=:\"'`]{0,40}?[ \\t]*[=:][ \\t]*|[ \\t]+)[\"'`]?" +
        "(?<secret>[A-Za-z0-9][A-Za-z0-9_+/=.-]{15,255})(?![\\w+/=.-])" +
        "|\\becho[ \\t]+(?:-n[ \\t]+)?[\"']?(?<secret>[A-Za-z0-9][A-Za-z0-9_+/=.-]{15,255})[\"']?[ \\t]*(?:>{1,2}|\\|[ \\t]*(?:sudo[ \\t]+)?tee)[ \\t]*\\S{0,200}\\.erlang\\.cookie",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 400,
  validators: [
    notPlaceholder,
    function erlangCookieShape(c) {
      if (c.groups["secret"] === undefined) return "no value";
      // `-setcookie` and a bare `cookie =` need the words of Erlang nearby.
      const before = c.text.slice(Math.max(0, c.matchStart - 400), c.matchStart).toLowerCase();
      const said = /erlang|setcookie/.test(c.match.toLowerCase()) ||
        /erlang|rabbit|couchdb|elixir|\bvm\.args|\bnode\b|-name\b|-sname\b/.test(before);
      if (!said) return "no Erlang nearby";
      return /^[A-Z]{16,}$/.test(c.secret) ? undefined : minEntropy(3)(c);
    },
  ],
  allowlist: [],
  truePositives: [
    "# /var/lib/rabbitmq/.erlang.cookie on every node = HSZFCRUXYUMMEGNVIIDR\n",
    "RABBITMQ_ERLANG_COOKIE=QWTKZPLMXNVBRCYDHFGJ",
    "echo -n 'Zq7Wm3Lx9Tk2Rv8Np4Hd' | sudo tee /var/lib/rabbitmq/.erlang.cookie",
    "## vm.args\n-name couch@db1.lan\n-setcookie 9f2c7a1e5b3d8f604a2e1c7b",
  ],
  falsePositives: [
    "chmod 400 /var/lib/rabbitmq/.erlang.cookie && chown rabbitmq /var/lib/rabbitmq/.erlang.cookie",
    "RABBITMQ_ERLANG_COOKIE=${ERLANG_COOKIE}",
    "cookie = SESSION_COOKIE_NAME_FOR_CHECKOUT",
  ],
};
