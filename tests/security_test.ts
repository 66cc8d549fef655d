/**
 * Nobody else in: one test per finding of the security review of the
 * capture path that concerns the shared paths (H1, M1, M5, L1, L6, and the
 * memory held by connections). Another user is real where a process must act
 * as one (`setpriv` to uid 65534 running the system Python, as root), and
 * simulated by `chown` where only a file's owner matters; both need root, so
 * those tests are skipped (and say so) when not run as root.
 *
 * @module
 */

import assert from "node:assert/strict";
import { daemonRunArgs } from "../daemon/start.ts";
import { encodeFrame } from "../lib/frame.ts";
import { spoolFileName } from "../lib/spool.ts";
import { checkSocket, connectChecked, UntrustedSocket } from "../lib/trust.ts";
import {
  fixture,
  readRows,
  ROOT,
  runHook,
  startTestDaemon,
  testFrame,
  waitForRows,
} from "./_daemon.ts";

const OTHER_UID = 65534;
const IS_ROOT = Deno.uid() === 0;
const CAN_ACT_AS_OTHER = IS_ROOT && exists("/usr/bin/setpriv") && exists("/usr/bin/python3");
if (!CAN_ACT_AS_OTHER) {
  console.warn("security_test: not root or no setpriv/python3: the other-user tests are skipped");
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs Python as uid 65534: a real other user. */
function asOtherUser(code: string, args: string[] = []): Deno.ChildProcess {
  return new Deno.Command("/usr/bin/setpriv", {
    args: [
      `--reuid=${OTHER_UID}`,
      `--regid=${OTHER_UID}`,
      "--clear-groups",
      "/usr/bin/python3",
      "-c",
      code,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** A folder other users may enter (like `/tmp`), for paths shared with them. */
async function sharedDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "cyberos-shared-" });
  await Deno.chmod(dir, 0o1777);
  return dir;
}

/** Runs the daemon once on `paths` and returns how it ended, or the child while it runs. */
function spawnDaemon(
  paths: { socket: string; traceDir: string; db: string },
  options: { umask?: string } = {},
): Deno.ChildProcess {
  // As `deno task start` does first: the daemon may not make the store's folder itself.
  Deno.mkdirSync(paths.db.slice(0, paths.db.lastIndexOf("/")), { recursive: true, mode: 0o700 });
  const args = daemonRunArgs(paths);
  const command = options.umask === undefined
    ? new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped", stdin: "null" })
    : new Deno.Command("/bin/sh", {
      args: ["-c", `umask ${options.umask}; exec "$0" "$@"`, Deno.execPath(), ...args],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    });
  return command.spawn();
}

/** How the daemon ended; one still running after `timeoutMs` is killed (the old code ran on). */
async function ended(
  child: Deno.ChildProcess,
  timeoutMs = 15_000,
): Promise<{ code: number; stderr: string }> {
  const timer = setTimeout(() => stopQuietly(child), timeoutMs);
  const output = await child.output();
  clearTimeout(timer);
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

/** Waits until `path` accepts a connection. */
async function waitForSocket(path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      (await Deno.connect({ transport: "unix", path })).close();
      return;
    } catch {
      await sleep(25);
    }
  }
  throw new Error(`${path} did not answer within ${timeoutMs} ms`);
}

/** Leaves a socket file nobody listens on (a daemon that was killed), owned by `uid`. */
async function staleSocket(path: string, uid: number): Promise<void> {
  const code = "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])";
  const output = await new Deno.Command("/usr/bin/python3", { args: ["-c", code, path] }).output();
  assert.equal(output.code, 0);
  if (uid !== Deno.uid()) Deno.chownSync(path, uid, uid);
}

function stopQuietly(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGTERM");
  } catch {
    // Exited already.
  }
}

function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.match(lines[0]!, /^cyberos-memory daemon: /);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(stderr, /Uncaught|at .*\.ts:\d+/);
}

