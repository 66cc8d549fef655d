/**
 * One CLI voice (docs/cli.md), proved on every task as users run it
 * (`deno task -q <task> …` from the repository): `--help` and `-h` print the
 * usage on stdout, exit 0 and do nothing (no file created, the bundle and
 * `bench/latest.md` untouched, no test run); an unknown option exits 2 with
 * one line `cyberos-memory <task>: …`. The hook is the exception: it always
 * exits 0.
 *
 * @module
 */

import assert from "node:assert/strict";
import { withInstallTemp } from "./_cli.ts";
import { ROOT } from "./_daemon.ts";
import { hookCommandWords } from "../lib/hook_command.ts";

const DENO_DIR = Deno.env.get("DENO_DIR") ||
  `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`;

/** Every task in deno.json but `check` (deno's own fmt, lint and check). */
const TASKS = Object.keys(
  JSON.parse(Deno.readTextFileSync(`${ROOT}/deno.json`)).tasks as Record<string, string>,
).filter((name) => name !== "check");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function task(args: string[], env: Record<string, string>): Promise<Run> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

/** Every path under `dir`, for "nothing was created". */
function listing(dir: string): string[] {
  const paths: string[] = [];
  const walk = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      paths.push(`${path}/${entry.name}`);
      if (entry.isDirectory) walk(`${path}/${entry.name}`);
    }
  };
  walk(dir);
  return paths.sort();
}

/** The repository files a task could rewrite: their bytes and modification times. */
function repoState(): string {
  return ["hook/dist/hook.js", "bench/latest.md"].map((path) => {
    const info = Deno.statSync(`${ROOT}/${path}`);
    return `${path} ${info.mtime?.getTime()} ${info.size}`;
  }).join("\n");
}

Deno.test("the tasks under test are every task of deno.json", () => {
  for (const name of ["start", "hook", "install", "status", "tail", "redact", "bundle", "test"]) {
    assert.ok(TASKS.includes(name), name);
  }
});

Deno.test("every task answers --help and -h with its usage, exit 0, and does nothing", async (t) => {
  await withInstallTemp("cyberos-cli-", async (dir, sandbox) => {
    const env = { ...sandbox, INIT_CWD: dir };
    const before = listing(dir);
    const repoBefore = repoState();
    for (const name of TASKS) {
      for (const flag of ["--help", "-h"]) {
        await t.step(`${name} ${flag}`, async () => {
          // A project argument too: install must not touch it.
          const extra = ["install", "uninstall", "status"].includes(name) ? ["project"] : [];
          const run = await task([name, ...extra, flag], env);
          assert.equal(run.code, 0, run.stderr);
          assert.ok(
            run.stdout.startsWith(`usage: deno task ${name} `) ||
              run.stdout.startsWith(`usage: deno task ${name}\n`),
            run.stdout,
          );
          assert.equal(run.stderr, "");
          assert.deepEqual(listing(dir), before, "nothing created");
          assert.equal(repoState(), repoBefore, "bundle and bench/latest.md untouched");
          assert.ok(!run.stdout.includes("== deno"), "test ran nothing");
        });
      }
    }
  });
});

Deno.test("every task refuses an unknown option with exit 2 and one prefixed line; the hook exits 0", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-cli-" });
  try {
    const env = {
      HOME: dir,
      CYBEROS_MEMORY_SOCKET: `${dir}/capture.sock`,
      CYBEROS_MEMORY_TRACE_DIR: `${dir}/traces`,
      CYBEROS_MEMORY_DB: `${dir}/capture.db`,
    };
    const repoBefore = repoState();
    for (const name of TASKS) {
      await t.step(name, async () => {
        const run = await task([name, "--no-such-flag"], env);
        if (name === "hook") {
          assert.equal(run.code, 0, "the hook always exits 0");
          assert.equal(run.stdout, "");
          assert.match(run.stderr, /^cyberos-memory hook: WARN invalid_payload: /);
          return;
        }
        assert.equal(run.code, 2, run.stderr);
        assert.equal(run.stdout, "");
        assert.equal(run.stderr.trimEnd().split("\n").length, 1, run.stderr);
        assert.match(
          run.stderr,
          new RegExp(`^cyberos-memory ${name}: [a-z ]+ "--no-such-flag"`),
        );
      });
    }
    assert.deepEqual(listing(dir), [], "nothing created");
    assert.equal(repoState(), repoBefore);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the hook exits 0 with one WARN line, and writes nothing, when its stdin cannot be read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-cli-" });
  try {
    const traceDir = `${dir}/traces`;
    const command = hookCommandWords("stop", {
      denoPath: Deno.execPath(),
      socket: `${traceDir}/capture.sock`,
      traceDir,
    });
    // A folder as stdin: the first read fails (EISDIR) as the bundle starts.
    const run = await new Deno.Command("sh", {
      args: ["-c", 'exec "$@" < "$0"', dir, ...command],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, stderr);
    assert.equal(run.stdout.length, 0);
    assert.match(stderr, /^cyberos-memory hook: WARN invalid_payload: unexpected: .*directory/i);
    assert.equal(stderr.trimEnd().split("\n").length, 1, stderr);
    assert.deepEqual(listing(dir), [], "nothing created");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bad usage is exit 2 with the command's prefix, before anything is resolved", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-cli-" });
  try {
    await Deno.mkdir(`${dir}/project`);
    const env = { HOME: dir, CYBEROS_MEMORY_DB: `${dir}/capture.db`, INIT_CWD: dir };
    const cases: Array<[string[], RegExp]> = [
      [["install", "project", "--user"], /^cyberos-memory install: --user takes no project/],
      [["uninstall", "--user", "project"], /^cyberos-memory uninstall: --user takes no project/],
      [["status", "project", "--user"], /^cyberos-memory status: --user takes no project/],
      [["install", "--user", "--local"], /^cyberos-memory install: --user and --local/],
      [["install"], /^cyberos-memory install: no project given/],
      [["install", "project", "--allow-email-domains", "a.com"], /unknown option/],
      [["install", "project", "--allow-email-domain"], /--allow-email-domain needs a value/],
      [["install", "project", "--deno", "deno"], /--deno needs an absolute path/],
      [["install", "a", "b"], /^cyberos-memory install: unexpected argument "b"/],
      [["tail", "-n", "0"], /^cyberos-memory tail: -n needs a positive count/],
      [["tail", "--kind", "nope"], /^cyberos-memory tail: --kind needs one of prompt, tool/],
      [["tail", "--since", "yesterday"], /^cyberos-memory tail: --since needs a time/],
      [["verify", "extra"], /^cyberos-memory verify: unexpected argument "extra"/],
      [["start", "--socket", "relative.sock"], /^cyberos-memory start: --socket needs an absolute/],
      [["bench", "--runs", "x"], /^cyberos-memory bench: --runs needs a positive count/],
      [["redact", "--jsonl=yes"], /^cyberos-memory redact: --jsonl takes no value/],
    ];
    for (const [args, message] of cases) {
      await t.step(args.join(" "), async () => {
        const run = await task(args, env);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.equal(run.stderr.trimEnd().split("\n").length, 1, run.stderr);
      });
    }
    assert.deepEqual(listing(dir), [`${dir}/project`], "nothing created");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
