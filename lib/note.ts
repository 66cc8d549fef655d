/**
 * C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 keys: the
 * envelope of Go's checksum database, Sigstore and every tlog witness.
 *
 *     <text, one or more lines, each ending in a newline>
 *     <blank line>
 *     — <key name> <base64(key id ‖ signature)>
 *
 * The signature is Ed25519 over the text bytes (with its final newline). The
 * key id is the first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key),
 * 0x01 naming the Ed25519 type; a verifier key is written
 * `<name>+<key id hex>+<base64(0x01 ‖ public key)>`.
 *
 * Ed25519 is WebCrypto's (`crypto.subtle`); SHA-256 for key ids is the
 * synchronous one the Merkle tree uses.
 *
 * @module
 */

import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, equalBytes } from "./merkle.ts";

/** The signature type byte of Ed25519 in key ids and verifier keys. */
export const ED25519_TYPE = 0x01;

/** A signature line starts with an em dash (U+2014) and a space. */
export const SIGNATURE_LINE_PREFIX = "\u2014 ";

/** How many signature lines a note may carry (Go's limit). */
export const MAX_SIGNATURES = 100;

/** The PKCS #8 DER prefix of an Ed25519 private key before its 32-byte seed. */
const PKCS8_ED25519_PREFIX = new Uint8Array([
  0x30,
  0x2e,
  0x02,
  0x01,
  0x00,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x70,
  0x04,
  0x22,
  0x04,
  0x20,
]);

const encoder = new TextEncoder();

/** One signature line of a note. */
export interface NoteSignature {
  /** The key name. */
  name: string;
  /** The 4-byte key id. */
  keyId: Uint8Array;
  /** The signature bytes (64 for Ed25519). */
  signature: Uint8Array;
}

/** A parsed note: its text and its signature lines, none verified. */
export interface Note {
  /** The signed text, ending in a newline. */
  text: string;
  /** The signature lines in order. */
  signatures: NoteSignature[];
}

/** An Ed25519 verifier key. */
export interface VerifierKey {
  /** The key name (for our checkpoints: the log's origin). */
  name: string;
  /** The 4-byte key id. */
  keyId: Uint8Array;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

/** A note that does not verify with the key given. */
export class NoteVerificationError extends Error {
  /** Makes the error with what failed. */
  constructor(detail: string) {
    super(`Cannot verify note: ${detail}`);
    this.name = "NoteVerificationError";
  }
}

/** Whether `name` may name a key: non-empty, no whitespace, no `+`. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name) && !/\p{Cc}/u.test(name);
}

/** The C2SP key id: SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key), first 4 bytes. */
export function ed25519KeyId(name: string, publicKey: Uint8Array): Uint8Array {
  const nameBytes = encoder.encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ED25519_TYPE;
  input.set(publicKey, nameBytes.length + 2);
  return sha256(input).slice(0, 4);
}

/** The verifier key text `<name>+<key id hex>+<base64(0x01 ‖ public key)>`. */
export function formatVerifierKey(key: { name: string; publicKey: Uint8Array }): string {
  const typed = new Uint8Array(1 + key.publicKey.length);
  typed[0] = ED25519_TYPE;
  typed.set(key.publicKey, 1);
  return `${key.name}+${bytesToHex(ed25519KeyId(key.name, key.publicKey))}+${encodeBase64(typed)}`;
}

/**
 * Parses a verifier key strictly: a valid name, 8 lowercase hex digits that
 * are the key id the rest computes to, and an Ed25519 key.
 *
 * @throws {SyntaxError} naming what is wrong.
 */
export function parseVerifierKey(text: string): VerifierKey {
  const fail = (detail: string) => new SyntaxError(`Cannot parse verifier key: ${detail}`);
  const first = text.indexOf("+");
  const second = first < 0 ? -1 : text.indexOf("+", first + 1);
  if (second < 0) throw fail("expected <name>+<key id>+<key>");
  const name = text.slice(0, first);
  const idHex = text.slice(first + 1, second);
  if (!isValidKeyName(name)) throw fail(`"${name}" is not a key name`);
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw fail(`key id "${idHex}" is not 8 lowercase hex digits`);
  const typed = decodeBase64(text.slice(second + 1));
  if (typed === undefined) throw fail("the key is not canonical base64");
  if (typed.length !== 33 || typed[0] !== ED25519_TYPE) {
    throw fail("the key is not an Ed25519 key (type 0x01 and 32 bytes)");
  }
  const publicKey = typed.slice(1);
  const keyId = ed25519KeyId(name, publicKey);
  if (bytesToHex(keyId) !== idHex) throw fail(`key id ${idHex} does not match the key`);
  return { name, keyId, publicKey };
}

/**
 * Parses a signed note strictly (signatures not checked): UTF-8 text without
 * control characters other than newline, split at the last blank line,
 * then one or more well-formed signature lines, each ending in a newline.
 *
 * @throws {SyntaxError} naming what is wrong.
 */
export function parseNote(message: string): Note {
  const fail = (detail: string) => new SyntaxError(`Cannot parse note: ${detail}`);
  if (hasControlCharacter(message)) {
    throw fail("it holds a control character other than newline");
  }
  if (message.includes("\uFFFD")) throw fail("it is not valid UTF-8");
  const split = message.lastIndexOf("\n\n");
  if (split < 0) throw fail("no blank line before the signatures");
  const text = message.slice(0, split + 1);
  const block = message.slice(split + 2);
  if (!block.endsWith("\n")) throw fail("the last signature line does not end in a newline");
  const lines = block.slice(0, -1).split("\n");
  if (lines.length > MAX_SIGNATURES) throw fail(`more than ${MAX_SIGNATURES} signatures`);
  const signatures = lines.map((line, i) => {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line);
    const bytes = match === null ? undefined : decodeBase64(match[2]!);
    if (match === null || !isValidKeyName(match[1]!) || bytes === undefined || bytes.length < 5) {
      throw fail(`signature line ${i + 1} is not "— <name> <base64>"`);
    }
    return { name: match[1]!, keyId: bytes.slice(0, 4), signature: bytes.slice(4) };
  });
  return { text, signatures };
}

