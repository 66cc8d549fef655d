/**
 * Lists of secrets under a name that says secret: Remix's and Koa's signing
 * keys (`secrets: ['…', '…']`, `app.keys = ['…']`), `API_TOKENS = ("…" "…")`,
 * a TOML array of passwords. Each quoted item is a secret; an old key kept
 * beside the new one for rotation opens as much as the new one. Lists in a
 * tool's JSON arguments are read by the structured reading
 * (`_json_values.ts`); this rule reads them in code and configuration text.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import {
  notPlaceholder,
  passwordShapeProblem,
  PUBLISHABLE_KEYS,
  remembered,
  shannonEntropy,
} from "../_validators.ts";
import { textPasswordNameProblem, textSecretNameProblem } from "../secret_keys.ts";

/** A list's name: `secrets`, `app.keys`, `API_TOKENS`, `"cookieSecrets"`, `passwords`. */
const LIST_NAME = "(?<![\\w.-])(?<name>[\\w.-]{0,60})";

/** One quoted item before the secret's, and the separator after it. */
const EARLIER_ITEM = `(?:'[^'\\n]{0,200}'|"[^"\\n]{0,200}")(?:[ \\t]{0,8},\\s{0,40}|\\s{1,40})`;

/** The list's name read as one secret's: `secrets` as `secret`, `API_TOKENS` as `API_TOKEN`. */
function singular(name: string): string {
  return name.replace(/([A-Za-z])[sS]$/, "$1");
}

// Text built to be slow repeats one list thousands of times: each name and item is judged once.
const listNameProblem = remembered((name) => textSecretNameProblem(singular(name)));
const passwordListNameProblem = remembered((name) => textPasswordNameProblem(singular(name)));

/** Whether the list's name says its items are passwords. */
function namesPasswords(c: Candidate): boolean {
  return passwordListNameProblem(c.groups["name"] ?? "") === undefined;
}

/**
 * Why an item of a list named for keys or tokens is not one: a key is one
 * word of key characters, mixed cases and digits when short, random when
 * long; names of secrets (`db-password-v2`, `prod/stripe.key`) and ids stay.
 */
const keyShapeProblem = remembered(keyShapeProblemOf);

function keyShapeProblemOf(value: string): string | undefined {
  if (!/^[A-Za-z0-9_\-+/=.~]+$/.test(value)) return "not one word of key characters";
  if (!/\d/.test(value) || !/[A-Za-z]/.test(value)) return "no digit and letter";
  if (/^[a-z]+(?:[_./-][a-z0-9]+)+$/.test(value)) return "a name in lowercase words";
  if (/\/.*\.[a-z0-9]{2,8}$/.test(value)) return "a path";
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
    return "a UUID";
  }
  if (value.length < 16) {
    if (!/[a-z]/.test(value) || !/[A-Z]/.test(value)) return "short, without both cases";
    return /[a-z]{5}|[A-Z]{5}/.test(value) ? "short, with a word-like run" : undefined;
  }
  const entropy = shannonEntropy(value);
  return entropy <= 3.2 ? `entropy ${entropy.toFixed(2)} ≤ 3.2` : undefined;
}

/** A list of quoted secrets assigned to a name that says secret, key, token or password. */
export const secretList: Rule = {
  id: "secret_list",
  description:
    "Each quoted item of a list named for secrets: secrets: ['…', '…'] (Remix), app.keys = [...] (Koa), API_TOKENS=(… …), passwords = [...]",
  placeholder: "<SECRET>",
  keywords: ["secret", "key", "token", "pass", "pwd", "cred", "auth", "cookie"],
  precheck: (facts) => /[:=][ \t]*[[(]\s{0,40}["']/.test(facts.lower),
  pattern: () =>
    new RegExp(
      // Starts at an item's quote, reads the item, and only then looks back for the list's head:
      // the look back is the costly part.
      `["'](?<secret>[^'"\\s\\\\()[\\]{}]{8,200})(?=["'](?:\\s|[,)\\]]))` +
        `(?<=${LIST_NAME}\\\\{0,3}["']?[ \\t]{0,8}(?::=|=>|[:=])[ \\t]{0,8}[[(]\\s{0,40}` +
        `(?:${EARLIER_ITEM}){0,30}["'][^'"\\s]{8,200})`,
      "dg",
    ),
  secretGroup: "secret",
  priority: 390,
  validators: [
    function nameSaysSecrets(c) {
      return namesPasswords(c) ? undefined : listNameProblem(c.groups["name"] ?? "");
    },
    notPlaceholder,
    function valueShape(c) {
      return namesPasswords(c) ? passwordShapeProblem(c.secret) : keyShapeProblem(c.secret);
    },
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "  cookie: {\n    name: '__session',\n    secrets: ['m0T5h5UQCE9bZkkTOMfZANzQgrfqNLRW', 'Dh2aS0q8AeQYOSyNDihKgrNC1KT21TFy'],\n  },",
    "app.keys = ['Vq8Rt3Lm9xKw7Zq2Tn4yHc6J', 'Pz1Lk5Wq8Rm3Tn7Vb2Xc9Hd4']",
    'API_TOKENS=("Kw7Zq2Tn4yVq8Rt3Lm9xHc6J" "Lm9xHc6JKw7Zq2Tn4yVq8Rt3")',
    'backup_passwords = [\n  "Vq8-Rt3!Lm9x",\n  "Kw7#Zq2-Tn4y",\n]',
  ],
  falsePositives: [
    // Names of keys, not keys.
    "keys: ['id', 'created_at', 'updated_at', 'customer_name']",
    "secrets: ['DATABASE_URL', 'STRIPE_SECRET_KEY', 'SESSION_SECRET']",
    // Variables, not values.
    "secrets: [process.env.SESSION_SECRET_CURRENT, process.env.SESSION_SECRET_PREVIOUS]",
    'tokens = ["${TOKEN_A}", "${TOKEN_B}"]',
    // A list of what a password must not be.
    "allowed_tokens: ['Bearer', 'Basic', 'Digest']",
    // Names of secrets in a store, ids and paths.
    "secrets: ['prod/stripe-key-v2', 'github_token_2', 'db-password-2024']",
    'api_keys = ["3dc26e33-dd75-4a47-8935-74ae5cc330ac", "keys/2024/signing.pem"]',
    // A publishable key is made to be published.
    "publicKeys: ['pk_live_51Hx8QmLk2Wq9Rz4Vt7Nb3']",
  ],
};
