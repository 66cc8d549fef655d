/**
 * Permissions are part of the interface: the flags each entry runs with are
 * proved here both for what they allow and for what they refuse.
 *
 * @module
 */

import assert from "node:assert/strict";
import { BIND_SOCKET_NAME, resolvePaths } from "../lib/paths.ts";
import { HOOK_V8_FLAGS } from "../lib/hook_command.ts";
import { hookRunArgs } from "../hook/start.ts";
import {
  daemonPermissionFlags,
  hookPermissionFlags,
  installPermissionFlags,
  statusPermissionFlags,
  storeFolderPermissionFlags,
  teamPermissionFlags,
  viewPermissionFlags,
} from "../lib/permissions.ts";
import { storeFolderRunArgs } from "../daemon/start.ts";
import { fixture, ROOT, runHook } from "./_daemon.ts";
import { probe } from "./_probe.ts";

/** An operation, its target and the expected answer (`granted` or `refused`). */
type ProbeCase = [operation: string, target: string, expected: string];

/** One step per case: the probe under `flags` must give the expected answer. */
async function probeSteps(
  t: Deno.TestContext,
  flags: string[],
  options: { cases: ProbeCase[]; dir: string; label?: string },
): Promise<void> {
  const prefix = options.label ? `${options.label}: ` : "";
  for (const [operation, target, expected] of options.cases) {
    const name = `${prefix}${operation} ${target.replace(options.dir, "<tmp>")} → ${expected}`;
    await t.step(name, async () => {
      assert.equal(await probe(flags, operation, target), expected);
    });
  }
}

Deno.test("deno.json names no hook set (its paths are under $HOME now): the hook task goes through the launcher", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  assert.equal(config.permissions.hook, undefined);
  assert.equal(config.tasks.hook, "deno run -q -P=launcher hook/start.ts");
  assert.ok(config.permissions.launcher.env.includes("XDG_STATE_HOME"));
});

Deno.test("the hook task's launcher runs the hook with the installed command's V8 and permission flags for the resolved paths", () => {
  const paths = resolvePaths((name) => ({ HOME: "/home/u" } as Record<string, string>)[name]);
  const args = hookRunArgs(paths, ["stop"]);
  for (const flag of [...HOOK_V8_FLAGS, ...hookPermissionFlags(paths)]) {
    assert.ok(args.includes(flag), `${flag} is missing`);
  }
  assert.ok(args.includes("--allow-net=unix:/home/u/.local/state/cyberos-memory/capture.sock"));
  assert.equal(args.filter((arg) => arg.startsWith("--allow")).length, 5);
  assert.deepEqual(args.slice(-5), [
    "--socket",
    "/home/u/.local/state/cyberos-memory/capture.sock",
    "--trace-dir",
    "/home/u/.local/state/cyberos-memory",
    "stop",
  ]);
});