/**
 * The note's text if a signature by `key` verifies. Lines by other keys are
 * skipped; a line by this key (same name and key id) that does not verify
 * rejects the note, as C2SP requires.
 *
 * @throws {SyntaxError} when the note is malformed.
 * @throws {NoteVerificationError} when no signature by `key` verifies.
 */
export async function verifyNote(message: string, key: VerifierKey): Promise<string> {
  const note = parseNote(message);
  const mine = note.signatures.filter((line) =>
    line.name === key.name && equalBytes(line.keyId, key.keyId)
  );
  if (mine.length === 0) {
    throw new NoteVerificationError(`no signature by ${key.name}+${bytesToHex(key.keyId)}`);
  }
  const publicKey = await crypto.subtle.importKey(
    "raw",
    key.publicKey as Uint8Array<ArrayBuffer>,
    { name: "Ed25519" },
    false,
    ["verify"],
  );
  for (const line of mine) {
    const valid = line.signature.length === 64 &&
      await crypto.subtle.verify(
        "Ed25519",
        publicKey,
        line.signature as Uint8Array<ArrayBuffer>,
        encoder.encode(note.text),
      );
    if (!valid) {
      throw new NoteVerificationError(`the signature by ${key.name} does not match the text`);
    }
  }
  return note.text;
}

/** Signs notes with one Ed25519 key. */
export class NoteSigner {
  /** The key name. */
  readonly name: string;
  /** The 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** The 4-byte key id. */
  readonly keyId: Uint8Array;
  readonly #privateKey: CryptoKey;

  private constructor(name: string, privateKey: CryptoKey, publicKey: Uint8Array) {
    this.name = name;
    this.#privateKey = privateKey;
    this.publicKey = publicKey;
    this.keyId = ed25519KeyId(name, publicKey);
  }

  /**
   * A signer from an Ed25519 private key in PKCS #8 DER (48 bytes) or its
   * raw 32-byte seed.
   *
   * @throws {TypeError} when the name is not a key name or the key is not
   * an Ed25519 private key.
   */
  static async fromPrivateKey(name: string, key: Uint8Array): Promise<NoteSigner> {
    if (!isValidKeyName(name)) {
      throw new TypeError(`Cannot make signer: "${name}" is not a key name`);
    }
    const pkcs8 = key.length === 32 ? concat(PKCS8_ED25519_PREFIX, key) : key;
    let extractable: CryptoKey;
    try {
      extractable = await crypto.subtle.importKey(
        "pkcs8",
        pkcs8 as Uint8Array<ArrayBuffer>,
        { name: "Ed25519" },
        true,
        ["sign"],
      );
    } catch (error) {
      throw new TypeError(`Cannot make signer: not an Ed25519 private key: ${error}`);
    }
    // WebCrypto derives the public key only through the JWK export.
    const jwk = await crypto.subtle.exportKey("jwk", extractable);
    const publicKey = decodeBase64(jwk.x!.replaceAll("-", "+").replaceAll("_", "/") + "=")!;
    const privateKey = await crypto.subtle.importKey(
      "pkcs8",
      pkcs8 as Uint8Array<ArrayBuffer>,
      { name: "Ed25519" },
      false,
      ["sign"],
    );
    return new NoteSigner(name, privateKey, publicKey);
  }

  /** A new random Ed25519 private key in PKCS #8 DER (48 bytes). */
  static async generatePrivateKey(): Promise<Uint8Array> {
    const pair = await crypto.subtle.generateKey(
      { name: "Ed25519" },
      true,
      ["sign", "verify"],
    ) as CryptoKeyPair;
    return new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  }

  /** This key's verifier key text. */
  get verifierKey(): string {
    return formatVerifierKey(this);
  }

  /**
   * The signed note of `text`: the text, a blank line and this key's
   * signature line.
   *
   * @throws {TypeError} when the text does not end in a newline, holds a
   * blank line or a control character (it would not parse back).
   */
  async sign(text: string): Promise<string> {
    if (
      !text.endsWith("\n") || text.includes("\n\n") || text.startsWith("\n") ||
      hasControlCharacter(text)
    ) {
      throw new TypeError(
        "Cannot sign note: the text must end in a newline and hold no blank line or control character",
      );
    }
    const signature = new Uint8Array(
      await crypto.subtle.sign("Ed25519", this.#privateKey, encoder.encode(text)),
    );
    return `${text}\n${SIGNATURE_LINE_PREFIX}${this.name} ${
      encodeBase64(concat(this.keyId, signature))
    }\n`;
  }
}

/** Standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Bytes of standard padded base64, or undefined unless the text is the
 * one canonical encoding of those bytes (so a note has one spelling).
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) {
    return undefined;
  }
  const binary = atob(text);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return encodeBase64(bytes) === text ? bytes : undefined;
}

/** Whether the text holds an ASCII control character other than newline. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
