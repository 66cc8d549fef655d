/**
 * AWS credentials: access key ids (anchored by their prefix), secret access
 * keys (40 base64 characters named by context or right after a key id) and
 * STS session tokens (anchored by their serialised prefix or named by
 * context). The documentation's `…EXAMPLE` keys are allowlisted.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { charClasses, minEntropy, notPlaceholder, notSealedCiphertext } from "../_validators.ts";

/** AKIA/ASIA/… access key ids. */
export const awsAccessKeyId: Rule = {
  id: "aws_access_key",
  description: "AWS access key id (AKIA long-term, ASIA temporary, and other IAM prefixes)",
  placeholder: "<AWS_KEY>",
  keywords: ["akia", "asia", "abia", "acca", "a3t"],
  startsAtKeyword: true,
  pattern: () => /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/dg,
  priority: 800,
  validators: [notPlaceholder],
  allowlist: [/EXAMPLE$/],
  truePositives: ["aws_access_key_id=AKIAQ3EGT7WK2M5ZRN4P", "id ASIAZ2XK7V3PLMQ8RT5W expires soon"],
  falsePositives: [
    // The AWS documentation example key.
    "AKIAIOSFODNN7EXAMPLE",
    // Prose about the prefix.
    "keys that start with AKIA are long-term",
    // A template.
    "aws configure set aws_access_key_id AKIAXXXXXXXXXXXXXXXX",
  ],
};

/**
 * True when some key id in `lower` is followed, within 6 characters, by a
 * run of 40 base64 characters: what the after-a-key-id form needs. A plain
 * scan, so text that merely holds a key id never compiles the full pattern.
 */
function keyIdThenSecret(lower: string): boolean {
  for (const prefix of ["akia", "asia"]) {
    for (let at = lower.indexOf(prefix); at >= 0; at = lower.indexOf(prefix, at + 1)) {
      // One pass over the window for the six starts: a run that breaks
      // rules out every start before the break (text of key ids repeated
      // looked at 240 characters for each).
      let runStart = at + 21;
      for (let i = runStart; runStart <= at + 26 && i < lower.length; i++) {
        if (!isBase64(lower.charCodeAt(i))) runStart = i + 1;
        else if (i - runStart === 39) return true;
      }
    }
  }
  return false;
}

/** `[a-z0-9/+]` (the text is lowercased). */
function isBase64(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 47 || c === 43;
}

/** Every name the secret-key pattern accepts holds one of these (`secret_?access_?key`, `secret_?key`, `aws_?secret`). */
const SECRET_KEY_NAMES = [
  "secretaccess",
  "secret_access",
  "secretkey",
  "secret_key",
  "awssecret",
  "aws_secret",
];

