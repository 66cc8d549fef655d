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

import type { Candidate, Rule } from "../_engine.ts";
import { minEntropy } from "../_validators.ts";

/** Base64 characters a real key body has at the least (an Ed25519 PKCS #8 key has 64). */
const MIN_BODY_CHARS = 32;

/**
 * Rejects a block whose body is not key material: empty, a word
 * (`anything`), or a mask (`xxx…`).
 */
function bodyIsKeyMaterial(c: Candidate): string | undefined {
  const body = c.secret
    .replace(/-----(?:BEGIN|END)[ A-Z0-9]*-----/g, "")
    .replace(/\\[nr]/g, "\n")
    .replace(/^[A-Za-z][\w-]{0,30}: .*$/gm, "");
  // Character codes, not a pattern per character: that cost a third of the
  // time of text dense with key blocks.
  let chars = 0;
  let distinct = 0;
  const seen = new Uint8Array(128);
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (!isBase64Char(code)) continue;
    chars++;
    if (seen[code] === 0) {
      seen[code] = 1;
      distinct++;
    }
  }
  if (chars < MIN_BODY_CHARS) return `body has ${chars} base64 characters < ${MIN_BODY_CHARS}`;
  return distinct < 16 ? `body uses ${distinct} distinct characters` : undefined;
}

/** `A`–`Z`, `a`–`z`, `0`–`9`, `+` or `/`. */
function isBase64Char(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ||
    code === 43 || code === 47;
}

/** Rejects base64 that does not decode to a PEM private key header. */
function decodesToPrivateKey(c: Candidate): string | undefined {
  // The pattern wants 74+ base64 characters: the first 72 decode without padding.
  const decoded = atob(c.secret.slice(0, 72));
  return /PRIVATE KEY/.test(decoded) ? undefined : "decodes to no private key header";
}

/** PEM, OpenSSH and PGP private key blocks. */
export const privateKey: Rule = {
  id: "private_key",
  description:
    "PEM / OpenSSH / PGP private key block, or an OpenVPN static key, raw or JSON-escaped",
  placeholder: "<PRIVATE_KEY>",
  keywords: ["private key", "static key"],
  pattern: () =>
    new RegExp(
      // OpenVPN's static key (`tls-auth`, `tls-crypt`) is as secret as a private key.
      "-----BEGIN(?:[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?| OpenVPN Static key V1)-----" +
        "(?:(?:\\s|\\\\[nr])*[A-Za-z][\\w-]{0,30}: [^\\n\\\\]{0,200})*" +
        // Each line may be commented (`# `, `> `, ` * `), quoted and joined (`"…\\n" +`), or
        // numbered as Claude Code's Read prints a file (`     2→b3Bl…`).
        "[A-Za-z0-9+/=\\s\\\\#>\"'*→]*" +
        "(?:-----END(?:[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?| OpenVPN Static key V1)-----|(?<=[A-Za-z0-9+/=]{64}))",
      "dg",
    ),
  priority: 900,
  validators: [bodyIsKeyMaterial],
  allowlist: [],
  truePositives: [
    "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\nKUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQ==\n-----END RSA PRIVATE KEY-----",
    '{"content": "-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIFq8rT0w3pNn7sYk2XbV1mQhJ4cLzA9eW6uRtGy5oPdK\\n-----END PRIVATE KEY-----\\n"}',
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,1A2B3C4D5E6F7081\n\n3q8Wm1Rv7Kx2Lp9Zt4Yc6Nh0Jd5Fs8Ga2Ue4Io7Qw3Er5Ty9Ui1Op3As5Df7Gh9J\n-----END ENCRYPTED PRIVATE KEY-----",
    "truncated paste:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n",
    "# -----BEGIN EC PRIVATE KEY-----\n# MHcCAQEEIBq8Mm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7oAoGCCqGSM49\n# AwEHoUQDQgAEx8Kp2Lm9Qr4Vt7Wz1Nb3Hc6Jd0Fs5Ga8Ue2Io4Qw7Er1Ty3Ui5Op\n# -----END EC PRIVATE KEY-----",
    "     1→-----BEGIN OPENSSH PRIVATE KEY-----\n     2→b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz\n     3→c2gtZWQyNTUxOQAAACBq8Mm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7oA\n     4→-----END OPENSSH PRIVATE KEY-----",
    'String pem = "-----BEGIN PRIVATE KEY-----\\n" +\n    "MC4CAQAwBQYDK2VwBCIEIFq8rT0w3pNn7sYk2XbV1mQhJ4cLzA9eW6uRtGy5oPdK\\n" +\n    "-----END PRIVATE KEY-----";',
    "<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\n6acef03f62675b4b1bbd03e53b187727\n423cea742242106cb2916a8a4c829756\n3d22c7e5cef430b1103c6f66eb1fc5b3\n75a672f158e2e2e936c3faa48b035a6d\n-----END OpenVPN Static key V1-----\n</tls-auth>",
  ],
  falsePositives: [
    // A certificate is public.
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQk3Zb2xvZ2lzdGljcy1kZXYtY2EwHhcNMjQwMTAxMDAw\n-----END CERTIFICATE-----",
    // A public key is public.
    "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
    // Prose naming the header, no key material after it.
    "the file must start with -----BEGIN RSA PRIVATE KEY----- and end with the matching END line",
    // Bodies that are not key material.
    "-----BEGIN PRIVATE KEY-----\nxxx\n-----END PRIVATE KEY-----",
    "-----BEGIN RSA PRIVATE KEY-----\nanything\n-----END RSA PRIVATE KEY-----",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n-----END OPENSSH PRIVATE KEY-----",
  ],
};

