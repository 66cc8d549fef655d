/**
 * Signed notes and checkpoints: the C2SP signed-note example (Go's
 * PeterNeumann note and key) verifies and is reproduced byte for byte from
 * its published private key; a checkpoint our code signs verifies with an
 * independent Ed25519 implementation (Node's `crypto`, in a subprocess);
 * malformed notes, keys and checkpoints are refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  formatCheckpoint,
  openCheckpoint,
  parseCheckpoint,
  signCheckpoint,
} from "../lib/checkpoint.ts";
import { bytesToHex, hexToBytes } from "../lib/merkle.ts";
import {
  decodeBase64,
  ed25519KeyId,
  formatVerifierKey,
  NoteSigner,
  NoteVerificationError,
  parseNote,
  parseVerifierKey,
  verifyNote,
} from "../lib/note.ts";

// The example of golang.org/x/mod/sumdb/note, quoted by C2SP signed-note.
const PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const PETER_TEXT = "If you think cryptography is the answer to your problem,\n" +
  "then you don't know what your problem is.\n";
const PETER_NOTE = PETER_TEXT + "\n" +
  "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

/** The 32-byte seed in Go's private key form `PRIVATE+KEY+<name>+<id>+<base64(0x01 ‖ seed)>`. */
function peterSeed(): Uint8Array {
  const typed = decodeBase64(PETER_SKEY.split("+").slice(4).join("+"))!;
  assert.equal(typed[0], 1);
  return typed.slice(1);
}

const ROOT = hexToBytes("5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");

Deno.test({
  name: "verifyNote() opens the C2SP example note with its key and refuses it altered",
  permissions: "none",
  async fn() {
    const key = parseVerifierKey(PETER_VKEY);
    assert.equal(key.name, "PeterNeumann");
    assert.equal(bytesToHex(key.keyId), "c74f20a3");
    assert.equal(await verifyNote(PETER_NOTE, key), PETER_TEXT);
    await assert.rejects(
      verifyNote(PETER_NOTE.replace("cryptography", "cryptographY"), key),
      NoteVerificationError,
    );
    const other = await NoteSigner.fromPrivateKey(
      "PeterNeumann",
      await NoteSigner.generatePrivateKey(),
    );
    await assert.rejects(
      verifyNote(PETER_NOTE, parseVerifierKey(other.verifierKey)),
      /no signature by PeterNeumann\+/,
    );
  },
});

Deno.test({
  name: "NoteSigner reproduces the C2SP example note and key byte for byte from its private key",
  permissions: "none",
  async fn() {
    const signer = await NoteSigner.fromPrivateKey("PeterNeumann", peterSeed());
    assert.equal(signer.verifierKey, PETER_VKEY);
    assert.equal(await signer.sign(PETER_TEXT), PETER_NOTE);
    assert.equal(bytesToHex(ed25519KeyId("PeterNeumann", signer.publicKey)), "c74f20a3");
  },
});

Deno.test({
  name: "parseVerifierKey() refuses every truncation and a wrong key id",
  permissions: "none",
  fn() {
    for (let end = 0; end < PETER_VKEY.length; end++) {
      assert.throws(() => parseVerifierKey(PETER_VKEY.slice(0, end)), SyntaxError, `cut at ${end}`);
    }
    assert.throws(
      () => parseVerifierKey(PETER_VKEY.replace("c74f20a3", "c74f20a4")),
      /does not match/,
    );
    assert.throws(() => parseVerifierKey(PETER_VKEY.replace("c74f20a3", "C74F20A3")), SyntaxError);
    assert.throws(() => parseVerifierKey(`Peter Neumann${PETER_VKEY.slice(12)}`), SyntaxError);
  },
});

Deno.test({
  name: "parseNote() refuses malformed notes",
  permissions: "none",
  fn() {
    const cases: [string, string][] = [
      ["no blank line", PETER_TEXT],
      ["no signature", PETER_TEXT + "\n"],
      ["signature line without newline", PETER_NOTE.slice(0, -1)],
      ["hyphen for em dash", PETER_NOTE.replace("\u2014", "-")],
      ["bad base64", PETER_NOTE.replace("x08go", "x08g!")],
      ["short signature", PETER_TEXT + "\n\u2014 PeterNeumann AAAA\n"],
      ["control character", PETER_NOTE.replace("If you", "If\tyou")],
      ["carriage return", PETER_NOTE.replace("problem,\n", "problem,\r\n")],
    ];
    for (const [name, message] of cases) assert.throws(() => parseNote(message), SyntaxError, name);
    assert.equal(parseNote(PETER_NOTE).signatures.length, 1);
  },
});

Deno.test({
  name: "NoteSigner.sign() refuses text that would not parse back",
  permissions: "none",
  async fn() {
    const signer = await NoteSigner.fromPrivateKey("log", peterSeed());
    for (const text of ["no newline", "a\n\nb\n", "\n", "tab\there\n"]) {
      await assert.rejects(signer.sign(text), TypeError, JSON.stringify(text));
    }
  },
});

