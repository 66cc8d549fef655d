/**
 * `daemon/_store_lock.ts`: the second daemon names the one holding the
 * store's lock, also when it looks in the moment before the holder has
 * written who it is.
 *
 * @module
 */

import assert from "node:assert/strict";
import { lockStore, StoreLockError, storeLockPath } from "../daemon/_store_lock.ts";

const UID = Deno.uid() ?? 0;

Deno.test("lockStore() refuses a held store and names its holder's pid and socket", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const db = `${dir}/store/c.db`;
    const held = lockStore(db, { socket: `${dir}/a.sock`, uid: UID });
    try {
      assert.throws(
        () => lockStore(db, { socket: `${dir}/b.sock`, uid: UID }),
        (error: unknown) =>
          error instanceof StoreLockError &&
          error.message.includes(`(pid ${Deno.pid} socket ${dir}/a.sock)`),
      );
    } finally {
      held.release();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Another process takes the lock, says so on stdout, writes its record
 * `delayMs` later (never when negative), and holds the lock until stdin
 * closes.
 */
function holder(path: string, delayMs: number): Deno.ChildProcess {
  const code = `
    const file = Deno.openSync(${JSON.stringify(path)}, { read: true, write: true, create: true });
    file.lockSync(true);
    console.log("locked");
    if (${delayMs} >= 0) {
      await new Promise((resolve) => setTimeout(resolve, ${delayMs}));
      file.writeSync(new TextEncoder().encode("pid 4242 socket /run/late.sock\\n"));
    }
    for await (const _ of Deno.stdin.readable) { /* until closed */ }
  `;
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

async function untilLocked(child: Deno.ChildProcess): Promise<void> {
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  assert.match(new TextDecoder().decode(value), /locked/);
}

for (
  const [name, delayMs, expected] of [
    [
      "names a holder that writes its record a moment after taking the lock",
      50,
      /\(pid 4242 socket \/run\/late\.sock\)/,
    ],
    ["says the holder is unknown when no record comes", -1, /\(its pid and socket unknown\)/],
  ] as const
) {
  Deno.test(`lockStore() ${name}`, async () => {
    const dir = await Deno.makeTempDir();
    const db = `${dir}/c.db`;
    const child = holder(storeLockPath(db), delayMs);
    try {
      await untilLocked(child);
      assert.throws(
        () => lockStore(db, { socket: `${dir}/b.sock`, uid: UID }),
        (error: unknown) => error instanceof StoreLockError && expected.test(error.message),
      );
    } finally {
      await child.stdin.close();
      await child.stdout.cancel();
      await child.status;
      await Deno.remove(dir, { recursive: true });
    }
  });
}