/** A PEM private key, base64-encoded once more (kubeconfig `client-key-data`, Kubernetes secrets). */
export const privateKeyBase64: Rule = {
  id: "private_key_base64",
  description: "Base64 of a PEM private key block (LS0tLS1CRUdJTi…, kubeconfig client-key-data)",
  placeholder: "<PRIVATE_KEY>",
  keywords: ["ls0tls1crudjti"],
  startsAtKeyword: true,
  pattern: () =>
    /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{60,20000}={0,2}(?![A-Za-z0-9+/=])/dg,
  priority: 900,
  validators: [decodesToPrivateKey],
  allowlist: [],
  truePositives: [
    "    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBdGVzdGtleW1hdGVyaWFsZm9ydGhlc2FtcGxl",
  ],
  falsePositives: [
    // A certificate is public.
    "    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Fo",
  ],
};

/** A PuTTY private key file (`.ppk`), from its first line to its MAC. */
export const puttyPrivateKey: Rule = {
  id: "putty_private_key",
  description: "PuTTY private key file (PuTTY-User-Key-File-2/3 … Private-MAC), the whole file",
  placeholder: "<PRIVATE_KEY>",
  keywords: ["putty-user-key-file-"],
  startsAtKeyword: true,
  pattern: () =>
    /PuTTY-User-Key-File-[23]:[^\n]{1,200}\n(?:[^\n]{0,200}\n){1,60}?Private-MAC:[ \t]*[a-f0-9]{40,64}/dg,
  priority: 900,
  validators: [],
  allowlist: [],
  truePositives: [
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIH8m2Qx7Lp4Rt9Wz3Vb6Nc1Kd5Fs0Ga2Ue4Io7Qw3E\nr5Ty9Ui\nPrivate-Lines: 1\nAAAAIFq8Mm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3\nPrivate-MAC: 3b9f0c7a5e1d2c4b6a8f0e2d4c6b8a0f1e3d5c7b9a1f3e5d7c9b1a3f5e7d9c1b",
  ],
  falsePositives: [
    "convert it with puttygen; the file starts with PuTTY-User-Key-File-3: and a type",
  ],
};

/**
 * A minisign or rsign secret key (Tauri's updater signs with one): the key
 * line after its `untrusted comment: … secret key` line. Tauri prints the
 * whole file in base64, which the base64 reading decodes.
 */
