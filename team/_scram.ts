/**
 * A SCRAM-SHA-256 password verifier made on our side (RFC 5802, RFC 7677, in
 * PostgreSQL's stored form), so `CREATE ROLE … PASSWORD` never carries the
 * clear password: a server that logs DDL logs only the verifier.
 *
 * @module
 */

const ITERATIONS = 4096;
const encoder = new TextEncoder();

function base64(bytes: ArrayBuffer | Uint8Array): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

async function hmac(key: ArrayBuffer, text: string): Promise<ArrayBuffer> {
  const imported = await crypto.subtle.importKey(
    "raw",
    key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return await crypto.subtle.sign("HMAC", imported, encoder.encode(text));
}

/**
 * `SCRAM-SHA-256$4096:<salt>$<StoredKey>:<ServerKey>` for `password` (ASCII:
 * we generate it, so SASLprep leaves it unchanged).
 */
export async function scramVerifier(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const material = await crypto.subtle.importKey(
    "raw",
    encoder.encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const salted = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations: ITERATIONS },
    material,
    256,
  );
  const clientKey = await hmac(salted, "Client Key");
  const storedKey = await crypto.subtle.digest("SHA-256", clientKey);
  const serverKey = await hmac(salted, "Server Key");
  return `SCRAM-SHA-256$${ITERATIONS}:${base64(salt)}$${base64(storedKey)}:${base64(serverKey)}`;
}

/** A random password of 32 characters from `[A-Za-z0-9]` (190 bits). */
export function randomPassword(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const out: string[] = [];
  while (out.length < 32) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      // 248 = 4 × 62: bytes above it would bias the first letters.
      if (byte < 248 && out.length < 32) out.push(alphabet[byte % 62]!);
    }
  }
  return out.join("");
}