Deno.test({
  name:
    "H1: a trace dir removed while the daemon runs and made again by another user with a forged frame: the daemon exits 1 and commits nothing",
  ignore: !IS_ROOT,
  async fn() {
    const daemon = await startTestDaemon();
    try {
      // The other user's folder is made aside and renamed into place whole, as
      // its owner would: a half-made folder (root's, mode 755) is refused too,
      // for a reason this test does not look for.
      const made = `${daemon.traceDir}.made`;
      Deno.mkdirSync(`${made}/spool`, { recursive: true });
      const forged = testFrame(1, { text: "forged by another user" });
      const name = spoolFileName(forged.payload.captured_at_ns as number, forged.id);
      Deno.writeFileSync(`${made}/spool/${name}`, encodeFrame(forged));
      for (const path of [made, `${made}/spool`]) {
        Deno.chmodSync(path, 0o777);
        Deno.chownSync(path, OTHER_UID, OTHER_UID);
      }
      Deno.removeSync(daemon.traceDir, { recursive: true });
      Deno.renameSync(made, daemon.traceDir);
      // Two ticks at most; the old daemon committed the forged row instead and ran on.
      const status = await Promise.race([daemon.process.status, sleep(6000)]);
      assert.deepEqual(readRows(daemon.db), []);
      assert.equal(status?.code, 1);
      assert.match(
        daemon.stderr(),
        // Whichever check runs first names what it saw: the folder, or the spool inside it.
        /ERROR shutting down: the (?:trace dir|spool) .* (was removed|is owned by uid 65534|was replaced)/,
      );
    } finally {
      await daemon.stop();
    }
  },
});

