/**
 * `uninstall` gives back exactly what was there before `install`: a settings
 * file the user had (`{}`, an empty file, anything) survives with only our
 * entries removed; a file install created is deleted, unless the user has
 * edited or replaced it since. Which files install created is kept in the
 * installer's record in the user's private state, which a hostile repository
 * cannot forge. Run as users run it: `install/start.ts` under the `installer`
 * set, a temporary HOME.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, withInstallTemp } from "./_cli.ts";
import { blake3Hex } from "../lib/hash.ts";

function withTemp(work: (dir: string, env: Record<string, string>) => Promise<void>) {
  return withInstallTemp("cyberos-restore-", work);
}

/** The installer's record file under the temporary HOME. */
function recordFile(dir: string): string {
  return `${dir}/home/.local/state/cyberos-memory/installer/created.json`;
}

/** The settings files the record names. */
function recorded(dir: string): string[] {
  try {
    return Object.keys(JSON.parse(Deno.readTextFileSync(recordFile(dir))).files);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** A record naming `path` as created by install, as the installer would write it. */
function forgedRecord(path: string): string {
  const info = Deno.lstatSync(path);
  const blake3 = blake3Hex(Deno.readTextFileSync(path));
  const entry = { dev: info.dev, ino: info.ino, blake3, before: null, createdDir: true };
  return JSON.stringify({ version: 1, files: { [path]: entry } });
}

async function ok(args: string[], env: Record<string, string>): Promise<string> {
  const run = await cli(args, env);
  assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

const USER_FILES: Array<[string, string]> = [
  ["{} with a newline", "{}\n"],
  ["{} alone", "{}"],
  ["{} with CRLF", "{}\r\n"],
  ["an empty file", ""],
  ["a blank file", "\n  \n"],
  ["a byte-order mark alone", "\uFEFF"],
  ["{ } over two lines", "{\n}\n"],
  ["{ } with a BOM and tabs", "\uFEFF{\r\n\t\r\n}"],
  ["a setting of the user's", '{\n  "model": "opus"\n}\n'],
];

Deno.test("uninstall gives back a settings file the user had, byte for byte, whatever it held", async (t) => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    const file = `${project}/.claude/settings.json`;
    await Deno.mkdir(`${project}/.claude`);
    for (const [name, text] of USER_FILES) {
      await t.step(name, async () => {
        await Deno.writeTextFile(file, text);
        await ok(["install", project], env);
        assert.ok(Deno.readTextFileSync(file).includes("hook.js"));
        const out = await ok(["uninstall", project], env);
        assert.ok(!out.includes("deleted"), out);
        assert.equal(Deno.readTextFileSync(file), text);
        assert.deepEqual(recorded(dir), [], "the record names nothing any more");
      });
    }
    await t.step("{} in ~/.claude/settings.json, with --user", async () => {
      await Deno.mkdir(`${dir}/home/.claude`);
      await Deno.writeTextFile(`${dir}/home/.claude/settings.json`, "{}\n");
      await ok(["install", "--user"], env);
      await ok(["uninstall", "--user"], env);
      assert.equal(Deno.readTextFileSync(`${dir}/home/.claude/settings.json`), "{}\n");
    });
    await t.step("{} in settings.local.json, with --local", async () => {
      await Deno.writeTextFile(`${project}/.claude/settings.local.json`, "{}\n");
      await ok(["install", project, "--local"], env);
      await ok(["uninstall", project, "--local"], env);
      assert.equal(Deno.readTextFileSync(`${project}/.claude/settings.local.json`), "{}\n");
    });
    await t.step("JSONC with a comment: refused by both, left byte for byte", async () => {
      const jsonc = "// mine\n{}\n";
      await Deno.writeTextFile(file, jsonc);
      for (const command of ["install", "uninstall"]) {
        const run = await cli([command, project], env);
        assert.equal(run.code, 1, run.stdout);
        assert.match(run.stderr, new RegExp(`^cyberos-memory ${command}: .*: a comment; `));
        assert.equal(Deno.readTextFileSync(file), jsonc);
      }
    });
  });
});

Deno.test("uninstall deletes the file install created, and .claude only when install created it too", async () => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    const created = await ok(["install", project], env);
    assert.match(created, /^installed: created /);
    assert.deepEqual(recorded(dir), [`${project}/.claude/settings.json`]);
    const out = await ok(["uninstall", project], env);
    assert.match(
      out,
      /\n {2}deleted .*\/project\/\.claude\/settings\.json: nothing else was in it\n/,
    );
    assert.match(out, /\n {2}deleted .*\/project\/\.claude: nothing else was in it\n/);
    assert.deepEqual([...Deno.readDirSync(project)], []);
    assert.deepEqual(recorded(dir), []);

    // The user's own empty .claude stays.
    await Deno.mkdir(`${project}/.claude`);
    await ok(["install", project], env);
    await ok(["install", project, "--tool-detail", "subject"], env);
    const again = await ok(["uninstall", project], env);
    assert.match(again, /deleted .*settings\.json: nothing else was in it\n$/);
    assert.deepEqual([...Deno.readDirSync(`${project}/.claude`)], [], "the folder, empty, stays");
  });
});

