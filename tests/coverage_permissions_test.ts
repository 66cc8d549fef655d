/**
 * `coverage`'s permission set, proved both ways: it reads the store (with its `-wal` and `-shm`)
 * and Claude Code's projects folder and the variables that locate them, and is refused every
 * write, every other read and variable, network and run. The launcher's named set in `deno.json`
 * reads only those variables (and the runtime's own) and runs only `deno`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { COVERAGE_ENV_VARS } from "../coverage/_paths.ts";
import { RUNTIME_ENV_VARS } from "../lib/launch.ts";
import { coveragePermissionFlags } from "../lib/permissions.ts";
import { ROOT } from "./_daemon.ts";
import { probe } from "./_probe.ts";

Deno.test("coveragePermissionFlags() read the store and the projects folder and nothing else", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "cyberos coverage " });
  const db = `${dir}/data dir/capture.db`;
  const projectsDir = `${dir}/claude config/projects`;
  const transcript = `${projectsDir}/-work-app/0e1d2c3b-4a59-4687-9a8b-7c6d5e4f3a21.jsonl`;
  await Deno.mkdir(`${dir}/data dir`);
  await Deno.mkdir(`${projectsDir}/-work-app`, { recursive: true });
  for (const path of [db, `${db}-wal`, `${db}-shm`, `${dir}/data dir/other.db`, transcript]) {
    await Deno.writeTextFile(path, "x");
  }
  await Deno.writeTextFile(`${dir}/claude config/settings.json`, "{}");
  const unix = Deno.listen({ transport: "unix", path: `${dir}/capture.sock` });
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const flags = coveragePermissionFlags({ db, projectsDir, envVars: COVERAGE_ENV_VARS });
  const cases: [operation: string, target: string, expected: string][] = [
    ["read", db, "granted"],
    ["read", `${db}-wal`, "granted"],
    ["read", `${db}-shm`, "granted"],
    ["read", transcript, "granted"],
    ["env", "HOME", "granted"],
    ["env", "XDG_DATA_HOME", "granted"],
    ["env", "CYBEROS_MEMORY_DB", "granted"],
    ["env", "CLAUDE_CONFIG_DIR", "granted"],
    ["read", `${dir}/data dir/other.db`, "refused"],
    ["read", `${dir}/claude config/settings.json`, "refused"],
    ["read", "/etc/hostname", "refused"],
    ["write", db, "refused"],
    ["write", `${db}-wal`, "refused"],
    ["write", transcript, "refused"],
    ["write", `${projectsDir}/new`, "refused"],
    ["env", "CYBEROS_MEMORY_SOCKET", "refused"],
    ["env", "ANTHROPIC_API_KEY", "refused"],
    ["env", "PATH", "refused"],
    ["run", "true", "refused"],
    ["unix", `${dir}/capture.sock`, "refused"],
    ["tcp", `127.0.0.1:${(tcp.addr as Deno.NetAddr).port}`, "refused"],
    ["ffi", "/lib/x86_64-linux-gnu/libc.so.6", "refused"],
  ];
  try {
    for (const [operation, target, expected] of cases) {
      await t.step(`${operation} ${target.replace(dir, "<tmp>")} → ${expected}`, async () => {
        assert.equal(await probe(flags, operation, target), expected);
      });
    }
  } finally {
    unix.close();
    tcp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "coveragePermissionFlags() refuse a path holding a comma",
  { permissions: "none" },
  () => {
    assert.throws(
      () =>
        coveragePermissionFlags({
          db: "/tmp/a,b/capture.db",
          projectsDir: "/p",
          envVars: COVERAGE_ENV_VARS,
        }),
      (error: Error) => error instanceof TypeError && /holding a comma/.test(error.message),
    );
  },
);

Deno.test("deno.json's coverage-launcher set reads only the locating and runtime variables and runs only deno", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  assert.deepEqual(
    [...config.permissions["coverage-launcher"].env].sort(),
    [...new Set([...COVERAGE_ENV_VARS, ...RUNTIME_ENV_VARS])].sort(),
  );
  assert.deepEqual(config.permissions["coverage-launcher"].run, ["deno"]);
  assert.deepEqual(Object.keys(config.permissions["coverage-launcher"]).sort(), ["env", "run"]);
  assert.equal(config.tasks.coverage, "deno run -q -P=coverage-launcher coverage/start.ts");
});