Deno.test("hookPermissionFlags() allow the trace dir and socket and refuse everything else", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  // The default layout: the socket inside the private runtime dir, which is the trace dir.
  const traceDir = `${dir}/state/cyberos-memory`;
  const socket = `${traceDir}/capture.sock`;
  await Deno.mkdir(traceDir, { recursive: true });
  await Deno.writeTextFile(`${traceDir}/readable`, "x");
  const listener = Deno.listen({ transport: "unix", path: socket });
  const other = Deno.listen({ transport: "unix", path: `${dir}/other.sock` });
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const flags = hookPermissionFlags({ socket, traceDir });
  const cases: ProbeCase[] = [
    ["read", `${traceDir}/readable`, "granted"],
    ["write", `${traceDir}/new-file`, "granted"],
    ["unix", socket, "granted"],
    ["read", `${dir}/state`, "refused"],
    ["write", `${dir}/state/cyberos-memory-other`, "refused"],
    ["listen-unix", `${traceDir}/${BIND_SOCKET_NAME}`, "refused"],
    ["read", "/etc/hostname", "refused"],
    ["read", `${dir}/other.sock`, "refused"],
    ["read", `${ROOT}/deno.json`, "refused"],
    ["write", `${dir}/outside`, "refused"],
    ["write", "/tmp/cyberos-probe-outside", "refused"],
    ["env", "TRACEPARENT", "granted"],
    ["env", "HOME", "refused"],
    ["env", "PATH", "refused"],
    ["env", "OTEL_EXPORTER_OTLP_ENDPOINT", "refused"],
    ["env", "TRACESTATE", "refused"],
    ["run", "true", "refused"],
    ["tcp", `127.0.0.1:${(tcp.addr as Deno.NetAddr).port}`, "refused"],
    ["unix", `${dir}/other.sock`, "refused"],
    ["ffi", "/lib/x86_64-linux-gnu/libc.so.6", "refused"],
  ];
  try {
    await probeSteps(t, flags, { cases, dir });
  } finally {
    listener.close();
    other.close();
    tcp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hook: a narrowed flag set (no --allow-net) is refused the socket and says so", async () => {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/capture.sock`;
  const listener = Deno.listen({ transport: "unix", path: socket });
  try {
    const paths = { socket, traceDir: `${dir}/traces` };
    const narrowed = hookPermissionFlags(paths).filter((flag) => !flag.startsWith("--allow-net"));
    const run = await runHook(paths, "stop", await fixture("stop_without_last_assistant_message"), {
      flags: narrowed,
    });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /WARN socket_unavailable: .*(net access|NotCapable)/);
  } finally {
    listener.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("daemonPermissionFlags() allow the store's own paths, trace dir and socket and refuse everything else", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  const socket = `${dir}/capture.sock`;
  const traceDir = `${dir}/traces`;
  const db = `${dir}/store/capture.db`;
  await Deno.mkdir(`${dir}/store`);
  await Deno.mkdir(traceDir);
  await Deno.mkdir(`${db}.quarantine`);
  await Deno.writeTextFile(`${dir}/store/notes.txt`, "x");
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (tcp.addr as Deno.NetAddr).port;
  const flags = daemonPermissionFlags({ socket, traceDir, db });
  const withOtlp = daemonPermissionFlags({ socket, traceDir, db, otlpHost: `127.0.0.1:${port}` });
  const plainCases: ProbeCase[] = [
    ["sqlite", db, "granted"],
    ["write", `${db}-wal`, "granted"],
    ["write", `${db}-journal`, "granted"],
    ["write", `${db}.lock`, "granted"],
    ["write", `${db}.signing.key`, "granted"],
    ["write", `${db}.quarantine/x.frame`, "granted"],
    ["write", `${traceDir}/x`, "granted"],
    ["listen-unix", `${traceDir}/${BIND_SOCKET_NAME}`, "granted"],
    ["listen-unix", socket, "granted"],
    ["listen-unix", `${traceDir}/other.sock`, "refused"],
    ["listen-unix", `${dir}/other.sock`, "refused"],
    ["env", "OTEL_EXPORTER_OTLP_ENDPOINT", "granted"],
    // The store's folder itself is not granted: only the store's own paths.
    ["read", `${dir}/store/notes.txt`, "refused"],
    ["write", `${dir}/store/other.db`, "refused"],
    ["sqlite", `${dir}/store/other.db`, "refused"],
    ["read", "/etc/hostname", "refused"],
    ["write", `${dir}/outside`, "refused"],
    ["env", "HOME", "refused"],
    ["env", "ANTHROPIC_API_KEY", "refused"],
    ["run", "true", "refused"],
    ["tcp", `127.0.0.1:${port}`, "refused"],
  ];
  const otlpCases: ProbeCase[] = [
    ["tcp", `127.0.0.1:${port}`, "granted"],
  ];
  try {
    await probeSteps(t, flags, { cases: plainCases, dir, label: "plain" });
    await probeSteps(t, withOtlp, { cases: otlpCases, dir, label: "otlp" });
  } finally {
    tcp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("daemonPermissionFlags(): a store straight in $HOME (CYBEROS_MEMORY_DB=~/c.db) opens nothing else of $HOME", async (t) => {
  const home = await Deno.makeTempDir({ dir: "/tmp" });
  await Deno.mkdir(`${home}/.ssh`);
  await Deno.writeTextFile(`${home}/.ssh/id_ed25519`, "key");
  await Deno.writeTextFile(`${home}/.bashrc`, "x");
  const flags = daemonPermissionFlags({
    socket: `${home}/s.sock`,
    traceDir: `${home}/traces`,
    db: `${home}/c.db`,
  });
  const cases: ProbeCase[] = [
    ["sqlite", `${home}/c.db`, "granted"],
    ["read", `${home}/.ssh/id_ed25519`, "refused"],
    ["write", `${home}/.bashrc`, "refused"],
    ["write", `${home}/c.db2`, "refused"],
  ];
  try {
    await probeSteps(t, flags, { cases, dir: home });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("storeFolderPermissionFlags() reach the store's folder only", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  const flags = storeFolderPermissionFlags({ db: `${dir}/store/capture.db` });
  const cases: ProbeCase[] = [
    ["write", `${dir}/store/x`, "granted"],
    ["write", `${dir}/x`, "refused"],
    ["read", "/etc/hostname", "refused"],
    ["env", "HOME", "refused"],
    ["run", "true", "refused"],
  ];
  try {
    await Deno.mkdir(`${dir}/store`);
    await probeSteps(t, flags, { cases, dir });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("store_folder.ts makes a missing store folder 0700 under its own flags, and leaves an existing one", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  try {
    const db = `${dir}/a/b/capture.db`;
    const run = () =>
      new Deno.Command("sh", {
        args: [
          "-c",
          'umask 000 && exec "$@"',
          "sh",
          Deno.execPath(),
          ...storeFolderRunArgs({ db }),
        ],
      }).output();
    assert.equal((await run()).code, 0);
    assert.equal(Deno.statSync(`${dir}/a/b`).mode! & 0o777, 0o700);
    assert.equal((await run()).code, 0);
    await Deno.remove(`${dir}/a/b`);
    await Deno.writeTextFile(`${dir}/a/b`, "");
    const refused = await run();
    assert.equal(refused.code, 1);
    assert.match(
      new TextDecoder().decode(refused.stderr),
      /^cyberos-memory start: .*is not a folder/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("installPermissionFlags() write only the scope's .claude folder and the installer's record", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  const project = `${dir}/project`;
  const runtime = `${dir}/state/cyberos-memory`;
  await Deno.mkdir(`${project}/.claude`, { recursive: true });
  await Deno.mkdir(`${runtime}/installer`, { recursive: true });
  await Deno.writeTextFile(`${project}/package.json`, "{}");
  await Deno.writeTextFile(`${runtime}/session-1`, "trace id");
  const flags = installPermissionFlags({
    project,
    claudeDir: `${project}/.claude`,
    recordDir: `${runtime}/installer`,
  });
  const cases: ProbeCase[] = [
    ["write", `${project}/.claude/settings.json`, "granted"],
    ["read", `${project}/package.json`, "granted"],
    ["write", `${project}/package.json`, "refused"],
    ["write", `${project}/.claude-other`, "refused"],
    ["write", `${runtime}/installer/created.json`, "granted"],
    ["read", `${runtime}/installer/created.json`, "granted"],
    ["read", `${runtime}/session-1`, "refused"],
    ["write", `${runtime}/spool`, "refused"],
    ["read", "/etc/hostname", "refused"],
    ["env", "ANTHROPIC_API_KEY", "refused"],
    ["env", "CYBEROS_MEMORY_SOCKET", "granted"],
    ["run", "true", "refused"],
    ["unix", "/tmp/cyberos-memory-capture.sock", "refused"],
    ["uid", "", "granted"],
  ];
  try {
    await probeSteps(t, flags, { cases, dir });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("statusPermissionFlags() reach only the configured socket and write nothing", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  const socket = `${dir}/capture.sock`;
  const listener = Deno.listen({ transport: "unix", path: socket });
  const other = Deno.listen({ transport: "unix", path: `${dir}/other.sock` });
  const flags = statusPermissionFlags({ socket });
  const cases: ProbeCase[] = [
    ["unix", socket, "granted"],
    ["read", "/etc/hostname", "granted"],
    ["unix", `${dir}/other.sock`, "refused"],
    ["write", `${dir}/file`, "refused"],
    ["env", "ANTHROPIC_API_KEY", "refused"],
    ["run", "true", "refused"],
    ["uid", "", "granted"],
  ];
  try {
    await probeSteps(t, flags, { cases, dir });
  } finally {
    listener.close();
    other.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("teamPermissionFlags() read only the store and reach only the team store's host:port", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  const db = `${dir}/store/capture.db`;
  await Deno.mkdir(`${dir}/store`);
  for (const file of [db, `${db}-wal`, `${db}-shm`, `${db}.signing.key`]) {
    await Deno.writeTextFile(file, "x");
  }
  const team = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const other = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const teamHost = `127.0.0.1:${(team.addr as Deno.NetAddr).port}`;
  const otherHost = `127.0.0.1:${(other.addr as Deno.NetAddr).port}`;
  const ship = teamPermissionFlags({ net: teamHost, db });
  const admin = teamPermissionFlags({ net: teamHost });
  const shipCases: ProbeCase[] = [
    ["read", db, "granted"],
    ["read", `${db}-wal`, "granted"],
    ["read", `${db}-shm`, "granted"],
    ["tcp", teamHost, "granted"],
    ["env", "CYBEROS_MEMORY_TEAM_URL", "granted"],
    ["read", `${db}.signing.key`, "refused"],
    ["write", db, "refused"],
    ["write", `${dir}/store/new`, "refused"],
    ["read", "/etc/hostname", "refused"],
    ["tcp", otherHost, "refused"],
    ["env", "HOME", "refused"],
    ["env", "ANTHROPIC_API_KEY", "refused"],
    ["run", "true", "refused"],
    ["ffi", "/lib/x86_64-linux-gnu/libc.so.6", "refused"],
  ];
  const adminCases: ProbeCase[] = [
    ["tcp", teamHost, "granted"],
    ["read", db, "refused"],
    ["env", "CYBEROS_MEMORY_TEAM_URL", "refused"],
    ["tcp", otherHost, "refused"],
  ];
  try {
    await probeSteps(t, ship, { cases: shipCases, dir, label: "ship" });
    await probeSteps(t, admin, { cases: adminCases, dir, label: "init, enroll, verify" });
  } finally {
    team.close();
    other.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("viewPermissionFlags() read only the store and listen only on its one address", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  const db = `${dir}/store/capture.db`;
  await Deno.mkdir(`${dir}/store`);
  for (const file of [db, `${db}-wal`, `${db}-shm`, `${dir}/store/other.db`]) {
    await Deno.writeTextFile(file, "x");
  }
  const socket = `${dir}/capture.sock`;
  const unix = Deno.listen({ transport: "unix", path: socket });
  const own = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const other = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (own.addr as Deno.NetAddr).port;
  const otherPort = (other.addr as Deno.NetAddr).port;
  const flags = viewPermissionFlags({ db, listen: `127.0.0.1:${port}` });
  const cases: ProbeCase[] = [
    ["read", db, "granted"],
    ["read", `${db}-wal`, "granted"],
    ["read", `${db}-shm`, "granted"],
    ["tcp", `127.0.0.1:${port}`, "granted"],
    ["read", `${dir}/store/other.db`, "refused"],
    ["read", "/etc/hostname", "refused"],
    ["write", db, "refused"],
    ["write", `${db}-wal`, "refused"],
    ["tcp", `127.0.0.1:${otherPort}`, "refused"],
    ["unix", socket, "refused"],
    ["env", "HOME", "refused"],
    ["run", "true", "refused"],
    ["ffi", "/lib/x86_64-linux-gnu/libc.so.6", "refused"],
  ];
  try {
    await probeSteps(t, flags, { cases, dir });
  } finally {
    unix.close();
    own.close();
    other.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno.json's viewer set lets the view's launcher read the path variables, find a loopback port and run deno, nothing more", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  await Deno.writeTextFile(`${dir}/file`, "x");
  const flags = [`--config=${ROOT}/deno.json`, "-P=viewer"];
  const cases: ProbeCase[] = [
    ["env", "CYBEROS_MEMORY_DB", "granted"],
    ["env", "XDG_DATA_HOME", "granted"],
    ["listen", "127.0.0.1:0", "granted"],
    ["env", "ANTHROPIC_API_KEY", "refused"],
    ["read", `${dir}/file`, "refused"],
    ["write", `${dir}/other`, "refused"],
    ["run", "true", "refused"],
    ["listen", "0.0.0.0:0", "refused"],
    ["tcp", "192.0.2.1:80", "refused"],
  ];
  try {
    await probeSteps(t, flags, { cases, dir });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno.json's launcher set may run ps (to follow npx) besides deno, nothing else", async (t) => {
  const dir = await Deno.makeTempDir({ dir: "/tmp" });
  const flags = [`--config=${ROOT}/deno.json`, "--no-prompt", "-P=launcher"];
  const cases: ProbeCase[] = [
    ["run", "ps", "granted"],
    ["run", "sh", "refused"],
    ["env", "npm_command", "granted"],
    ["env", "ANTHROPIC_API_KEY", "refused"],
    ["read", "/etc/hostname", "refused"],
    ["write", `${dir}/file`, "refused"],
    ["unix", "/tmp/cyberos-memory-capture.sock", "refused"],
  ];
  try {
    await probeSteps(t, flags, { cases, dir });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