Deno.test("a settings file install created but the user edited or replaced since keeps what they wrote", async (t) => {
  await withTemp(async (dir, env) => {
    const project = `${dir}/project`;
    const file = `${project}/.claude/settings.json`;
    await t.step("a setting added beside our entries", async () => {
      await ok(["install", project], env);
      const settings = JSON.parse(Deno.readTextFileSync(file));
      await Deno.writeTextFile(file, JSON.stringify({ model: "opus", ...settings }, null, 2));
      const out = await ok(["uninstall", project], env);
      assert.ok(!out.includes("deleted"), out);
      assert.deepEqual(JSON.parse(Deno.readTextFileSync(file)), { model: "opus" });
      await Deno.remove(`${project}/.claude`, { recursive: true });
    });
    await t.step("replaced by the same bytes (a checkout): a new file, not ours", async () => {
      await ok(["install", project], env);
      const text = Deno.readTextFileSync(file);
      await Deno.writeTextFile(`${file}.new`, text);
      await Deno.rename(`${file}.new`, file);
      const out = await ok(["uninstall", project], env);
      assert.ok(!out.includes("deleted"), out);
      assert.equal(Deno.readTextFileSync(file), "{}\n");
      assert.deepEqual(recorded(dir), []);
      await Deno.remove(`${project}/.claude`, { recursive: true });
    });
    await t.step("deleted, and a {} of the user's written in its place", async () => {
      await ok(["install", project], env);
      await Deno.remove(file);
      await Deno.writeTextFile(file, "{}\n");
      await ok(["install", project], env);
      await ok(["uninstall", project], env);
      assert.equal(Deno.readTextFileSync(file), "{}\n");
      assert.deepEqual(recorded(dir), []);
    });
  });
});

Deno.test("a hostile repository cannot make uninstall delete its settings file", async (t) => {
  await withTemp(async (dir, env) => {
    // The exact bytes install writes, as a repository could ship them.
    const scratch = `${dir}/scratch`;
    await Deno.mkdir(scratch);
    await ok(["install", scratch], env);
    const ours = Deno.readTextFileSync(`${scratch}/.claude/settings.json`);
    await ok(["uninstall", scratch], env);

    const project = `${dir}/project`;
    const file = `${project}/.claude/settings.json`;
    await Deno.mkdir(`${project}/.claude`);
    await Deno.writeTextFile(file, ours);
    await t.step("a look-alike record inside the repository is never read", async () => {
      const planted = [
        `${project}/.claude/installer/created.json`,
        `${project}/.claude/created.json`,
        `${project}/.local/state/cyberos-memory/installer/created.json`,
      ];
      const forged = forgedRecord(file);
      for (const path of planted) {
        await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        await Deno.writeTextFile(path, forged);
      }
      const install = await ok(["install", project], env);
      assert.match(install, /^already installed in /);
      const out = await ok(["uninstall", project], env);
      assert.ok(!out.includes("deleted"), out);
      assert.equal(Deno.readTextFileSync(file), "{}\n");
      for (const path of planted) assert.equal(Deno.readTextFileSync(path), forged);
    });

    const folder = `${dir}/home/.local/state/cyberos-memory/installer`;
    const cases: Array<[string, () => void, RegExp]> = [
      ["a record folder open to others", () => {
        Deno.mkdirSync(folder);
        Deno.chmodSync(folder, 0o777);
        Deno.writeTextFileSync(`${folder}/created.json`, forgedRecord(file));
      }, /installer is open to group or others \(mode 777\); the installer keeps its record/],
      ["a record folder linked into the repository", () => {
        Deno.mkdirSync(`${project}/.claude/installer`, { recursive: true });
        Deno.writeTextFileSync(`${project}/.claude/installer/created.json`, forgedRecord(file));
        Deno.symlinkSync(`${project}/.claude/installer`, folder);
      }, /installer is a symlink; the installer keeps its record/],
      ["a record that is not one the installer wrote", () => {
        Deno.mkdirSync(folder, { mode: 0o700 });
        Deno.writeTextFileSync(`${folder}/created.json`, '{"files": {"/etc/passwd": {}}}');
      }, /created\.json: not a record this installer wrote \(expected .*\); remove it and run/],
    ];
    for (const [name, plant, says] of cases) {
      await t.step(`${name}: refused with one line, nothing changed`, async () => {
        await Deno.remove(folder, { recursive: true }).catch(() => {});
        Deno.mkdirSync(folder.slice(0, folder.lastIndexOf("/")), { recursive: true });
        plant();
        for (const [command, text] of [["install", "{}\n"], ["uninstall", ours]] as const) {
          await Deno.writeTextFile(file, text);
          const run = await cli([command, project], env);
          assert.equal(run.code, 1, run.stdout);
          assert.equal(run.stdout, "");
          assert.equal(run.stderr.trimEnd().split("\n").length, 1, run.stderr);
          assert.match(run.stderr, new RegExp(`^cyberos-memory ${command}: `));
          assert.match(run.stderr, says);
          assert.equal(Deno.readTextFileSync(file), text);
        }
      });
    }
  });
});
