/**
 * `install` and `uninstall` scopes and what they leave: `--local` writes
 * `.claude/settings.local.json` and not the tracked file; uninstall takes
 * away what install created (the file, and `.claude` when that leaves it
 * empty) and restores every other file byte for byte; `--user` with a
 * project is refused. And the security review's H2: a `.claude` or a
 * settings file that is a symlink, or another user's, is refused with one
 * line and nothing read through it or written.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, withInstallTemp } from "./_cli.ts";
import { npxCacheNote } from "../install/_install.ts";

function withTemp(work: (dir: string, env: Record<string, string>) => Promise<void>) {
  return withInstallTemp("cyberos-scope-", work);
}

/** Every entry under `dir`: files with their bytes, folders and links marked. */
function snapshot(dir: string): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      const full = `${path}/${entry.name}`;
      if (entry.isSymlink) entries.set(full, `-> ${Deno.readLinkSync(full)}`);
      else if (entry.isDirectory) {
        entries.set(`${full}/`, "");
        walk(full);
      } else entries.set(full, new TextDecoder().decode(Deno.readFileSync(full)));
    }
  };
  walk(dir);
  return entries;
}

const USER_SETTINGS = '{\r\n\t"model": "opus",\r\n\t"env": { "A": "1" }\r\n}';

Deno.test("install --local writes settings.local.json, never the tracked settings.json", async () => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    await Deno.mkdir(`${project}/.claude`);
    await Deno.writeTextFile(`${project}/.claude/settings.json`, USER_SETTINGS);
    const before = snapshot(project);
    const install = await cli(["install", project, "--local"], env);
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stdout, /^installed: created .*\/\.claude\/settings\.local\.json\n/);
    assert.equal(await Deno.readTextFile(`${project}/.claude/settings.json`), USER_SETTINGS);
    const local = JSON.parse(await Deno.readTextFile(`${project}/.claude/settings.local.json`));
    assert.ok(local.hooks.Stop[0].hooks[0].command.includes("hook.js"));

    const status = await cli(["status", project, "--local"], env);
    assert.equal(status.stdout.split("\n")[0], "installed");
    const tracked = await cli(["status", project], env);
    assert.equal(tracked.stdout.split("\n")[0], "not installed", "the tracked file has none");

    const uninstall = await cli(["uninstall", project, "--local"], env);
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.deepEqual(snapshot(project), before, "settings.local.json gone, the rest byte for byte");
  });
});

Deno.test("uninstall leaves nothing of ours: the file and the .claude folder install created go", async () => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    await Deno.writeTextFile(`${project}/README`, "hello");
    // Besides the user's private state, where the installer's record says what install created.
    const state = `${dir}/home/.local/`;
    const outsideState = () =>
      new Map([...snapshot(dir)].filter(([path]) => !path.startsWith(state)));
    const before = snapshot(dir);
    for (const scope of [[project], [project, "--local"], ["--user"]]) {
      const install = await cli(["install", ...scope], env);
      assert.equal(install.code, 0, install.stderr);
      assert.notDeepEqual(outsideState(), before);
      const uninstall = await cli(["uninstall", ...scope], env);
      assert.equal(uninstall.code, 0, uninstall.stderr);
      assert.match(uninstall.stdout, /\n {2}deleted .*: nothing else was in it\n/);
      assert.deepEqual(outsideState(), before, scope.join(" "));
      const files = [...snapshot(state).keys()].filter((path) => !path.endsWith("/"));
      assert.deepEqual(files, [], "the record names nothing any more: gone");
    }
    // A folder that held something before keeps it, and stays.
    await Deno.mkdir(`${project}/.claude`);
    await Deno.writeTextFile(`${project}/.claude/commands.md`, "mine");
    const kept = outsideState();
    await cli(["install", project], env);
    await cli(["uninstall", project], env);
    assert.deepEqual(outsideState(), kept);
  });
});

Deno.test("--user with a project is refused with exit 2, nothing written", async () => {
  await withTemp(async (dir, env) => {
    const before = snapshot(dir);
    for (const command of ["install", "uninstall", "status"]) {
      const run = await cli([command, `${dir}/project`, "--user"], env);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`^cyberos-memory ${command}: --user takes no project`));
    }
    assert.deepEqual(snapshot(dir), before);
  });
});

