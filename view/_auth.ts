/**
 * Who may look: the random token printed with the URL (as Jupyter does), kept
 * in a cookie after the first visit, and the Host header a browser sends to
 * this address and no other (a page on a rebound DNS name cannot reach us).
 *
 * @module
 */

/** A fresh token: 32 random bytes as 64 lowercase hex characters. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether `given` equals `expected`, in time that depends only on the length
 * of `expected`, so the answer's timing tells an attacker nothing about how
 * many leading characters were right.
 */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    difference |= expected.charCodeAt(i) ^ (given.charCodeAt(i) | 0);
  }
  return difference === 0;
}

/** The cookie's name: one per port, since browsers share cookies across the ports of a host. */
export function cookieName(port: number): string {
  return `cyberos_view_${port}`;
}

/** A cookie's value from a `Cookie` header, or `undefined`. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(";")) {
    const cut = part.indexOf("=");
    if (cut !== -1 && part.slice(0, cut).trim() === name) return part.slice(cut + 1).trim();
  }
  return undefined;
}

/**
 * The `Set-Cookie` value that keeps the token: readable by no script, sent
 * only with this site's own requests, gone when the browser closes.
 */
export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

/** The Host headers a browser sends for this server: the address as printed, or `localhost`. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}
