/**
 * `deno task mutants`: plants each mutant of `mutants.ts` in a temporary copy
 * of the repository, runs the tests named to kill it, and reports per module
 * how many were killed. The working tree is never touched.
 *
 * A mutant whose search text is not found exactly once is an error (the code
 * moved: fix the mutant). Before any mutant, each distinct test command runs
 * once on the unmutated copy: a command that fails there would "kill"
 * everything, so its mutants are reported as not run. Mutants of modules the
 * hook imports are bundled (`hook/build.ts`) before their tests run, since
 * the tests run the bundle as Claude Code does.
 *
 * Usage: `tests/mutants/run.ts [--quick] [--only ID,...] [--without-tests FILE,...] [--timeout S] [--verbose]`
 *
 * - `--quick`: only the mutants marked `quick` (the CI subset).
 * - `--without-tests`: leave these test files out of every mutant's list (to
 *   score the suite as it was before them); a mutant left with no test survives.
 * - `--verbose`: show the tests' output.
 *
 * Exit 0 when every mutant run was killed, 1 when any survived or could not
 * run, 2 for bad usage.
 *
 * @module
 */

import { fileUrlToPath } from "../../lib/file_url.ts";
import { MODULE_TESTS, type Mutant, MUTANTS } from "./mutants.ts";

const ROOT = fileUrlToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const USAGE =
  "usage: deno task mutants [--quick] [--only ID,...] [--without-tests FILE,...] [--timeout S] [--verbose]";

interface RunOptions {
  quick: boolean;
  verbose: boolean;
  only: string[];
  withoutTests: string[];
  timeoutS: number;
}

/** The options, `"help"`, or what is wrong with the arguments. */
function parseArgs(argv: string[]): RunOptions | string {
  const options: RunOptions = {
    quick: false,
    verbose: false,
    only: [],
    withoutTests: [],
    timeoutS: 300,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    else if (arg === "--quick") options.quick = true;
    else if (arg === "--verbose") options.verbose = true;
    else if (arg === "--only") options.only = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (arg === "--without-tests") {
      options.withoutTests = (argv[++i] ?? "").split(",").filter(Boolean);
    } else if (arg === "--timeout") options.timeoutS = Number(argv[++i]);
    else return `unknown argument "${arg}"`;
  }
  if (!(options.timeoutS > 0)) return "--timeout must be a positive number of seconds";
  return options;
}

async function output(args: string[], cwd: string): Promise<string> {
  const result = await new Deno.Command(Deno.execPath(), { args, cwd, stderr: "inherit" })
    .output();
  if (!result.success) throw new Error(`deno ${args.join(" ")} failed`);
  return new TextDecoder().decode(result.stdout);
}

/** The repository's files (tracked, and new ones not ignored), copied into a fresh folder. */
async function copyRepository(): Promise<string> {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-co", "--exclude-standard", "-z"],
    cwd: ROOT,
  }).output();
  if (!listed.success) throw new Error("git ls-files failed");
  const copy = await Deno.makeTempDir({ prefix: "cyberos-mutants-" });
  for (const path of new TextDecoder().decode(listed.stdout).split("\0")) {
    if (path === "") continue;
    const target = `${copy}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    try {
      await Deno.copyFile(`${ROOT}/${path}`, target);
    } catch (error) {
      // Deleted in the working tree, not yet committed.
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return copy;
}

/** The repository files the hook's bundle is built from. */
async function hookModules(copy: string): Promise<Set<string>> {
  const info = JSON.parse(await output(["info", "--json", "hook/main.ts"], copy)) as {
    modules: Array<{ specifier: string }>;
  };
  const prefix = `file://${copy}/`;
  return new Set(
    info.modules.map((m) => m.specifier).filter((s) => s.startsWith(prefix)).map((s) =>
      decodeURIComponent(s.slice(prefix.length))
    ),
  );
}

