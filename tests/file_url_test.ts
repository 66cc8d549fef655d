/**
 * `fileUrlToPath()`: the module paths of a checkout with spaces, `%`, quotes
 * or non-ASCII in its path come out as the real path, and what is no file
 * path is refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileUrlToPath } from "../lib/file_url.ts";

const none = { permissions: "none" } as const;

Deno.test("fileUrlToPath() decodes spaces, %, quotes and non-ASCII", none, () => {
  for (
    const path of [
      "/home/ana/my tools/cyberos-memory/daemon/main.ts",
      "/tmp/100% done/x",
      '/tmp/it\'s "quoted"/x',
      "/tmp/Tiếng Việt/日本語/x",
      "/tmp/a#b?c/x",
      "/",
    ]
  ) {
    const href =
      new URL(`file://${path.replaceAll("%", "%25").replaceAll("#", "%23").replaceAll("?", "%3F")}`)
        .href;
    assert.equal(fileUrlToPath(href), path, href);
    assert.equal(fileUrlToPath(new URL(href)), path, href);
  }
  assert.equal(fileUrlToPath("file://localhost/etc/hosts"), "/etc/hosts");
});

Deno.test("fileUrlToPath() of import.meta.url is this file's path", {
  permissions: { read: true },
}, () => {
  const path = fileUrlToPath(import.meta.url);
  assert.ok(path.endsWith("/tests/file_url_test.ts"));
  assert.ok(Deno.statSync(path).isFile);
});

Deno.test("fileUrlToPath() refuses URLs that name no local path", none, () => {
  for (
    const [url, reason] of [
      ["https://example.com/x", /is not a file: URL/],
      ["file://server/share/x", /names a host/],
      ["file:///tmp/a%2Fb", /encodes a "\/" or NUL/],
      ["file:///tmp/a%00b", /encodes a "\/" or NUL/],
    ] as const
  ) {
    assert.throws(() => fileUrlToPath(url), { name: "TypeError", message: reason }, url);
  }
});
