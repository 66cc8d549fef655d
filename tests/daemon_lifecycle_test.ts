/**
 * One daemon per store, and no daemon outliving what started it: a second
 * daemon on the same store exits 1 at once naming the first, whatever its
 * socket; SIGTERM or SIGINT to `deno task start` or to the launcher, a
 * launcher killed outright, and npx's way of stopping (it signals only the
 * shell it started, which dies without passing the signal on) all stop the
 * daemon and remove its socket.
 *
 * @module
 */

import assert from "node:assert/strict";
import { daemonRunArgs } from "../daemon/start.ts";
import { encodeFrame } from "../lib/frame.ts";
import { ROOT, sendRaw, startTestDaemon, testFrame, waitForRows } from "./_daemon.ts";

const DENO_DIR = Deno.env.get("DENO_DIR") ||
  `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`;

Deno.test("a second daemon on the same store and another socket exits 1 at once, naming the first", async () => {
  const daemon = await startTestDaemon();
  try {
    const started = performance.now();
    const second = await new Deno.Command(Deno.execPath(), {
      args: daemonRunArgs({ ...daemon, socket: `${daemon.dir}/other.sock` }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const ms = performance.now() - started;
    const stderr = new TextDecoder().decode(second.stderr);
    assert.equal(second.code, 1, stderr);
    assert.match(
      stderr,
      new RegExp(
        `^cyberos-memory daemon: another daemon is running on the store ${daemon.db} \\(pid ${daemon.process.pid} socket ${daemon.socket}\\); stop it first`,
      ),
    );
    assert.equal(stderr.trimEnd().split("\n").length, 1, stderr);
    assert.throws(() => Deno.lstatSync(`${daemon.dir}/other.sock`), Deno.errors.NotFound);
    assert.ok(ms < 10_000, `exits at once, not at its first commit (${ms} ms)`);
    // The first one goes on alone.
    await sendRaw(daemon.socket, encodeFrame(testFrame(1)));
    assert.equal((await waitForRows(daemon.db, 1)).length, 1);
  } finally {
    await daemon.stop();
  }
});

Deno.test("the store lock refuses a planted symlink and frees itself when the daemon dies", async () => {
  const daemon = await startTestDaemon();
  const dir = daemon.dir;
  try {
    daemon.process.kill("SIGKILL");
    await daemon.process.status;
    // The kernel dropped the lock with the process: a new daemon starts.
    await daemon.restart();
    await daemon.stop({ keep: true });

    Deno.removeSync(`${daemon.db}.lock`);
    Deno.writeTextFileSync(`${dir}/elsewhere`, "x");
    Deno.symlinkSync(`${dir}/elsewhere`, `${daemon.db}.lock`);
    const planted = await new Deno.Command(Deno.execPath(), {
      args: daemonRunArgs(daemon),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(planted.code, 1);
    assert.match(new TextDecoder().decode(planted.stderr), /\.lock is not a regular file/);
    assert.equal(Deno.readTextFileSync(`${dir}/elsewhere`), "x", "the link's target untouched");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A process tree started the way users start the daemon, and its paths. */
interface Started {
  child: Deno.ChildProcess;
  socket: string;
  db: string;
  dir: string;
  /** What the process tree wrote on stderr so far. */
  stderr: () => string;
}

/** Starts `command` (argv) with the paths in the environment; waits until the daemon listens. */
async function startVia(argv: string[], extraEnv: Record<string, string> = {}): Promise<Started> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-life-" });
  const socket = `${dir}/capture.sock`;
  const db = `${dir}/store/capture.db`;
  const [program, ...args] = argv;
  const child = new Deno.Command(program!, {
    args,
    cwd: ROOT,
    clearEnv: true,
    env: {
      PATH: `${Deno.execPath().replace(/\/[^/]*$/, "")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      DENO_DIR,
      HOME: dir,
      CYBEROS_MEMORY_SOCKET: socket,
      CYBEROS_MEMORY_TRACE_DIR: `${dir}/traces`,
      CYBEROS_MEMORY_DB: db,
      ...extraEnv,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
  })();
  const deadline = Date.now() + 30_000;
  while (!isSocket(socket)) {
    if (Date.now() > deadline) throw new Error(`the daemon did not start via ${argv.join(" ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, socket, db, dir, stderr: () => stderr };
}

function isSocket(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSocket === true;
  } catch {
    return false;
  }
}

/** The daemon's pid, from its store lock. */
function daemonPid(db: string): number {
  const match = /^pid (\d+) /.exec(Deno.readTextFileSync(`${db}.lock`));
  assert.ok(match, "the lock file names the daemon");
  return Number(match[1]);
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** Waits until the daemon process is gone and its socket removed. */
async function assertStops(started: Started, pid: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (alive(pid) || isSocket(started.socket)) {
    if (Date.now() > deadline) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Gone after all.
      }
      throw new Error(
        `the daemon (pid ${pid}) is ${alive(pid) ? "still running" : "gone"}, its socket ${
          isSocket(started.socket) ? "left" : "removed"
        }; stderr: ${started.stderr()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function cleanUp(started: Started): Promise<void> {
  try {
    started.child.kill("SIGKILL");
  } catch {
    // Gone.
  }
  await started.child.status;
  await Deno.remove(started.dir, { recursive: true });
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`${signal} to deno task start stops the daemon and removes its socket`, async () => {
    const started = await startVia([Deno.execPath(), "task", "-q", "start"]);
    try {
      const pid = daemonPid(started.db);
      started.child.kill(signal);
      await assertStops(started, pid);
    } finally {
      await cleanUp(started);
    }
  });

  Deno.test(`${signal} to the launcher stops the daemon and removes its socket`, async () => {
    const started = await startVia([
      Deno.execPath(),
      "run",
      "-q",
      "-P=launcher",
      "daemon/start.ts",
    ]);
    try {
      const pid = daemonPid(started.db);
      started.child.kill(signal);
      await assertStops(started, pid);
      assert.equal((await started.child.status).code, 0, "a clean stop");
    } finally {
      await cleanUp(started);
    }
  });
}

Deno.test("a launcher killed outright (SIGKILL) leaves no daemon behind", async () => {
  const started = await startVia([Deno.execPath(), "run", "-q", "-P=launcher", "daemon/start.ts"]);
  try {
    const pid = daemonPid(started.db);
    started.child.kill("SIGKILL");
    await assertStops(started, pid);
  } finally {
    await cleanUp(started);
  }
});

Deno.test("npx's SIGTERM, which reaches only the shell it started, stops the daemon too", async () => {
  // npx runs `sh -c "deno task start"` and passes a signal to that shell only;
  // the shell dies and leaves deno task, the launcher and the daemon orphaned.
  const started = await startVia(
    ["sh", "-c", `'${Deno.execPath()}' task -q start; exit $?`],
    { npm_command: "exec" },
  );
  try {
    const pid = daemonPid(started.db);
    started.child.kill("SIGTERM");
    await assertStops(started, pid);
  } finally {
    await cleanUp(started);
  }
});

Deno.test("deno task start --socket --db --trace-dir (the usage it prints) runs the daemon there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-life-" });
  const socket = `${dir}/flags.sock`;
  const db = `${dir}/flags/capture.db`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "start", "--socket", socket, "--db", db, "--trace-dir", `${dir}/t`],
    cwd: ROOT,
    clearEnv: true,
    // The environment names other paths: the options win, and the flags follow them.
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR,
      HOME: dir,
      CYBEROS_MEMORY_SOCKET: `${dir}/env.sock`,
      CYBEROS_MEMORY_DB: `${dir}/env/capture.db`,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const started: Started = { child, socket, db, dir, stderr: () => "" };
  try {
    const deadline = Date.now() + 30_000;
    while (!isSocket(socket)) {
      if (Date.now() > deadline) throw new Error("the daemon did not listen on --socket");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sendRaw(socket, encodeFrame(testFrame(1)));
    assert.equal((await waitForRows(db, 1)).length, 1, "rows go to --db");
    const pid = daemonPid(db);
    child.kill("SIGTERM");
    await assertStops(started, pid);
    assert.equal((await child.status).code, 0);
    assert.throws(() => Deno.lstatSync(`${dir}/env.sock`), Deno.errors.NotFound);
  } finally {
    await child.stderr.cancel();
    await cleanUp(started);
  }
});