export const minisignSecretKey: Rule = {
  id: "minisign_secret_key",
  description: "minisign / rsign secret key (the line after untrusted comment: … secret key)",
  placeholder: "<PRIVATE_KEY>",
  keywords: ["untrusted comment:"],
  startsAtKeyword: true,
  pattern: () =>
    /untrusted comment:[^\n]{0,80}secret key\r?\n(?<secret>RWR[A-Za-z0-9+/]{80,400}={0,2})(?![A-Za-z0-9+/=])/dg,
  secretGroup: "secret",
  priority: 900,
  validators: [],
  allowlist: [],
  truePositives: [
    "untrusted comment: minisign encrypted secret key\nRWRTY0IyVq8mZ2xLp5Rt7Kw9Pn4Yb6Hc1Jd3Fs0GaUe4Io7Qw3Er5Ty9Ui1Op3As5Df7Gh9Jk1Lz4Xc8Vb2Nm6Qw0Er5Ty9Ui3Op7As1Df5Gh9Jk2Lz5Xc9Vb3Nm7Qw1Er6Ty0Ui4Op8As2Df6Gh0Jk4Lm=",
  ],
  falsePositives: [
    "untrusted comment: minisign public key 5C6D\nRWRcbTqL8w4kPz3oMmX2bQvY7nT5sR1aF9dG6hJ0kL3zX8cV2bN5mQ4wE",
  ],
};

/** A BorgBackup key file (`borg key export`): the repository's key, encrypted only by its passphrase. */
export const borgKey: Rule = {
  id: "borg_key",
  description: "BorgBackup key file (BORG_KEY <repository id> and its base64 lines), the whole key",
  placeholder: "<PRIVATE_KEY>",
  keywords: ["borg_key "],
  startsAtKeyword: true,
  pattern: () => /BORG_KEY [0-9a-f]{64}\r?\n(?:[A-Za-z0-9+/=]{16,100}(?:\r?\n|$)){2,400}/dg,
  priority: 900,
  validators: [],
  allowlist: [],
  truePositives: [
    "$ cat ~/.config/borg/keys/backup_example\nBORG_KEY 4f0c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19\nhqlhbGdvcml0aG2mc2hhMjU2pGRhdGHaAZ5Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4I\no7Qw3Er5Ty9Ui1Op3As5Df7Gh9Jk1Lz4Xc8Vb2Nm6Qw0Er5Ty9Ui3Op7As1Df5Gh9Jk2Lz5X\nc9Vb3Nm7Qw1Er6Ty0Ui4Op8As2Df6Gh0Jk==\n",
  ],
  falsePositives: [
    "export it with `borg key export`; the file starts with BORG_KEY and the repository id",
  ],
};

/**
 * The private members of a JSON Web Key (`"d"`, and RSA's `"p"`, `"q"`,
 * `"dp"`, `"dq"`, `"qi"`): the key itself, in a JWKS or a `.jwk` file that
 * was meant to hold only the public `"x"`, `"y"` or `"n"`. In a text with a
 * `"kty"`, so that other JSON's one-letter keys stay.
 */
export const jwkPrivateMember: Rule = {
  id: "jwk_private_member",
  description:
    'Private member of a JSON Web Key ("d", "p", "q", "dp", "dq", "qi"), in a text with a "kty"',
  placeholder: "<PRIVATE_KEY>",
  keywords: ['"kty'],
  pattern: () =>
    /(?<!\w)"(?:d|p|q|dp|dq|qi)\\{0,3}"[ \t]*:[ \t]*\\{0,3}"(?<secret>[A-Za-z0-9_-]{20,1400})\\{0,3}"/dg,
  secretGroup: "secret",
  priority: 900,
  validators: [minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    '{"keys":[{"kty":"EC","crv":"P-256","kid":"sig-1","x":"hL_9sUesd2_3NyHzBk95qmQghWcy89LLJFn_u4as0n4","y":"3vOGr2U1uOqaVMmqyEbzvEp4RIV41lPVvi8SEfIcdaE","d":"Qk3_vR9sLm2XpT7wNz4YbHc1Jd5Fs8Ga0Ue6Io3Ka9M"}]}',
  ],
  falsePositives: [
    '{"kty":"EC","crv":"P-256","x":"hL_9sUesd2_3NyHzBk95qmQghWcy89LLJFn_u4as0n4","y":"3vOGr2U1uOqaVMmqyEbzvEp4RIV41lPVvi8SEfIcdaE"}',
    '{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB"}',
  ],
};
