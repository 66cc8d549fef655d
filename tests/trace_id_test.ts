/**
 * The per-session trace id cache and the trust checks on the folders it lives in.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fallbackTraceId, sessionTraceId, TRACE_IDLE_MS } from "../lib/trace_id.ts";
import { checkPrivateDir, distrustOf, recheck } from "../lib/trust.ts";

const SESSION = "3f1c2a9e-7b4d-4e8a-9c61-0d2b5e8f4a17";

async function withDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("sessionTraceId() creates 32 hex once and reuses it", () =>
  withDir((dir) => {
    const first = sessionTraceId(dir, SESSION, { nowMs: Date.now() });
    assert.match(first, /^[0-9a-f]{32}$/);
    assert.equal(sessionTraceId(dir, SESSION, { nowMs: Date.now() }), first);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [SESSION]);
  }));

Deno.test("sessionTraceId() starts a new trace after an hour idle", () =>
  withDir((dir) => {
    const first = sessionTraceId(dir, SESSION, { nowMs: Date.now() });
    const later = Date.now() + TRACE_IDLE_MS + 60_000;
    const second = sessionTraceId(dir, SESSION, { nowMs: later });
    assert.notEqual(second, first);
    assert.equal(sessionTraceId(dir, SESSION, { nowMs: later }), second);
  }));

Deno.test("checkPrivateDir() makes the folder 0700 and trusts it", () =>
  withDir((dir) => {
    const traceDir = `${dir}/a/traces`;
    const checked = checkPrivateDir(traceDir, { uid: Deno.uid()!, create: true });
    assert.equal(checked.distrust, undefined);
    assert.equal(checked.identity?.ino, Deno.lstatSync(traceDir).ino);
    assert.equal(Deno.statSync(traceDir).mode! & 0o777, 0o700);
  }));

Deno.test("checkPrivateDir() distrusts a symlink, another owner and open modes", () =>
  withDir(async (dir) => {
    await Deno.mkdir(`${dir}/real`, { mode: 0o700 });
    await Deno.symlink(`${dir}/real`, `${dir}/link`);
    const check = (path: string, uid: number) =>
      checkPrivateDir(path, { uid, create: false }).distrust;
    assert.equal(check(`${dir}/link`, Deno.uid()!), "is a symlink");
    assert.match(check(`${dir}/real`, Deno.uid()! + 1)!, /owned by uid/);
    await Deno.chmod(`${dir}/real`, 0o750);
    assert.match(check(`${dir}/real`, Deno.uid()!)!, /open to group/);
    assert.equal(
      distrustOf(Deno.lstatSync(`${dir}/real`), Deno.uid()!, "socket"),
      "is not a socket",
    );
  }));

Deno.test("recheck() notices a folder removed, or replaced by another with the same owner and mode", () =>
  withDir(async (dir) => {
    const path = `${dir}/traces`;
    const uid = Deno.uid()!;
    const { identity } = checkPrivateDir(path, { uid, create: true });
    assert.ok(identity);
    assert.equal(recheck(path, identity, { uid, want: "folder" }), undefined);
    await Deno.rename(path, `${dir}/old`);
    assert.equal(recheck(path, identity, { uid, want: "folder" }), "was removed");
    await Deno.mkdir(path, { mode: 0o700 });
    assert.match(recheck(path, identity, { uid, want: "folder" })!, /^was replaced \(inode /);
  }));

Deno.test({
  name: "fallbackTraceId() is the session's own 32 hex",
  permissions: "none",
  fn() {
    assert.equal(fallbackTraceId(SESSION), "3f1c2a9e7b4d4e8a9c610d2b5e8f4a17");
  },
});
