/**
 * Spool file names sort in capture order and carry the hook's outcome; the
 * spool stays within its bounds.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseSpoolFileName, pruneSpool, spoolFileName, writeSpoolFile } from "../lib/spool.ts";

const ID = "0123456789abcdef0123456789abcdef";

Deno.test({
  name: "spoolFileName() round-trips through parseSpoolFileName() and sorts by time",
  permissions: "none",
  fn() {
    const name = spoolFileName(1764460800123456800, ID, "emit_timeout");
    assert.equal(name, `01764460800123456800-${ID}.emit_timeout.frame`);
    assert.deepEqual(parseSpoolFileName(name), {
      capturedAtNs: 1764460800123456800,
      id: ID,
      outcome: "emit_timeout",
    });
    assert.equal(parseSpoolFileName(spoolFileName(5, ID))?.outcome, "ok");
    assert.ok(spoolFileName(9, ID) < spoolFileName(10, ID));
    assert.equal(parseSpoolFileName(".tmp-x.frame"), undefined);
    assert.equal(parseSpoolFileName(`00000000000000000001-${ID}.bogus.frame`), undefined);
  },
});

Deno.test("pruneSpool() drops the oldest files past the count and byte bounds", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (let i = 0; i < 10; i++) {
      writeSpoolFile(dir, spoolFileName(1000 + i, ID.slice(0, 31) + i), new Uint8Array(100));
    }
    assert.equal(pruneSpool(dir, { maxFiles: 7 }), 3);
    assert.equal(pruneSpool(dir, { maxBytes: 500 }), 2);
    const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.equal(left.length, 5);
    assert.ok(left[0]!.startsWith("00000000000000001005"));
    assert.equal(Deno.statSync(`${dir}/${left[0]}`).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