interface TestCommand {
  key: string;
  args: string[];
  /** A module's older files rather than the mutant's own. */
  older: boolean;
}

function denoTest(tests: string[], options: { filter?: string; older: boolean }): TestCommand {
  const args = [
    "test",
    "-A",
    "--no-prompt",
    "--no-check",
    "--fail-fast",
    ...(options.filter ? ["--filter", options.filter] : []),
    ...tests,
  ];
  return { key: args.join(" "), args, older: options.older };
}

/**
 * The test runs for a mutant: its own files (with its filter), then, in a
 * full run, its module's older files that are not among them.
 */
function testCommands(
  mutant: Mutant,
  options: { withoutTests: string[]; quick: boolean },
): TestCommand[] {
  const kept = (files: string[]) => files.filter((file) => !options.withoutTests.includes(file));
  const own = kept(mutant.tests);
  const older = options.quick
    ? []
    : kept((MODULE_TESTS[mutant.module] ?? []).filter((file) => !mutant.tests.includes(file)));
  return [
    ...(own.length > 0
      ? [denoTest(own, { older: false, ...(mutant.filter ? { filter: mutant.filter } : {}) })]
      : []),
    ...(older.length > 0 ? [denoTest(older, { older: true })] : []),
  ];
}

/** Runs one test command in the copy: whether it passed, and whether it ran out of time. */
async function runTests(
  command: TestCommand,
  copy: string,
  options: { timeoutS: number; verbose: boolean },
): Promise<{ passed: boolean; timedOut: boolean; ms: number; output: string }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: command.args,
    cwd: copy,
    stdin: "null",
    stdout: options.verbose ? "inherit" : "piped",
    stderr: options.verbose ? "inherit" : "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // Exited meanwhile.
    }
  }, options.timeoutS * 1000);
  const { success, stdout, stderr } = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return {
    passed: success && !timedOut,
    timedOut,
    ms: performance.now() - started,
    output: options.verbose ? "" : decoder.decode(stdout) + decoder.decode(stderr),
  };
}

async function bundle(copy: string): Promise<void> {
  await output(
    ["run", "-q", "--allow-read", "--allow-write=hook/dist", "--allow-run", "hook/build.ts"],
    copy,
  );
}

/** What happened to one mutant. */
type Verdict = "killed" | "timeout" | "survived" | "no test" | "not run";

