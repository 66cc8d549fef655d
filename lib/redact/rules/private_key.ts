/**
 * Private key blocks: the whole `-----BEGIN … PRIVATE KEY-----` to
 * `-----END … PRIVATE KEY-----`, also in JSON-serialised form with literal
 * `\n`, with RFC 1421 headers (`Proc-Type:`, `DEK-Info:`), and a truncated
 * block without its END line when at least one full base64 line follows.
 *
 * The body class excludes `-`, so a BEGIN without an END stops at the next
 * dash run instead of scanning the rest of the text.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";

/** PEM, OpenSSH and PGP private key blocks. */
export const privateKey: Rule = {
  id: "private-key",
  description: "PEM / OpenSSH / PGP private key block, raw or JSON-escaped",
  placeholder: "<PRIVATE_KEY>",
  keywords: ["private key"],
  pattern: () =>
    new RegExp(
      "-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----" +
        "(?:(?:\\s|\\\\[nr])*[A-Za-z][\\w-]{0,30}: [^\\n\\\\]{0,200})*" +
        "[A-Za-z0-9+/=\\s\\\\]*" +
        "(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?<=[A-Za-z0-9+/=]{64}))",
      "dg",
    ),
  priority: 900,
  validators: [],
  allowlist: [],
  truePositives: [
    "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\nKUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQ==\n-----END RSA PRIVATE KEY-----",
    '{"content": "-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIFq8rT0w3pNn7sYk2XbV1mQhJ4cLzA9eW6uRtGy5oPdK\\n-----END PRIVATE KEY-----\\n"}',
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,1A2B3C4D5E6F7081\n\nZm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4\n-----END ENCRYPTED PRIVATE KEY-----",
    "truncated paste:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n",
  ],
  falsePositives: [
    // A certificate is public.
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQk3Zb2xvZ2lzdGljcy1kZXYtY2EwHhcNMjQwMTAxMDAw\n-----END CERTIFICATE-----",
    // A public key is public.
    "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
    // Prose naming the header, no key material after it.
    "the file must start with -----BEGIN RSA PRIVATE KEY----- and end with the matching END line",
  ],
};