Deno.test("install never follows a symlink: a linked .claude or settings file is refused, nothing written", async (t) => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    const credentials = `${dir}/home/.claude/.credentials.json`;
    await Deno.mkdir(`${dir}/home/.claude`);
    const secret = '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-SECRET"}}';
    await Deno.writeTextFile(credentials, secret);
    await Deno.mkdir(`${dir}/elsewhere`);

    const cases: Array<{ name: string; plant: () => void; args: string[]; says: RegExp }> = [
      {
        name: "settings.json → ~/.claude/.credentials.json",
        plant: () => {
          Deno.mkdirSync(`${project}/.claude`);
          Deno.symlinkSync(credentials, `${project}/.claude/settings.json`);
        },
        args: [project],
        says:
          /\/project\/\.claude\/settings\.json is a symlink; refusing to read or write through it/,
      },
      {
        name: "settings.local.json → the credentials, with --local",
        plant: () => {
          Deno.mkdirSync(`${project}/.claude`);
          Deno.symlinkSync(credentials, `${project}/.claude/settings.local.json`);
        },
        args: [project, "--local"],
        says: /settings\.local\.json is a symlink/,
      },
      {
        name: ".claude → another folder",
        plant: () => Deno.symlinkSync(`${dir}/elsewhere`, `${project}/.claude`),
        args: [project],
        says: /\/project\/\.claude is a symlink; install writes only into a real folder/,
      },
      {
        name: "~/.claude/settings.json → the credentials, with --user",
        plant: () => Deno.symlinkSync(credentials, `${dir}/home/.claude/settings.json`),
        args: ["--user"],
        says: /home\/\.claude\/settings\.json is a symlink/,
      },
    ];
    for (const { name, plant, args, says } of cases) {
      await t.step(name, async () => {
        plant();
        const before = snapshot(dir);
        for (const command of ["install", "uninstall"]) {
          const run = await cli([command, ...args], env);
          assert.equal(run.code, 1, run.stdout);
          assert.equal(run.stdout, "");
          assert.equal(run.stderr.trimEnd().split("\n").length, 1, run.stderr);
          assert.match(run.stderr, new RegExp(`^cyberos-memory ${command}: `));
          assert.match(run.stderr, says);
          assert.ok(!run.stderr.includes("SECRET"));
          assert.deepEqual(snapshot(dir), before, "nothing written, the link still a link");
        }
        assert.equal(Deno.readTextFileSync(credentials), secret);
        await Deno.remove(`${project}/.claude`, { recursive: true }).catch(() => {});
        await Deno.remove(`${dir}/home/.claude/settings.json`).catch(() => {});
      });
    }
  });
});

Deno.test("install refuses a .claude or settings file that belongs to another user", {
  ignore: Deno.uid() !== 0,
}, async () => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    await Deno.mkdir(`${project}/.claude`);
    Deno.chownSync(`${project}/.claude`, 4242, 4242);
    const before = snapshot(dir);
    const run = await cli(["install", project], env);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /\.claude belongs to uid 4242, not to you \(uid 0\); refusing to touch it/,
    );
    assert.deepEqual(snapshot(dir), before);

    Deno.chownSync(`${project}/.claude`, 0, 0);
    await Deno.writeTextFile(`${project}/.claude/settings.json`, "{}\n");
    Deno.chownSync(`${project}/.claude/settings.json`, 4242, 4242);
    const file = await cli(["install", project], env);
    assert.equal(file.code, 1);
    assert.match(file.stderr, /settings\.json belongs to uid 4242/);
    assert.equal(await Deno.readTextFile(`${project}/.claude/settings.json`), "{}\n");
  });
});

Deno.test("install --deno pins the binary the hooks run; a deno in npx's cache draws a note", async () => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    const missing = await cli(["install", project, "--deno", `${dir}/nope/deno`], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^cyberos-memory install: --deno .*\/nope\/deno: no such file/);
    assert.deepEqual([...Deno.readDirSync(project)], [], "nothing written");

    const pinned = `${dir}/my tools/deno`;
    await Deno.mkdir(`${dir}/my tools`);
    await Deno.symlink(Deno.execPath(), pinned);
    const run = await cli(["install", project, "--deno", pinned], env);
    assert.equal(run.code, 0, run.stderr);
    const settings = JSON.parse(await Deno.readTextFile(`${project}/.claude/settings.json`));
    assert.ok(settings.hooks.Stop[0].hooks[0].command.includes(` exec '${pinned}' run `));
    assert.ok(!run.stdout.includes("note:"));
  });
  assert.match(
    npxCacheNote("/home/a/.npm/_npx/7a40be787520bede/node_modules/deno/deno") ?? "",
    /inside npx's cache, which npm may clean; .*--deno PATH/,
  );
  assert.equal(npxCacheNote("/usr/local/bin/deno"), undefined);
});
