/**
 * The permission probe itself: `granted` only when the operation succeeded,
 * `refused` for Deno's NotCapable, and `failed: …` for any other error, so
 * that a permission test cannot pass on an operation that never ran.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ROOT } from "./_daemon.ts";

async function probe(flags: string[], operation: string, target: string): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-q",
      "--no-prompt",
      ...flags,
      `${ROOT}/tests/_permission_probe.ts`,
      operation,
      target,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return new TextDecoder().decode(output.stdout).trim();
}

Deno.test("the probe says granted only on success, refused on NotCapable, failed on any other error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-probe-" });
  try {
    await Deno.writeTextFile(`${dir}/present`, "x");
    assert.equal(await probe([`--allow-read=${dir}`], "read", `${dir}/present`), "granted");
    assert.equal(await probe([], "read", `${dir}/present`), "refused");
    assert.match(
      await probe([`--allow-read=${dir}`], "read", `${dir}/missing`),
      /^failed: NotFound: /,
    );
    assert.match(
      await probe(
        [`--allow-net=unix:${dir}/none.sock`, `--allow-read=${dir}`, `--allow-write=${dir}`],
        "unix",
        `${dir}/none.sock`,
      ),
      /^failed: NotFound: /,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
