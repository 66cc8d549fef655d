/**
 * The password part only of URL credentials (`scheme://user:PASS@host`,
 * and Go's MySQL DSN `user:PASS@tcp(host)/db`, which has no scheme).
 * Templates (`USER:PASSWORD`), variables and the documented defaults
 * (`guest:guest`, `postgres:postgres`) stay.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";

const DEFAULTS = new Set([
  "guest",
  "postgres",
  "root",
  "admin",
  "pass",
  "password",
  "secret",
  "changeme",
  "example",
  "test",
  "mysql",
  "redis",
  "user",
  "default",
  "letmein",
  "toor",
  "123456",
  "pwd",
  // GitHub's constant password for a token given as the user.
  "x-oauth-basic",
]);

function notDefault(c: Candidate): string | undefined {
  const value = c.secret.toLowerCase();
  if (DEFAULTS.has(value)) return `documented default ${c.secret}`;
  if (value === (c.groups["user"] ?? "").toLowerCase()) return "same as the user name";
  if (/^[A-Z_]+$/.test(c.secret)) return "upper-case placeholder";
  // `bob:abc@`, `u:2222@`: an example's stand-in, not a password anyone sets.
  if (c.secret.length < 4 || /^(.)\1*$/.test(c.secret)) {
    return "too short or one repeated character";
  }
  return undefined;
}

/** `scheme://user:password@host`. */
export const urlPassword: Rule = {
  id: "url_password",
  description: "Password in URL credentials (scheme://user:password@host)",
  placeholder: "<PASSWORD>",
  keywords: ["://"],
  startsAtKeyword: true,
  // Most URLs carry no credentials: without an `@` the pattern is never compiled.
  precheck: (facts) => facts.text.includes("@"),
  pattern: () =>
    // A `#` belongs to the password when an `@` follows: people paste them unencoded. The host
    // may be empty (Airflow's `snowflake://user:pw@/db?account=…`).
    // An `@` may stand in the password too, pasted unencoded: the userinfo ends at the
    // last `@` before the host (at most two inside the password). A `?` may end it, right
    // before the `@`: in a query it would stand before a `=`.
    new RegExp(
      String
        .raw`(?<=(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}):\/\/(?<user>[^\s:/@?#'"]{0,100}):(?<secret>[^\s@/?#'"][^\s@/?'"]{0,4095}(?:@[^\s@/?'"]{1,4095}){1,2}(?=@[\w.[-][\w.-]*(?::\d{1,5})?(?:[/?#"'\s,;)]|$))|[^\s@/?#'"][^\s@/?'"]{0,4095}\??(?=@[\w.[/-])` +
        // A base64 key with its `/` unencoded (Cosmos DB's account key in a MongoDB URI).
        String
          .raw`|(?=[A-Za-z0-9+/]{40})[A-Za-z0-9+]{1,100}\/[A-Za-z0-9+/]{1,200}={0,2}(?=@[\w.-]))@`,
      "dg",
    ),
  secretGroup: "secret",
  priority: 550,
  validators: [
    notPlaceholder,
    notDefault,
    function notPropertyList(c) {
      // `jdbc:sqlserver://host:1433;user=svc;password=s@…`: the port and the properties are
      // no password (the password property's own rule reads it).
      return /;[\w.]+=/.test(c.secret) ? "a connection string's properties" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    'POSTGRES_URL="postgres://default:bN@&TPn%AQIyaQH1gZUG@ep-cold-sun-a1b2c3d4-pooler.aws.neon.tech/verceldb"',
    "DATABASE_URL=postgres://app:Xk9-vL2qTm@db.internal:5432/app",
    "DSN used: postgresql+psycopg2://worker:Lantern_Saigon6168?@10.0.12.5:5432/jobs",
    "redis://:Pz4mQ8wLr2@10.1.2.3:6379/0",
    // Airflow's connection URI for a service named by its query: no host.
    "AIRFLOW_CONN_SNOWFLAKE_DWH: 'snowflake://ETL_LOADER:IZgfMkuBhY3Ono%2F@/ANALYTICS?account=xy41873'",
    // A `#` written unencoded.
    "engine url: postgresql+psycopg2://etl:Kq7#Wx2Lm@db.internal:5432/warehouse",
    // Cosmos DB's key, its `/` unencoded.
    "mongodb://acct-live:70NmYVIvmpxLkMAL965XIJTJQfjX+XXhQMXrGHAAEB18U1N89BaeF/a3S+s2YLIPzvi7WfhxMbT0oY//TcAWLS==@acct-live.mongo.cosmos.azure.com:10255/?ssl=true",
  ],
  falsePositives: [
    // Template.
    "postgres://USER:PASSWORD@HOST:5432/DB",
    // A documented default.
    "amqp://guest:guest@localhost:5672/",
    // A variable.
    "mongodb://app:${MONGO_PASSWORD}@mongo:27017",
    // An example's stand-ins.
    "https://bob:abc@example.com",
    "https://bob:2222@example.com",
    "https://user:mypassword@example.com/path",
  ],
};

/**
 * A token given as the URL user with a fixed password (`git+https://TOKEN:x-oauth-basic@…`,
 * GitHub's old OAuth form): the token is the secret, the password a constant.
 */
export const urlTokenUser: Rule = {
  id: "url_token_user",
  description:
    "Token as the user part of URL credentials (https://TOKEN:x-oauth-basic@host, https://TOKEN@host)",
  placeholder: "<URL_TOKEN>",
  keywords: ["x-oauth-basic", "://"],
  startsAtKeyword: true,
  precheck: (facts) => facts.text.includes("@"),
  pattern: () =>
    /(?<=(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}):\/\/(?<secret>[A-Za-z0-9_-]{20,255})(?::x-oauth-basic)?@(?=[\w.[-])/dg,
  secretGroup: "secret",
  priority: 540,
  validators: [
    notPlaceholder,
    hasDigitAndLetter,
    minEntropy(3.3),
    // A Sentry DSN's user part is its public key, meant to ship in browsers.
    function notSentryDsn(c) {
      const host = c.text.slice(c.end + 1, c.end + 100);
      return /^[\w.-]*sentry/.test(host) ? "Sentry DSN public key" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "git clone git+https://f3a9c2e1b5d4a8f9c0e2b4d6f8a1c3e3f9a2c7e1:x-oauth-basic@github.com/acme/infra.git",
    "pip install git+https://Wq8Rt3Lp6Zx2Vm9Kc4Nb7Hj1@git.acme.io/tools/cli.git",
  ],
  falsePositives: [
    // A user name, not a token.
    "https://deploy-bot-production@git.acme.io/tools/cli.git",
    // A template.
    "https://YOUR_PERSONAL_ACCESS_TOKEN:x-oauth-basic@github.com/o/r.git",
    // A Sentry DSN's public key.
    'dsn: "https://9c0e2b4d6f8a1c3e3f9a2c7e1b5d4a8f@o450123.ingest.sentry.io/5512345"',
  ],
};

/** Go's MySQL driver DSN, `user:password@tcp(host:port)/db`: credentials with no scheme. */
export const dsnPassword: Rule = {
  id: "dsn_password",
  description: "Password in a Go MySQL DSN (user:password@tcp(host:port)/db, also unix(…))",
  placeholder: "<PASSWORD>",
  keywords: ["@tcp(", "@unix("],
  startsAtKeyword: true,
  // Starts at the literal `@tcp(`/`@unix(` and looks back for the credentials.
  pattern: () =>
    /(?<=(?<![\w.:/-])(?<user>[\w.-]{1,100}):(?<secret>[^\s:@/'"`]{1,200}))@(?:tcp|unix)\(/dgi,
  secretGroup: "secret",
  priority: 550,
  validators: [
    notPlaceholder,
    notDefault,
    // `fmt.Sprintf("%s:%s@tcp(%s)/%s", …)` builds one; a password may still hold a `%`.
    function notFormatVerb(c) {
      return /^%(?:\[\d\])?[-+# 0]?\d*[a-zA-Z]$/.test(c.secret) ? "a format verb" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    'db, err := sql.Open("mysql", "shop:Vk8Lq2Rw9Zt4@tcp(127.0.0.1:3306)/shop?parseTime=true")',
    'sql.Open("mysql", "billing:T-Wq%Lz#e8vRk@tcp(mysql.internal:3306)/billing")',
  ],
  falsePositives: [
    'dsn := "USER:PASSWORD@tcp(HOST:3306)/DB"',
    'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, name)',
    'sql.Open("mysql", "root:root@tcp(localhost:3306)/test")',
  ],
};
