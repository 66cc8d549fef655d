/**
 * The committed hook bundle (what `install` points at) is exactly what
 * `deno task bundle` makes of the current source, and loads nothing else.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DEFAULT_HOOK_SCRIPT } from "../lib/hook_command.ts";
import { buildHookBundle } from "../hook/build.ts";

Deno.test("hook/dist/hook.js is up to date with hook/main.ts (else run deno task bundle)", async () => {
  const fresh = await buildHookBundle();
  const committed = await Deno.readTextFile(DEFAULT_HOOK_SCRIPT);
  assert.ok(fresh === committed, "hook/dist/hook.js is stale: run `deno task bundle`");
});

Deno.test("hook/dist/hook.js imports nothing: no node:, npm: or remote module on the hot path", async () => {
  const text = await Deno.readTextFile(DEFAULT_HOOK_SCRIPT);
  // Strings inside the bundle may hold URLs and words like "import", so look for module syntax.
  assert.doesNotMatch(text, /(?:^|[;}\n])\s*import\s*[{*"'\w][^;]*?from\s*["']/);
  assert.doesNotMatch(text, /(?:^|[;}\n])\s*import\s*["']/);
  assert.doesNotMatch(text, /\bimport\(\s*["'`]/);
  assert.doesNotMatch(text, /\brequire\(\s*["']/);
});

Deno.test("hook/dist/hook.js carries no rule samples or descriptions (the hook never reads them)", async () => {
  const text = await Deno.readTextFile(DEFAULT_HOOK_SCRIPT);
  for (const field of ["truePositives", "falsePositives", "description"]) {
    assert.ok(!text.includes(`${field}:`), `${field} is in the bundle`);
  }
  assert.ok(text.includes('placeholder:"<GH_PAT>"'), "the rules themselves are there");
});

Deno.test("hook/dist/hook.js is ASCII, so Deno hands it to V8 without a UTF-16 copy", async () => {
  const text = await Deno.readTextFile(DEFAULT_HOOK_SCRIPT);
  const at = text.search(/[\u0080-\uffff]/);
  assert.equal(at, -1, `a non-ASCII character at offset ${at}`);
});
