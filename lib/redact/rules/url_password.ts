/**
 * The password part only of URL credentials (`scheme://user:PASS@host`).
 * Templates (`USER:PASSWORD`), variables and the documented defaults
 * (`guest:guest`, `postgres:postgres`) stay.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { notPlaceholder } from "../_validators.ts";

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
]);

function notDefault(c: Candidate): string | undefined {
  const value = c.secret.toLowerCase();
  if (DEFAULTS.has(value)) return `documented default ${c.secret}`;
  if (value === (c.groups["user"] ?? "").toLowerCase()) return "same as the user name";
  if (/^[A-Z_]+$/.test(c.secret)) return "upper-case placeholder";
  return undefined;
}

/** `scheme://user:password@host`. */
export const urlPassword: Rule = {
  id: "url_password",
  description: "Password in URL credentials (scheme://user:password@host)",
  placeholder: "<PASSWORD>",
  keywords: ["://"],
  // Most URLs carry no credentials: without an `@` the pattern is never compiled.
  precheck: (facts) => facts.text.includes("@"),
  pattern: () =>
    /(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/(?<user>[^\s:/@?#'"]{0,100}):(?<secret>[^\s@/?#'"]{1,200})@(?=[\w.[-])/dg,
  secretGroup: "secret",
  priority: 550,
  validators: [notPlaceholder, notDefault],
  allowlist: [],
  truePositives: [
    "DATABASE_URL=postgres://app:Xk9-vL2qTm@db.internal:5432/app",
    "redis://:Pz4mQ8wLr2@10.1.2.3:6379/0",
  ],
  falsePositives: [
    // Template.
    "postgres://USER:PASSWORD@HOST:5432/DB",
    // A documented default.
    "amqp://guest:guest@localhost:5672/",
    // A variable.
    "mongodb://app:${MONGO_PASSWORD}@mongo:27017",
  ],
};
