/**
 * Paths resolve from the environment with the documented defaults.
 *
 * @module
 */

import assert from "node:assert/strict";
import { MAX_SOCKET_PATH_BYTES, resolvePaths } from "../lib/paths.ts";

function env(values: Record<string, string>) {
  return (name: string) => values[name];
}

Deno.test({
  name:
    "resolvePaths() puts socket and trace dir in the private runtime dir, the store in XDG_DATA_HOME",
  permissions: "none",
  fn() {
    assert.deepEqual(resolvePaths(env({ HOME: "/home/u" })), {
      socket: "/home/u/.local/state/cyberos-memory/capture.sock",
      traceDir: "/home/u/.local/state/cyberos-memory",
      db: "/home/u/.local/share/cyberos-memory/capture.db",
    });
    assert.deepEqual(resolvePaths(env({ HOME: "/home/u", XDG_STATE_HOME: "/st" })), {
      socket: "/st/cyberos-memory/capture.sock",
      traceDir: "/st/cyberos-memory",
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

Deno.test({
  name: "resolvePaths() refuses a socket path too long for a Unix socket, naming the variable",
  permissions: "none",
  fn() {
    const longHome = `/home/${"u".repeat(MAX_SOCKET_PATH_BYTES)}`;
    assert.throws(
      () => resolvePaths(env({ HOME: longHome })),
      /^TypeError: Cannot use the socket path \/home\/u+\/\.local\/state\/cyberos-memory\/capture\.sock: \d+ bytes, a Unix socket path holds at most 103; set CYBEROS_MEMORY_SOCKET to a shorter path/,
    );
    const fits = resolvePaths(env({ HOME: longHome, CYBEROS_MEMORY_SOCKET: "/run/u/c.sock" }));
    assert.equal(fits.socket, "/run/u/c.sock");
    assert.equal(fits.traceDir, `${longHome}/.local/state/cyberos-memory`);
    const spec = resolvePaths(env({
      CYBEROS_MEMORY_SOCKET: "/tmp/cyberos-memory-capture.sock",
      CYBEROS_MEMORY_TRACE_DIR: "/tmp/cyberos-memory-claude-traces",
      CYBEROS_MEMORY_DB: "/d/c.db",
    }));
    assert.equal(
      spec.socket,
      "/tmp/cyberos-memory-capture.sock",
      "the spec's paths stay selectable",
    );
  },
});
