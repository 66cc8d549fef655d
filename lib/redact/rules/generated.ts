/**
 * Secrets a command has just printed: the line after the command that
 * made them, in a terminal transcript a user pastes or a tool shows. The
 * output has no name of its own; the command is what says it is a secret.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy, notPlaceholder } from "../_validators.ts";

/** Commands whose output is a fresh secret. */
const GENERATORS = [
  "openssl[ \\t]+rand[ \\t]+(?:-hex|-base64)[ \\t]+\\d{1,4}",
  "rails[ \\t]+secret",
  "key:generate[ \\t]+--show",
  "phx\\.gen\\.secret",
  "secrets\\.token_(?:hex|urlsafe)\\([^)\\n]{0,10}\\)",
  "/dev/urandom[^\\n|]{0,60}\\|[ \\t]*(?:base64|xxd[ \\t]+-p|head[^\\n|]{0,20}\\|[ \\t]*base64)",
].join("|");

/**
 * The line printed after `openssl rand -hex 32`, `rails secret`,
 * `php artisan key:generate --show`, `mix phx.gen.secret`,
 * `python -c '…secrets.token_hex(32)…'` or `head -c 32 /dev/urandom |
 * base64`: one token alone on the next line (`wg genkey`'s is
 * `command_key_argument`'s).
 */
export const generatedSecret: Rule = {
  id: "generated_secret",
  description:
    "Secret printed on the line after the command that made it (openssl rand, rails secret, artisan key:generate --show, secrets.token_*)",
  placeholder: "<SECRET>",
  keywords: [
    "openssl rand",
    "rails secret",
    "key:generate",
    "gen.secret",
    "secrets.token_",
    "/dev/urandom",
  ],
  pattern: () =>
    new RegExp(
      // Printed only when nothing takes the output but `tee`: piped into `docker secret create`,
      // the line after is the new secret's id.
      `\\b(?:${GENERATORS})[^\\n|;&>]{0,200}(?:\\|[ \\t]*(?:sudo[ \\t]+)?tee\\b[^\\n|;&]{0,200})?\\r?\\n[ \\t]*` +
        `(?<secret>(?:base64:)?[A-Za-z0-9+/_-]{16,200}={0,2})[ \\t]*(?=\\r?\\n|$)`,
      "dg",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: [
    "$ openssl rand -hex 32 | sudo tee /etc/zabbix/zabbix_agentd.psk\n6f2a1c9e0b7d4a3f8e5c2b1a9d7f6e4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e\n$ ls",
    "$ php artisan key:generate --show\nbase64:Qm9vdHN0cmFwNGxhcmF2ZWwxMjM0NTY3ODkwYWI=\n",
    "❯ python3 -c 'import secrets; print(secrets.token_urlsafe(32))'\nq8Zr4Lm2Vn7Xc1Tb6Yk9Hs3Jd5Fg0Wp2Ae4Rt-x_Q",
  ],
  falsePositives: [
    "$ openssl rand -hex 32 > .secret\n$ ls -la .secret",
    "Run `openssl rand -hex 32` and paste the result into SECRET_KEY.\nThen restart the service.",
    "$ openssl rand -base64 32 | docker secret create pg_password -\n0fg4k7del86e29c9zj7fma08m\n$ docker secret ls",
  ],
};
