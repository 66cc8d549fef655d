/**
 * Paths resolve from the environment with the documented defaults.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DEFAULT_SOCKET_PATH, DEFAULT_TRACE_DIR, resolvePaths } from "../lib/paths.ts";

function env(values: Record<string, string>) {
  return (name: string) => values[name];
}

Deno.test({
  name: "resolvePaths() uses the defaults, XDG_DATA_HOME, then HOME",
  permissions: "none",
  fn() {
    assert.deepEqual(resolvePaths(env({ HOME: "/home/u" })), {
      socket: DEFAULT_SOCKET_PATH,
      traceDir: DEFAULT_TRACE_DIR,
      db: "/home/u/.local/share/cyberos-memory/capture.db",
    });
    assert.equal(
      resolvePaths(env({ HOME: "/home/u", XDG_DATA_HOME: "/data" })).db,
      "/data/cyberos-memory/capture.db",
    );
    const custom = resolvePaths(env({
      CYBEROS_MEMORY_SOCKET: "/run/s.sock",
      CYBEROS_MEMORY_TRACE_DIR: "/run/t/",
      CYBEROS_MEMORY_DB: "/var/c.db",
    }));
    assert.deepEqual(custom, { socket: "/run/s.sock", traceDir: "/run/t", db: "/var/c.db" });
  },
});

Deno.test({
  name: "resolvePaths() refuses a relative override and a missing HOME with a TypeError",
  permissions: "none",
  fn() {
    assert.throws(
      () => resolvePaths(env({ HOME: "/h", CYBEROS_MEMORY_SOCKET: "rel.sock" })),
      /Cannot use CYBEROS_MEMORY_SOCKET: "rel.sock" is not an absolute path/,
    );
    assert.throws(() => resolvePaths(env({})), TypeError);
  },
});
