/**
 * The signing key file: created exclusively with mode 0600 (a planted file
 * or symlink is never followed or overwritten), refused when it is a
 * symlink or open to others, reachable by the daemon's permission flags and
 * not by the hook's.
 *
 * @module
 */

import assert from "node:assert/strict";
import { daemonPermissionFlags, hookPermissionFlags } from "../lib/permissions.ts";
import {
  newOrigin,
  readSigningKey,
  SigningKeyError,
  signingKeyPath,
  writeSigningKey,
} from "../lib/signing_key.ts";
import { storeOwnPaths } from "../lib/store_paths.ts";
import { ROOT, startTestDaemon } from "./_daemon.ts";
import { probe } from "./_probe.ts";

const KEY = new Uint8Array(48).fill(7);

Deno.test("writeSigningKey() creates the file 0600 and never writes through what is already there", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/capture.db.signing.key`;
    writeSigningKey(path, KEY);
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    assert.deepEqual(readSigningKey(path, { uid: Deno.uid()! }), KEY);
    assert.throws(() => writeSigningKey(path, new Uint8Array(48)), SigningKeyError);
    assert.deepEqual(Deno.readFileSync(path), KEY);

    const planted = `${dir}/planted.key`;
    const target = `${dir}/somewhere-else`;
    Deno.symlinkSync(target, planted);
    assert.throws(() => writeSigningKey(planted, KEY), /something already exists there/);
    assert.throws(() => Deno.lstatSync(target), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("readSigningKey() refuses a symlink, a file others may read, and another user's file", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const real = `${dir}/real.key`;
    writeSigningKey(real, KEY);
    const link = `${dir}/link.key`;
    Deno.symlinkSync(real, link);
    assert.throws(() => readSigningKey(link, { uid: Deno.uid()! }), /not a regular file/);
    assert.throws(() => readSigningKey(real, { uid: Deno.uid()! + 1 }), /owned by uid/);
    Deno.chmodSync(real, 0o640);
    assert.throws(() => readSigningKey(real, { uid: Deno.uid()! }), /mode 640 lets others read it/);
    assert.throws(() => readSigningKey(`${dir}/none`, { uid: 0 }), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "the key path is one of the store's own paths, the daemon's only grants",
  permissions: "none",
  fn() {
    assert.ok(storeOwnPaths("/x/capture.db").includes(signingKeyPath("/x/capture.db")));
  },
});

Deno.test({
  name: "newOrigin() is cyberos-memory/ and 16 random hex digits",
  permissions: "none",
  fn() {
    const a = newOrigin();
    assert.match(a, /^cyberos-memory\/[0-9a-f]{16}$/);
    assert.notEqual(a, newOrigin());
  },
});

Deno.test("a symlink planted at the key path: the daemon captures, does not sign, and creates nothing through it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-key-" });
  try {
    await Deno.mkdir(`${dir}/store`);
    const target = `${dir}/attacker-chosen`;
    Deno.symlinkSync(target, signingKeyPath(`${dir}/store/capture.db`));
    const daemon = await startTestDaemon({ dir });
    await daemon.stop({ keep: true });
    assert.match(
      daemon.stderr(),
      /ERROR checkpoints_off: Cannot use signing key .*: it is not a regular file/,
    );
    assert.throws(() => Deno.lstatSync(target), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the signing key is reachable with the daemon's flags and not with the hook's", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  try {
    const paths = {
      socket: `${dir}/capture.sock`,
      traceDir: `${dir}/traces`,
      db: `${dir}/store/capture.db`,
    };
    await Deno.mkdir(`${dir}/store`);
    await Deno.mkdir(paths.traceDir);
    const key = signingKeyPath(paths.db);
    writeSigningKey(key, KEY);
    assert.equal(await probe(daemonPermissionFlags(paths), "read", key), "granted");
    assert.equal(await probe(hookPermissionFlags(paths), "read", key), "refused");
    assert.equal(await probe(hookPermissionFlags(paths), "write", key), "refused");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpoint, key, prove and verify run with deno.json's reader set: it reads, and writes and connects nowhere", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  try {
    await Deno.writeTextFile(`${dir}/store.db`, "x");
    const reader = ["--config", `${ROOT}/deno.json`, "-P=reader"];
    assert.equal(await probe(reader, "read", `${dir}/store.db`), "granted");
    assert.equal(await probe(reader, "write", `${dir}/store.db`), "refused");
    assert.equal(await probe(reader, "write", `${dir}/new`), "refused");
    assert.equal(await probe(reader, "run", "true"), "refused");
    assert.equal(await probe(reader, "tcp", "127.0.0.1:9"), "refused");
    const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
    for (const command of ["checkpoint", "key", "prove", "verify"]) {
      assert.match(config.tasks[command], /^deno run -q -P=reader install\/main\.ts /);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
