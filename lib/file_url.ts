/**
 * File URLs to file paths. `new URL(…, import.meta.url).pathname` is not a
 * path: it keeps `%20` for a space, `%25` for `%` and percent-encoded UTF-8
 * for non-ASCII, so a checkout at `/home/ana/my tools` breaks. Linux and macOS
 * paths only (no drive letters, no UNC hosts).
 *
 * @module
 */

/**
 * The file path a `file:` URL names, percent-decoded.
 *
 * @example
 * ```ts
 * const script = fileUrlToPath(new URL("./main.ts", import.meta.url));
 * ```
 *
 * @throws {TypeError} when the URL is not a `file:` URL, names a host, or
 * encodes a `/` or NUL inside a path segment (no POSIX path can hold those)
 */
export function fileUrlToPath(url: URL | string): string {
  const parsed = typeof url === "string" ? new URL(url) : url;
  if (parsed.protocol !== "file:") {
    throw new TypeError(`Cannot convert a URL to a file path: ${parsed.href} is not a file: URL`);
  }
  if (parsed.host !== "" && parsed.host !== "localhost") {
    throw new TypeError(`Cannot convert a URL to a file path: ${parsed.href} names a host`);
  }
  if (/%2f|%00/i.test(parsed.pathname)) {
    throw new TypeError(
      `Cannot convert a URL to a file path: ${parsed.href} encodes a "/" or NUL inside a name`,
    );
  }
  return decodeURIComponent(parsed.pathname);
}