/** The 40-character secret access key. */
export const awsSecretAccessKey: Rule = {
  id: "aws_secret",
  description: "AWS secret access key: 40 base64 characters named by context or after a key id",
  placeholder: "<AWS_SECRET>",
  keywords: ["secret", "akia", "asia"],
  // A bare "secret" is in much prose and code; the pattern wants one of its names.
  precheck: (facts) =>
    (facts.lower.includes("secret") &&
      SECRET_KEY_NAMES.some((name) => facts.lower.includes(name))) ||
    keyIdThenSecret(facts.lower),
  // Both forms lead with a literal (the name, or the key id read forwards
  // rather than as a lookbehind tried at every offset).
  pattern: () =>
    new RegExp(
      "(?:(?<![\\w-])(?:aws_?)?(?:secret_?access_?key|secret_?key|aws_?secret)(?:\\\\?[\"'])?\\s{0,4}(?:[:=]|=>)\\s{0,4}(?:\\\\?[\"'])?" +
        // On the same line, or the next (a chat's two lines, each in backticks or a list's item).
        "|\\b(?:AKIA|ASIA)[A-Z0-9]{16}[\"'`]?(?:[ \\t,:;|/]{1,4}|[ \\t]{0,2}\\r?\\n[ \\t]{0,2}(?:[-*•][ \\t])?)[\"'`]?)" +
        "(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 650,
  validators: [
    notPlaceholder,
    minEntropy(3.5),
    function threeCharacterClasses(c) {
      return charClasses(c.secret) >= 3 ? undefined : "fewer than 3 character classes";
    },
  ],
  allowlist: [/EXAMPLEKEY$/],
  truePositives: [
    "aws_secret_access_key = Zk3+Qm9vTr2LwX8pYb4N/cH6sJd1FgA7eVu5RoKi",
    '{"SecretAccessKey": "b7Lq2Vx9Rm4Tn8Kp3Wz6Yc1Hd5Jf0Ga+Es/Uo7Ni"}',
    "AKIAQ3EGT7WK2M5ZRN4P,Zk3+Qm9vTr2LwX8pYb4N/cH6sJd1FgA7eVu5RoKi",
    "te dejo las keys:\n`AKIAQ3EGT7WK2M5ZRN4P`\n`Zk3+Qm9vTr2LwX8pYb4N/cH6sJd1FgA7eVu5RoKi`\n",
  ],
  falsePositives: [
    // The AWS documentation example secret.
    "secret_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    // Read from the environment, not a literal.
    'aws_secret_access_key = os.environ["AWS_SECRET_ACCESS_KEY"]',
  ],
};

/**
 * A session token's base64 alphabet, also percent-encoded as a presigned
 * URL's `X-Amz-Security-Token` carries it (`%2B`, `%2F`, `%3D`).
 */
const TOKEN_CHAR = "(?:[A-Za-z0-9/+=]|%2[BFbf]|%3[Dd])";

/** STS session tokens. */
export const awsSessionToken: Rule = {
  id: "aws_session_token",
  description: "AWS STS session token, by its serialised prefix or named by context",
  placeholder: "<AWS_SESSION_TOKEN>",
  // The names the pattern accepts, not the bare words: "session" and "security"
  // are in most code and prose, and each text holding one compiled the pattern.
  keywords: [
    "iqojb3jpz2lux2vj",
    "fwogzxivyxdz",
    "fqogzxivyxdz",
    "session_token",
    "sessiontoken",
    "security_token",
    "securitytoken",
    "security-token",
  ],
  pattern: () =>
    new RegExp(
      "(?:(?<![A-Za-z0-9/+])(?<secret>(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE|FQoGZXIvYXdzE)" +
        TOKEN_CHAR + "{40,8192})" +
        "|(?<![\\w-])(?:aws_?session_?token|session_?token|aws_?security_?token|x-amz-security-token)" +
        "(?:\\\\?[\"'])?\\s{0,4}[:=]\\s{0,4}(?:\\\\?[\"'])?(?<secret>" + TOKEN_CHAR +
        "{100,8192}))",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 650,
  validators: [minEntropy(4)],
  allowlist: [],
  truePositives: [
    "AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjEOz//////////wEaCXVzLWVhc3QtMSJHMEUCIQDk7b2Lq9Xr4Tn1Vm8Yc3Ws6Hf0Jd5Pa2Kg7Ue+QIgFt9Rm1Ny4Lx8Ob3Zs6Wv2Hc7Jp0Ki5Ad1Qe=",
    // A presigned URL carries it percent-encoded.
    "https://b.s3.amazonaws.com/a.csv?X-Amz-Date=20250105T101010Z&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEMv%2F%2F%2FwEaCmV1LXdlc3QtMSJGMEQCIHq7Tb2Lm9Xr4Pn1Vk8Yd3Ws6Gf0Jc5Ra2Kh7Ue%2BAiBt9Rm1Ny4Lx8Ob3Zs6Wv2Hc7Jp0Ki5Ad1Qe%3D&X-Amz-Signature=9f2c",
  ],
  falsePositives: [
    // Too short and named as a session id, not a token.
    "session_id=7f3a9c2e1b",
  ],
};

/**
 * An access key id of an S3-compatible store (Wasabi, MinIO, DigitalOcean
 * Spaces, Backblaze, a GCS HMAC id) under a name that says access key id:
 * capitals and digits without AWS's `AKIA`, which the key id rule wants.
 * A Spaces key id's own prefix, `DO00`, needs no name.
 */
export const s3AccessKeyId: Rule = {
  id: "s3_access_key_id",
  metricLabel: "aws_access_key",
  description: "S3-compatible access key id (capitals and digits) under an access-key-id name",
  placeholder: "<AWS_KEY>",
  keywords: [
    "access_key_id",
    "accesskeyid",
    "access-key-id",
    "access_key",
    "minio_root_user",
    "do00",
  ],
  // MinIO's root user is its access key id (`MINIO_ROOT_USER`, formerly `MINIO_ACCESS_KEY`).
  // DigitalOcean's Spaces key ids carry their own prefix, `DO00`, under any name.
  pattern: () =>
    new RegExp(
      "(?:[Aa]ccess_?[Kk]ey(?:_?[Ii][Dd])?|ACCESS_KEY(?:_ID)?|access-key-id|MINIO_ROOT_USER)[\"']?[ \\t]{0,16}(?::=|=>|[:=])[ \\t]{0,16}[\"']?" +
        "(?<secret>GOOG1[A-Z0-9]{50,60}|[A-Z0-9]{16,32})(?![A-Za-z0-9])" +
        "|\\b(?<secret>DO00[A-Z0-9]{16})(?![A-Za-z0-9])",
      "dg",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    notPlaceholder,
    function lettersAndDigits(c) {
      return /\d/.test(c.secret) && /[A-Z]/.test(c.secret) ? undefined : "not capitals and digits";
    },
    minEntropy(3),
  ],
  allowlist: [],
  truePositives: [
    "[wasabi]\ntype = s3\naccess_key_id = NK1S9AP4N6JIREDTO2IJ\nregion = ap-southeast-1",
    'MINIO_ACCESS_KEY="Q7WXG2BWIW81DTRP6FTK"',
    "    environment:\n      MINIO_ROOT_USER: 4HQ7ZK2WX9PLM3VB8RTN",
    "gs_access_key_id = GOOG1E3QI5DECK16RTCDSKB4P96H4XJITCEF0CEMLO6L7K62DCKE0ZIC57HVQ",
    'spaces_access_id  = "DO00FSEGVH6AKAQX8CBK"',
  ],
  falsePositives: [
    "access_key_id = YOURACCESSKEYID12345X",
    "access_key_id = 00000000000000000000",
    "MINIO_ROOT_USER: minioadmin",
  ],
};

/** The part of `text` around a match that belongs to one SSM parameter: from its `Name` to the next. */
function parameterAround(text: string, start: number, end: number): string {
  const before = text.slice(Math.max(0, start - 600), start);
  const after = text.slice(end, end + 600);
  const name = before.lastIndexOf("Name");
  const next = after.indexOf("Name");
  return (name < 0 ? before : before.slice(name)) + text.slice(start, end) +
    (next < 0 ? after : after.slice(0, next));
}

/**
 * The decrypted value of an SSM SecureString parameter, as
 * `aws ssm get-parameter(s) --with-decryption` prints it in JSON or YAML.
 */
export const ssmSecureString: Rule = {
  id: "aws_ssm_secure_string",
  description:
    "Decrypted value of an AWS SSM SecureString parameter (get-parameter --with-decryption output)",
  placeholder: "<SECRET>",
  keywords: ["securestring"],
  pattern: () =>
    new RegExp(
      // Quoted in JSON, bare in YAML: two spellings of one group.
      '(?:"Value"|\\bValue)[ \\t]*:[ \\t]*(?:"(?<secret>[^"\\n]{1,4096})"' +
        `|(?<secret>[^\\s"'{\\[][^\\n]{0,4095}?))[ \\t]*(?=,?[ \\t]*(?:\\r?\\n|$)|\\})`,
      "dg",
    ),
  secretGroup: "secret",
  // Below the rules that say what the value is (a password under a name that says so).
  priority: 400,
  validators: [
    function ofASecureString(c) {
      return /["']?Type["']?[ \t]*:[ \t]*["']?SecureString/.test(
          parameterAround(c.text, c.start, c.end),
        )
        ? undefined
        : "not a SecureString parameter's";
    },
    notPlaceholder,
    notSealedCiphertext,
  ],
  allowlist: [],
  truePositives: [
    '{\n    "Parameter": {\n        "Name": "/orders/prod/ledger-settings",\n        "Type": "SecureString",\n        "Value": "Lq8Vx2kR7mZ3Wp5Tn9",\n        "Version": 4\n    }\n}',
    "Parameter:\n  ARN: arn:aws:ssm:eu-west-1:111122223333:parameter/billing/stripe-key\n  DataType: text\n  Name: /billing/stripe-key\n  Type: SecureString\n  Value: Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1\n  Version: 2\n",
  ],
  falsePositives: [
    '{"Parameter": {"Name": "/orders/prod/db-host", "Type": "String", "Value": "db.internal:5432"}}',
    '{"Parameter": {"Name": "/orders/prod/db-password", "Type": "SecureString", "Value": "AQICAHhV2mGm3LzdzYqEGWkqZ0hBdcxA7iGwIFQ8wJc0jyTWnwHyf5Nq4lQ0R0P8iB2E8uD0AAAAbDBqBgkqhkiG9w0BBwagXTBbAgEAMFYGCSqGSIb3DQEHATAeBglghkgBZQMEAS4wEQQM"}}\n{"Name": "/orders/prod/region", "Type": "String", "Value": "eu-west-1"}',
  ],
};

/** The AWS family. */
export const aws: Rule[] = [
  awsAccessKeyId,
  awsSecretAccessKey,
  awsSessionToken,
  s3AccessKeyId,
  ssmSecureString,
];