Deno.test({
  name: "parseCheckpoint() reads what formatCheckpoint() writes and refuses malformed bodies",
  permissions: "none",
  fn() {
    const checkpoint = { origin: "cyberos-memory/0123", size: 8, root: ROOT, extensions: ["x"] };
    const body = formatCheckpoint(checkpoint);
    assert.equal(
      body,
      "cyberos-memory/0123\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\nx\n",
    );
    assert.deepEqual(parseCheckpoint(body), checkpoint);
    const rootLine = body.split("\n")[2]!;
    const cases: [string, string][] = [
      ["no final newline", body.slice(0, -1)],
      ["empty origin", `\n8\n${rootLine}\n`],
      ["leading zero", `o\n08\n${rootLine}\n`],
      ["sign", `o\n+8\n${rootLine}\n`],
      ["negative", `o\n-1\n${rootLine}\n`],
      ["huge size", `o\n99999999999999999999\n${rootLine}\n`],
      ["short root", `o\n8\nAAAA\n`],
      ["no root", `o\n8\n`],
      ["empty extension", `o\n8\n${rootLine}\n\n`],
    ];
    for (const [name, text] of cases) assert.throws(() => parseCheckpoint(text), SyntaxError, name);
  },
});

Deno.test({
  name: "openCheckpoint() opens a checkpoint signed by the origin's key only",
  permissions: "none",
  async fn() {
    const signer = await NoteSigner.fromPrivateKey("cyberos-memory/0123", peterSeed());
    const checkpoint = { origin: "cyberos-memory/0123", size: 8, root: ROOT, extensions: [] };
    const signed = await signCheckpoint(checkpoint, signer);
    assert.deepEqual(
      await openCheckpoint(signed, parseVerifierKey(signer.verifierKey)),
      checkpoint,
    );
    const stranger = await NoteSigner.fromPrivateKey("cyberos-memory/other", peterSeed());
    const foreign = await signCheckpoint(checkpoint, stranger);
    await assert.rejects(
      openCheckpoint(foreign, parseVerifierKey(stranger.verifierKey)),
      /origin cyberos-memory\/0123 is not the key's name cyberos-memory\/other/,
    );
    const forged = signed.replace("\n8\n", "\n9\n");
    await assert.rejects(
      openCheckpoint(forged, parseVerifierKey(signer.verifierKey)),
      NoteVerificationError,
    );
  },
});

/**
 * Checks a signed note with Node's own Ed25519 and SHA-256, parsing the note
 * and verifier key itself: nothing of ours runs in that process.
 */
const NODE_VERIFIER = `
const crypto = require("node:crypto");
const [note, vkey] = [process.argv[1], process.argv[2]];
const [name, id, keyB64] = [vkey.slice(0, vkey.indexOf("+")), vkey.split("+")[1], vkey.split("+").slice(2).join("+")];
const typed = Buffer.from(keyB64, "base64");
if (typed[0] !== 1 || typed.length !== 33) throw new Error("not an Ed25519 vkey");
const pub = typed.subarray(1);
const expectedId = crypto.createHash("sha256").update(Buffer.concat([Buffer.from(name + "\\n"), Buffer.from([1]), pub])).digest().subarray(0, 4).toString("hex");
if (expectedId !== id) throw new Error("key id " + id + " is not " + expectedId);
const split = note.lastIndexOf("\\n\\n");
const text = note.slice(0, split + 1);
const line = note.slice(split + 2).split("\\n")[0];
const prefix = "\\u2014 " + name + " ";
if (!line.startsWith(prefix)) throw new Error("no signature line by " + name);
const blob = Buffer.from(line.slice(prefix.length), "base64");
if (blob.subarray(0, 4).toString("hex") !== id) throw new Error("signature key id differs");
const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), pub]);
const key = crypto.createPublicKey({ key: spki, format: "der", type: "spki" });
const ok = crypto.verify(null, Buffer.from(text, "utf8"), key, blob.subarray(4));
process.stdout.write(ok ? "valid" : "invalid");
`;

async function nodeVerifies(note: string, vkey: string): Promise<string> {
  const output = await new Deno.Command("node", {
    args: ["-e", NODE_VERIFIER, note, vkey],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(output.code, 0, decoder.decode(output.stderr));
  return decoder.decode(output.stdout);
}

Deno.test({
  name:
    "a checkpoint signed with a fresh key verifies with Node's Ed25519, and altered it does not",
  permissions: { run: ["node"] },
  async fn() {
    const origin = "cyberos-memory/9f8e7d6c5b4a3210";
    const signer = await NoteSigner.fromPrivateKey(origin, await NoteSigner.generatePrivateKey());
    const signed = await signCheckpoint({ origin, size: 8, root: ROOT, extensions: [] }, signer);
    assert.equal(await nodeVerifies(signed, signer.verifierKey), "valid");
    assert.equal(
      await nodeVerifies(signed.replace("\n8\n", "\n7\n"), signer.verifierKey),
      "invalid",
    );
    // And the example note, so the independent verifier is shown to accept a known-good one.
    assert.equal(await nodeVerifies(PETER_NOTE, PETER_VKEY), "valid");
    assert.equal(formatVerifierKey(signer), signer.verifierKey);
  },
});
