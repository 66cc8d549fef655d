/**
 * Secret headers a web server or proxy adds to what it forwards, written as
 * a directive with the header's name and value apart: nginx's
 * `proxy_set_header X-Api-Key …;`, Apache's `RequestHeader set X-Auth-Token
 * "…"`. No `:` or `=` stands between the name and the value, so the
 * assignment rules do not read them.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { textSecretNameProblem } from "../secret_keys.ts";

/** A header set by nginx's or Apache's directives whose name says key, token or secret. */
export const headerDirectiveSecret: Rule = {
  id: "header_directive_secret",
  description:
    "Secret header set by a web server's directive: nginx proxy_set_header/add_header, Apache RequestHeader/Header set",
  placeholder: "<SECRET>",
  keywords: ["_header", "header "],
  pattern: () =>
    // Starts at the directive's `eader` (a literal) and looks back for the rest: a leading
    // alternation made V8 try every offset.
    /eaders?(?<=\b(?:proxy_set_h|grpc_set_h|add_h|more_set_h|RequestH|H)eaders?)(?:[ \t]+(?:always|set|append|add|merge)){0,2}[ \t]+["']?(?<name>[\w-]{1,80})["']?[ \t]+["']?(?<secret>[A-Za-z0-9_\-+/=.~]{8,4096})(?=["';\s]|$)/dg,
  secretGroup: "secret",
  priority: 400,
  validators: [
    (c) => textSecretNameProblem(c.groups["name"] ?? ""),
    notPlaceholder,
    hasDigitAndLetter,
    minEntropy(3),
  ],
  allowlist: [],
  truePositives: [
    "location /api/ {\n  proxy_pass http://10.0.0.5:8080/;\n  proxy_set_header X-Api-Key k7Rm2Qx9Lp4Wv8Tn3Bc6Hd1Js5;\n}",
    'RequestHeader set X-Auth-Token "Wq8Lm3Vx7Kp2Rt9Yn4Bc6Hd1"',
  ],
  falsePositives: [
    "proxy_set_header X-Api-Key $upstream_api_key;",
    "proxy_set_header X-Request-Id $request_id;\nadd_header X-Cache-Key-Version v20240916;",
    'Header always set Strict-Transport-Security "max-age=63072000"',
  ],
};