async function main(): Promise<number> {
  const options = parseArgs(Deno.args);
  if (options === "help") {
    console.log(USAGE);
    return 0;
  }
  if (typeof options === "string") {
    console.error(`cyberos-memory mutants: ${options}; see deno task mutants --help`);
    return 2;
  }
  const unknown = options.only.filter((id) => !MUTANTS.some((m) => m.id === id));
  if (unknown.length > 0) {
    console.error(`cyberos-memory mutants: unknown mutant ${unknown.join(", ")}`);
    return 2;
  }
  const selected = MUTANTS.filter((m) =>
    (!options.quick || m.quick) && (options.only.length === 0 || options.only.includes(m.id))
  );
  const started = performance.now();
  const copy = await copyRepository();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      Deno.removeSync(copy, { recursive: true });
      Deno.exit(130);
    });
  }
  try {
    for (const mutant of selected) {
      const text = await Deno.readTextFile(`${copy}/${mutant.file}`);
      const found = text.split(mutant.search).length - 1;
      if (found !== 1) {
        console.error(
          `cyberos-memory mutants: ${mutant.id}: the search text occurs ${found} times in ${mutant.file}; fix the mutant`,
        );
        return 1;
      }
    }
    const hookFiles = await hookModules(copy);
    const bundlePath = `${copy}/hook/dist/hook.js`;
    const originalBundle = await Deno.readFile(bundlePath);

    const baseline = new Map<string, boolean>();
    for (const mutant of selected) {
      for (const command of testCommands(mutant, options)) {
        if (baseline.has(command.key)) continue;
        // Once more before giving up: a test with a deadline can fail on a busy machine.
        let result = await runTests(command, copy, options);
        if (!result.passed) {
          // A pause first: what the tests before left running may still hold the machine.
          await new Promise((resolve) => setTimeout(resolve, 2000));
          result = await runTests(command, copy, options);
        }
        baseline.set(command.key, result.passed);
        if (!result.passed) {
          // What failed, so that a baseline that fails only on CI can be told apart from a
          // slow machine's timeout.
          const tail = result.output.trimEnd().split("\n").slice(-20).join("\n");
          console.log(`baseline FAILS (left out): ${command.key}`);
          console.log(result.timedOut ? `  timed out after ${options.timeoutS} s` : tail);
        }
      }
    }

    const verdicts: Array<{ mutant: Mutant; verdict: Verdict; ms: number }> = [];
    for (const mutant of selected) {
      const all = testCommands(mutant, options);
      const commands = all.filter((command) => baseline.get(command.key));
      let verdict: Verdict;
      let ms = 0;
      if (all.length === 0) verdict = "no test";
      else if (commands.length === 0) verdict = "not run";
      else {
        const path = `${copy}/${mutant.file}`;
        const original = await Deno.readTextFile(path);
        await Deno.writeTextFile(path, original.replace(mutant.search, () => mutant.replace));
        const inHook = hookFiles.has(mutant.file);
        try {
          if (inHook) await bundle(copy);
          verdict = "survived";
          for (const command of commands) {
            let result = await runTests(command, copy, options);
            // The older files hold tests with deadlines, which a busy machine can miss: a
            // failure there counts when it comes twice.
            if (!result.passed && !result.timedOut && command.older) {
              result = await runTests(command, copy, options);
            }
            ms += result.ms;
            if (result.timedOut) verdict = "timeout";
            else if (!result.passed) verdict = "killed";
            if (verdict !== "survived") break;
          }
        } finally {
          await Deno.writeTextFile(path, original);
          if (inHook) await Deno.writeFile(bundlePath, originalBundle);
        }
      }
      verdicts.push({ mutant, verdict, ms });
      console.log(
        `${verdict.padEnd(8)} ${mutant.id.padEnd(28)} ${
          (ms / 1000).toFixed(1).padStart(6)
        } s  ${mutant.module}: ${mutant.description}`,
      );
    }

    console.log("\n| module | killed | mutants | score |");
    console.log("| --- | --- | --- | --- |");
    const modules = [...new Set(verdicts.map((v) => v.mutant.module))];
    let killedTotal = 0;
    for (const module of modules) {
      const of = verdicts.filter((v) => v.mutant.module === module);
      const killed = of.filter((v) => v.verdict === "killed" || v.verdict === "timeout").length;
      killedTotal += killed;
      console.log(
        `| ${module} | ${killed} | ${of.length} | ${(100 * killed / of.length).toFixed(0)}% |`,
      );
    }
    console.log(
      `| all | ${killedTotal} | ${verdicts.length} | ${
        (100 * killedTotal / Math.max(1, verdicts.length)).toFixed(0)
      }% |`,
    );
    const alive = verdicts.filter((v) => v.verdict !== "killed" && v.verdict !== "timeout");
    for (const { mutant, verdict } of alive) {
      const why = mutant.harmless ? `; judged harmless: ${mutant.harmless}` : "";
      console.log(`${verdict}: ${mutant.id} (${mutant.file}): ${mutant.description}${why}`);
    }
    console.log(
      `\n${killedTotal} killed, ${alive.length} alive of ${verdicts.length} mutants in ${
        ((performance.now() - started) / 1000).toFixed(0)
      } s`,
    );
    // A survivor judged harmless is counted in the score but does not fail the run.
    return alive.every((v) => v.verdict === "survived" && v.mutant.harmless) ? 0 : 1;
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
}

Deno.exit(await main());
