/**
 * What `deno task start`, `install`, `uninstall` and `status` refuse before
 * they write anything (an OTLP endpoint that is no http URL, a path Deno's
 * permission flags cannot name), and what the daemon's start line says about
 * OpenTelemetry export. Each runs the real task from this checkout.
 *
 * @module
 */

import assert from "node:assert/strict";
import { otlpHostOf } from "../daemon/start.ts";
import { assertFlagPath } from "../lib/permissions.ts";
import { runTask, startTask, type TaskResult } from "./_launcher.ts";
import { ROOT } from "./_daemon.ts";

/** Everything below `dir`, as sorted relative paths. */
function listTree(dir: string, prefix = ""): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) => {
    const path = `${prefix}${entry.name}`;
    return entry.isDirectory ? [path, ...listTree(`${dir}/${entry.name}`, `${path}/`)] : [path];
  }).sort();
}

/** A temporary folder with an empty `home` in it, removed after `fn`. */
async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "cyberos-launcher-" }));
  await Deno.mkdir(`${dir}/home`);
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Asserts one error line `cyberos-memory <command>: …` holding `named`, exit 1, no stdout. */
function assertRefused(result: TaskResult, command: string, named: string): void {
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  assert.ok(lines[0]!.startsWith(`cyberos-memory ${command}: `), lines[0]);
  assert.ok(lines[0]!.includes(named), `${lines[0]} does not name ${named}`);
}

Deno.test("otlpHostOf() takes http and https URLs only", { permissions: "none" }, () => {
  assert.equal(otlpHostOf("http://127.0.0.1:4318"), "127.0.0.1:4318");
  assert.equal(otlpHostOf("https://otel.example.com/base/"), "otel.example.com:443");
  assert.equal(otlpHostOf("http://collector"), "collector:80");
  for (const endpoint of ["localhost:4318", "127.0.0.1:4318", "ftp://host:21", "unix:/x", "x"]) {
    assert.throws(() => otlpHostOf(endpoint), {
      name: "TypeError",
      message: /is not an http or https URL; give one like http:\/\/127\.0\.0\.1:4318$/,
    }, endpoint);
  }
});

Deno.test("assertFlagPath() refuses a comma, naming the path", { permissions: "none" }, () => {
  assertFlagPath("/home/ana/my tools 'ü' %20/x", "socket");
  assert.throws(() => assertFlagPath("/tmp/a,b/capture.sock", "socket"), {
    name: "TypeError",
    message:
      `Cannot use the socket "/tmp/a,b/capture.sock": Deno's permission flags cannot name a path holding a comma; choose a path without one`,
  });
});

Deno.test("deno task start refuses an OTLP endpoint that is no http URL: one line, exit 1, nothing written", async () => {
  await withTempDir(async (dir) => {
    for (const endpoint of ["localhost:4318", "127.0.0.1:4318", "grpc://collector:4317"]) {
      const result = await runTask(["start"], {
        root: ROOT,
        home: `${dir}/home`,
        env: {
          CYBEROS_MEMORY_SOCKET: `${dir}/run/capture.sock`,
          CYBEROS_MEMORY_TRACE_DIR: `${dir}/run/traces`,
          CYBEROS_MEMORY_DB: `${dir}/store/capture.db`,
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        },
      });
      assertRefused(result, "start", `"${endpoint}" is not an http or https URL`);
      assert.deepEqual(listTree(dir), ["home"]);
    }
  });
});

Deno.test("deno task start refuses a socket, trace dir or store path holding a comma: one line, nothing written", async () => {
  await withTempDir(async (dir) => {
    const good = {
      CYBEROS_MEMORY_SOCKET: `${dir}/run/capture.sock`,
      CYBEROS_MEMORY_TRACE_DIR: `${dir}/run/traces`,
      CYBEROS_MEMORY_DB: `${dir}/store/capture.db`,
    };
    for (const [name, path] of Object.entries(good)) {
      const bad = path.replace("/run/", "/run,1/").replace("/store/", "/store,1/");
      const result = await runTask(["start"], {
        root: ROOT,
        home: `${dir}/home`,
        env: { ...good, [name]: bad },
      });
      assertRefused(result, "start", `"${bad}"`);
      assert.deepEqual(listTree(dir), ["home"], name);
    }
  });
});

Deno.test("install, uninstall and status refuse a path holding a comma: one line, nothing written", async () => {
  await withTempDir(async (dir) => {
    const project = `${dir}/my,project`;
    await Deno.mkdir(project);
    const env = {
      CYBEROS_MEMORY_SOCKET: `${dir}/run/capture.sock`,
      CYBEROS_MEMORY_TRACE_DIR: `${dir}/run/traces`,
      CYBEROS_MEMORY_DB: `${dir}/store/capture.db`,
    };
    for (const command of ["install", "uninstall"]) {
      const result = await runTask([command, project], { root: ROOT, home: `${dir}/home`, env });
      assertRefused(result, command, `"${project}"`);
    }
    const plain = `${dir}/project`;
    await Deno.mkdir(plain);
    const commaSocket = `${dir}/run,1/capture.sock`;
    for (const command of ["install", "status"]) {
      const result = await runTask([command, plain], {
        root: ROOT,
        home: `${dir}/home`,
        env: { ...env, CYBEROS_MEMORY_SOCKET: commaSocket },
      });
      assertRefused(result, command, `"${commaSocket}"`);
    }
    const commaHome = `${dir}/home,1`;
    await Deno.mkdir(commaHome);
    const user = await runTask(["install", "--user"], { root: ROOT, home: commaHome, env });
    assertRefused(user, "install", `"${commaHome}/.claude"`);
    assert.deepEqual(listTree(dir), ["home", "home,1", "my,project", "project"]);
  });
});

Deno.test("the daemon's start line says whether OpenTelemetry export is on, and where to", async () => {
  await withTempDir(async (dir) => {
    const paths = {
      CYBEROS_MEMORY_SOCKET: `${dir}/run/capture.sock`,
      CYBEROS_MEMORY_TRACE_DIR: `${dir}/run/traces`,
      CYBEROS_MEMORY_DB: `${dir}/store/capture.db`,
    };
    const off = await startTask(paths.CYBEROS_MEMORY_SOCKET, {
      root: ROOT,
      home: `${dir}/home`,
      env: paths,
    });
    await off.stop();
    assert.match(
      off.startLine,
      /^cyberos-memory daemon: listening on .*; OpenTelemetry export off/,
    );

    // Nothing listens there: export fails quietly, and capture does not depend on it.
    const on = await startTask(paths.CYBEROS_MEMORY_SOCKET, {
      root: ROOT,
      home: `${dir}/home`,
      env: {
        ...paths,
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-user:s3cret@127.0.0.1:9/",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      },
    });
    await on.stop();
    assert.match(
      on.startLine,
      /; OpenTelemetry export on, to http:\/\/127\.0\.0\.1:9\/ \(http\/json\)$/,
    );
    assert.ok(!on.startLine.includes("s3cret"));
  });
});