Deno.test("H1: a spool folder that is a symlink is refused at start: one line, exit 1, nothing read or deleted through it", async () => {
  const dir = await Deno.makeTempDir();
  const elsewhere = await Deno.makeTempDir();
  try {
    const traceDir = `${dir}/traces`;
    Deno.mkdirSync(traceDir, { mode: 0o700 });
    const frame = testFrame(2);
    const name = spoolFileName(frame.payload.captured_at_ns as number, frame.id);
    Deno.writeFileSync(`${elsewhere}/${name}`, encodeFrame(frame));
    Deno.symlinkSync(elsewhere, `${traceDir}/spool`);
    const result = await ended(
      spawnDaemon({ socket: `${dir}/c.sock`, traceDir, db: `${dir}/store/c.db` }),
    );
    assert.equal(result.code, 1);
    assertOneLine(result.stderr, /spool is a symlink/);
    assert.ok(Deno.statSync(`${elsewhere}/${name}`).isFile, "the file outside was left alone");
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("H1: spool files larger than a frame, or whose length prefix lies, are dropped unread; the daemon stays small", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const spool = `${dir}/traces/spool`;
    Deno.mkdirSync(spool, { recursive: true, mode: 0o700 });
    const sparse = testFrame(3);
    const sparsePath = `${spool}/${
      spoolFileName(sparse.payload.captured_at_ns as number, sparse.id)
    }`;
    const file = Deno.openSync(sparsePath, { write: true, create: true });
    file.truncateSync(600 * 1024 * 1024);
    file.close();
    const lying = testFrame(4, { text: "a prefix that lies" });
    const bytes = encodeFrame(lying);
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(0, 7);
    Deno.writeFileSync(
      `${spool}/${spoolFileName(lying.payload.captured_at_ns as number, lying.id)}`,
      bytes,
    );
    const honest = testFrame(5, { text: "an honest frame" });
    Deno.writeFileSync(
      `${spool}/${spoolFileName(honest.payload.captured_at_ns as number, honest.id)}`,
      encodeFrame(honest),
    );
    const daemon = await startTestDaemon({ dir });
    try {
      const rows = await waitForRows(daemon.db, 1).catch((error) => {
        throw new Error(`${error.message}; the daemon said: ${daemon.stderr()}`);
      });
      await sleep(300);
      assert.deepEqual(readRows(daemon.db).map((row) => row.payload.prompt_redacted), [
        "an honest frame",
      ]);
      assert.equal(rows.length, 1);
      assert.match(daemon.stderr(), /spool file \S+ dropped: 629145600 bytes, not one frame/);
      assert.match(daemon.stderr(), /spool file \S+ dropped: length prefix 7 does not match/);
      const rss = Number(
        /VmRSS:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${daemon.process.pid}/status`))![1],
      );
      assert.ok(rss < 200 * 1024, `RSS ${rss} KiB`);
      assert.deepEqual([...Deno.readDirSync(spool)], []);
    } finally {
      await daemon.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

/** Python for another user: binds `path` and takes connections, counting them, until killed. */
const SQUAT_SOCKET = `
import os, socket, sys, time
path = sys.argv[1]
caught = 0
end = time.time() + float(sys.argv[2])
while time.time() < end:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind(path)
    except OSError:
        time.sleep(0.0005)
        continue
    os.chmod(path, 0o777)
    s.listen(64)
    s.settimeout(0.001)
    try:
        while True:
            conn, _ = s.accept()
            conn.settimeout(0.2)
            try:
                if conn.recv(65536):
                    caught += 1
            except OSError:
                pass
            conn.close()
    except OSError:
        pass
    s.close()
    os.unlink(path)
    time.sleep(0.001)
print(caught)
`;

Deno.test({
  name:
    "M1: another user binding a free socket path in a loop never receives a frame: the hook connects only to a socket that is ours before and after the connect",
  ignore: !CAN_ACT_AS_OTHER,
  async fn() {
    const dir = await sharedDir();
    try {
      const socket = `${dir}/capture.sock`;
      const squatter = asOtherUser(SQUAT_SOCKET, [socket, "12"]);
      await sleep(300);
      const payload = await fixture("stop_without_last_assistant_message");
      const paths = { socket, traceDir: `${dir}/traces` };
      for (let i = 0; i < 40; i++) {
        const run = await runHook(paths, "stop", payload);
        assert.equal(run.code, 0);
        assert.match(run.stderr, /WARN (socket_untrusted|socket_unavailable): /);
      }
      squatter.kill("SIGTERM");
      const output = await squatter.output();
      const caught = new TextDecoder().decode(output.stdout).trim();
      assert.ok(caught === "" || caught === "0", `the other user caught ${caught} frames`);
      assert.equal([...Deno.readDirSync(`${dir}/traces/spool`)].length, 40);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "M1: a socket of ours replaced by another user's between the check and the connect is noticed once connected, and nothing is written to it",
  ignore: !IS_ROOT,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const path = `${dir}/capture.sock`;
      const ours = Deno.listen({ transport: "unix", path });
      const checked = checkSocket(path, { uid: 0 });
      assert.ok(checked.identity);
      ours.close(); // which also removes its file
      const theirs = Deno.listen({ transport: "unix", path });
      Deno.chownSync(path, OTHER_UID, OTHER_UID);
      const accepted = theirs.accept();
      const result = await connectChecked(path, checked.identity, { uid: 0 });
      assert.ok(result instanceof UntrustedSocket, String(result));
      assert.match(result.message, /owned by uid 65534 while connecting/);
      const conn = await accepted;
      assert.equal(await conn.read(new Uint8Array(16)), null, "closed before a byte was written");
      conn.close();
      theirs.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "M5: a trace dir another user made first stops the daemon with one line, not a silent daemon without a spool",
  ignore: !IS_ROOT,
  async fn() {
    const dir = await sharedDir();
    try {
      const traceDir = `${dir}/traces`;
      Deno.mkdirSync(traceDir, { mode: 0o777 });
      Deno.chmodSync(traceDir, 0o777);
      Deno.chownSync(traceDir, OTHER_UID, OTHER_UID);
      const result = await ended(
        spawnDaemon({ socket: `${dir}/c.sock`, traceDir, db: `${dir}/c.db` }),
      );
      assert.equal(result.code, 1);
      assertOneLine(result.stderr, /traces is owned by uid 65534: another user may have made it/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "M5: another user's stale or live socket at the path: one line and exit 1, never connected to, never removed",
  ignore: !IS_ROOT,
  async fn() {
    const dir = await sharedDir();
    try {
      const paths = { socket: `${dir}/c.sock`, traceDir: `${dir}/traces`, db: `${dir}/c.db` };
      const live = Deno.listen({ transport: "unix", path: paths.socket });
      Deno.chownSync(paths.socket, OTHER_UID, OTHER_UID);
      let accepted = 0;
      const accepting = (async () => {
        for await (const conn of live) {
          accepted++;
          conn.close();
        }
      })();
      const onLive = await ended(spawnDaemon(paths));
      live.close();
      await accepting.catch(() => {});
      assert.equal(onLive.code, 1);
      assertOneLine(
        onLive.stderr,
        /c\.sock is owned by uid 65534, so it is not a stale socket of ours/,
      );
      assert.equal(accepted, 0);
      await staleSocket(paths.socket, OTHER_UID);
      const onStale = await ended(spawnDaemon(paths));
      assert.equal(onStale.code, 1);
      assertOneLine(onStale.stderr, /is owned by uid 65534, so it is not a stale socket of ours/);
      assert.equal(Deno.lstatSync(paths.socket).uid, OTHER_UID, "theirs is left in place");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/**
 * The attacker of finding L1, in C (Python is too slow to meet a window of
 * microseconds): connects to `path` in a tight loop until `stop` exists,
 * writes the frame in `file` whenever a connect succeeds, prints how often.
 * A connect made before the daemon's chmod stays usable after it.
 */
const KNOCK_C = `
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
int main(int argc, char **argv) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  strncpy(addr.sun_path, argv[1], sizeof addr.sun_path - 1);
  static char frame[1 << 16];
  int file = open(argv[2], O_RDONLY);
  ssize_t length = read(file, frame, sizeof frame);
  int sent = 0;
  while (access(argv[3], F_OK) != 0) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0 && write(fd, frame, length) == length) sent++;
    close(fd);
  }
  printf("%d\\n", sent);
  return 0;
}
`;

const HAS_GCC = exists("/usr/bin/gcc");

Deno.test({
  name:
    "L1: under umask 000, another user connecting in a tight loop through 10 starts never gets a frame in (the old daemon took 7)",
  ignore: !CAN_ACT_AS_OTHER || !HAS_GCC,
  async fn() {
    const dir = await sharedDir();
    try {
      const paths = { socket: `${dir}/c.sock`, traceDir: `${dir}/traces`, db: `${dir}/store/c.db` };
      const framePath = `${dir}/forged.frame`;
      Deno.writeFileSync(framePath, encodeFrame(testFrame(6, { text: "forged at start" })));
      Deno.chmodSync(framePath, 0o644);
      Deno.writeTextFileSync(`${dir}/knock.c`, KNOCK_C);
      const compiled = await new Deno.Command("/usr/bin/gcc", {
        args: ["-O2", "-o", `${dir}/knock`, `${dir}/knock.c`],
      }).output();
      assert.equal(compiled.code, 0, new TextDecoder().decode(compiled.stderr));
      Deno.chmodSync(`${dir}/knock`, 0o755);
      const knocker = new Deno.Command("/usr/bin/setpriv", {
        args: [
          `--reuid=${OTHER_UID}`,
          `--regid=${OTHER_UID}`,
          "--clear-groups",
          `${dir}/knock`,
          paths.socket,
          framePath,
          `${dir}/stop`,
        ],
        stdout: "piped",
      }).spawn();
      for (let start = 0; start < 10; start++) {
        const daemon = spawnDaemon(paths, { umask: "000" });
        await waitForSocket(paths.socket);
        assert.equal(Deno.lstatSync(paths.socket).mode! & 0o777, 0o600);
        await sleep(300); // past its signal handlers' setup
        daemon.kill("SIGTERM");
        const { code, stderr } = await ended(daemon);
        assert.equal(code, 0, stderr);
      }
      Deno.writeTextFileSync(`${dir}/stop`, "");
      const sent = new TextDecoder().decode((await knocker.output()).stdout).trim();
      assert.equal(sent, "0");
      assert.deepEqual(readRows(paths.db), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("L6: two daemons started together on a stale socket: exactly one serves, the other says why in one line", async () => {
  for (let round = 0; round < 4; round++) {
    const dir = await Deno.makeTempDir();
    try {
      const paths = { socket: `${dir}/c.sock`, traceDir: `${dir}/traces`, db: `${dir}/store/c.db` };
      await staleSocket(paths.socket, Deno.uid()!);
      const first = spawnDaemon(paths);
      const second = spawnDaemon(paths);
      const firstEnd = ended(first);
      const secondEnd = ended(second);
      const loser = await Promise.race([firstEnd, secondEnd]);
      assert.equal(loser.code, 1);
      assertOneLine(
        loser.stderr,
        // The store's lock or the trace dir's, whichever it meets first: one daemon holds both.
        /another daemon is running on (the store .*\(pid \d+ socket .*\)|.*traces \(it holds .*daemon\.lock\))/,
      );
      await waitForSocket(paths.socket);
      const run = await runHook(
        paths,
        "stop",
        await fixture("stop_without_last_assistant_message"),
      );
      assert.equal(run.stderr, "");
      await waitForRows(paths.db, 1);
      stopQuietly(first);
      stopQuietly(second);
      const codes = [(await firstEnd).code, (await secondEnd).code].sort();
      assert.deepEqual(codes, [0, 1]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

function residentMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

Deno.test("memory: 64 connections each sending a 15 MiB frame hold a bounded amount, released after", async () => {
  const daemon = await startTestDaemon();
  try {
    const pid = daemon.process.pid;
    await sleep(300);
    const baseline = residentMiB(pid);
    const body = new Uint8Array(15 * 1024 * 1024).fill(0x78);
    const frame = new Uint8Array(4 + body.length);
    new DataView(frame.buffer).setUint32(0, body.length);
    frame.set(body, 4);
    let peak = 0;
    const sampler = setInterval(() => peak = Math.max(peak, residentMiB(pid)), 20);
    await Promise.all(Array.from({ length: 64 }, async () => {
      try {
        const conn = await Deno.connect({ transport: "unix", path: daemon.socket });
        for (let written = 0; written < frame.length;) {
          written += await conn.write(frame.subarray(written));
        }
        await conn.closeWrite();
        while ((await conn.read(new Uint8Array(64))) !== null) { /* until the daemon closes */ }
        conn.close();
      } catch {
        // Refused: the budget was full.
      }
    }));
    await sleep(1500);
    clearInterval(sampler);
    const after = residentMiB(pid);
    assert.ok(
      peak - baseline < 400,
      `peak ${peak.toFixed(0)} MiB over a baseline of ${baseline.toFixed(0)}`,
    );
    assert.ok(
      after - baseline < 100,
      `after ${after.toFixed(0)} MiB, baseline ${baseline.toFixed(0)}`,
    );
    assert.match(daemon.stderr(), /WARN frame rejected: Cannot take frame: its 15728640 bytes/);
    await runHook(daemon, "stop", await fixture("stop_without_last_assistant_message"));
    await waitForRows(daemon.db, 1);
  } finally {
    await daemon.stop();
  }
});

Deno.test("the default layout: `deno task start` and `deno task hook` meet in ~/.local/state/cyberos-memory (0700), and a row arrives", async () => {
  const home = await Deno.makeTempDir({ prefix: "cyberos-home-" });
  const env = {
    HOME: home,
    // The real cache: the launchers' own imports are there, and nothing may be fetched.
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    PATH: `${Deno.execPath().replace(/\/[^/]+$/, "")}:/usr/bin:/bin`,
    NO_COLOR: "1",
  };
  const runtime = `${home}/.local/state/cyberos-memory`;
  const daemon = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "start"],
    cwd: ROOT,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    await waitForSocket(`${runtime}/capture.sock`);
    assert.equal(Deno.statSync(runtime).mode! & 0o777, 0o700);
    const hook = new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "hook", "stop"],
      cwd: ROOT,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = hook.stdin.getWriter();
    await writer.write(
      new TextEncoder().encode(await fixture("stop_without_last_assistant_message")),
    );
    await writer.close();
    const output = await hook.output();
    assert.equal(new TextDecoder().decode(output.stderr), "");
    assert.equal(new TextDecoder().decode(output.stdout), "");
    const rows = await waitForRows(`${home}/.local/share/cyberos-memory/capture.db`, 1);
    assert.equal(rows[0]!.kind, "memory.claude_session_completed");
  } finally {
    stopQuietly(daemon);
    await daemon.output();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test({
  name:
    "the default layout owned by another user: the hook neither trusts the folder nor connects to the socket in it",
  ignore: !IS_ROOT,
  async fn() {
    const dir = await sharedDir();
    const runtime = `${dir}/cyberos-memory`;
    Deno.mkdirSync(runtime, { mode: 0o700 });
    const socket = `${runtime}/capture.sock`;
    const listener = Deno.listen({ transport: "unix", path: socket });
    let accepted = 0;
    const accepting = (async () => {
      for await (const conn of listener) {
        accepted++;
        conn.close();
      }
    })();
    try {
      Deno.chownSync(socket, OTHER_UID, OTHER_UID);
      Deno.chownSync(runtime, OTHER_UID, OTHER_UID);
      const run = await runHook(
        { socket, traceDir: runtime },
        "stop",
        await fixture("stop_without_last_assistant_message"),
      );
      assert.equal(run.code, 0);
      assert.match(run.stderr, /WARN trace_dir_untrusted: .* is owned by uid 65534/);
      assert.match(run.stderr, /WARN socket_untrusted: .* is owned by uid 65534/);
      assert.equal(accepted, 0);
    } finally {
      listener.close();
      await accepting.catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a second daemon on another trace dir but the live socket of a first one: one line, exit 1, the first serves on", async () => {
  const daemon = await startTestDaemon();
  try {
    const result = await ended(spawnDaemon({
      socket: daemon.socket,
      traceDir: `${daemon.dir}/other-traces`,
      db: `${daemon.dir}/other.db`,
    }));
    assert.equal(result.code, 1);
    assertOneLine(result.stderr, /another daemon is already listening on .*capture\.sock/);
    await runHook(daemon, "stop", await fixture("stop_without_last_assistant_message"));
    await waitForRows(daemon.db, 1);
  } finally {
    await daemon.stop();
  }
});
