/**
 * A checkout, project, store and runtime folder whose paths hold spaces, a
 * quote, `%` and non-ASCII work end to end: the repository's tracked files
 * are copied into such a folder (with nothing beside them), and from there
 * `deno task start`, `install`, the installed hook, `status` and `uninstall`
 * run as a user would run them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixture, ROOT, waitForRows } from "./_daemon.ts";
import { runTask, startTask } from "./_launcher.ts";

/** A folder name that `URL.pathname` would mangle and a shell would split. */
const AWKWARD = "my tools 'ü' 100%20 日本";

/** Copies the files git tracks in this checkout into `target`. */
async function copyCheckout(target: string): Promise<number> {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-z"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  assert.ok(listed.success, "git ls-files failed");
  const names = new TextDecoder().decode(listed.stdout).split("\0").filter(Boolean);
  let copied = 0;
  for (const name of names) {
    const from = `${ROOT}/${name}`;
    try {
      if (!Deno.lstatSync(from).isFile) continue;
    } catch {
      continue; // Deleted in the working tree and not yet committed.
    }
    const to = `${target}/${name}`;
    await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(from, to);
    copied++;
  }
  return copied;
}

Deno.test("a checkout, project and store at paths with spaces, a quote, % and non-ASCII: start, install, capture, status, uninstall", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "cyberos-any-path-" }));
  const root = `${base}/${AWKWARD}/cyberos-memory`;
  const project = `${base}/${AWKWARD}/project`;
  const home = `${base}/${AWKWARD}/home`;
  const env = {
    CYBEROS_MEMORY_SOCKET: `${base}/${AWKWARD}/run/capture.sock`,
    CYBEROS_MEMORY_TRACE_DIR: `${base}/${AWKWARD}/run/traces`,
    CYBEROS_MEMORY_DB: `${base}/${AWKWARD}/store/capture.db`,
  };
  await Deno.mkdir(project, { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  assert.ok(await copyCheckout(root) > 50);
  const task = { root, home, env };
  const daemon = await startTask(env.CYBEROS_MEMORY_SOCKET, task);
  try {
    assert.ok(daemon.startLine.includes(`listening on ${env.CYBEROS_MEMORY_SOCKET};`));

    const install = await runTask(["install", project], task);
    assert.equal(install.code, 0, install.stderr);
    const settings = JSON.parse(await Deno.readTextFile(`${project}/.claude/settings.json`));
    const command: string = settings.hooks.UserPromptSubmit[0].hooks[0].command;
    assert.ok(command.includes(`${root}/hook/dist/hook.js`.replaceAll("'", `'\\''`)), command);

    // The installed command, run the way Claude Code runs it, captures a prompt into the store.
    const payload = (await fixture("user_prompt_submit")).replaceAll(
      "/Users/alex/src/acme-api",
      project,
    );
    const hook = new Deno.Command("/bin/sh", {
      args: ["-c", command],
      cwd: project,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = hook.stdin.getWriter();
    await writer.write(new TextEncoder().encode(payload));
    await writer.close();
    const ran = await hook.output();
    assert.equal(new TextDecoder().decode(ran.stderr), "");
    const [row] = await waitForRows(env.CYBEROS_MEMORY_DB, 1);
    assert.equal(row!.payload.cwd, project);

    const status = await runTask(["status", project], task);
    assert.equal(status.code, 0, status.stdout + status.stderr);

    const uninstall = await runTask(["uninstall", project], task);
    assert.equal(uninstall.code, 0, uninstall.stderr);
    const after = await Deno.readTextFile(`${project}/.claude/settings.json`).catch(() => "{}");
    assert.ok(!after.includes("hook.js"), after);
  } finally {
    await daemon.stop();
    await Deno.remove(base, { recursive: true });
  }
});
