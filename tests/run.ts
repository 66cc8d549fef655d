/**
 * `deno task test`: the one gate. Runs `deno fmt --check`, `deno lint`,
 * `deno check`, then every test in `tests/`, streaming their output, and ends
 * with one line `N passed, N failed` (each gate counts as one test).
 *
 * @module
 */

import { type CommandSpec, parseOrExit } from "../lib/cli.ts";
import { fileUrlToPath } from "../lib/file_url.ts";

const ROOT = fileUrlToPath(new URL("..", import.meta.url));

const TEST_SPEC: CommandSpec = {
  command: "test",
  usage: `usage: deno task test [FILE|FOLDER]...

The one gate: deno fmt --check, deno lint, deno check, then the tests (all of tests/,
or only the files and folders named), ending with one line "N passed, N failed".

Exit codes: 0 everything passed, 1 something failed, 2 bad usage.`,
  options: [],
  maxPositionals: Infinity,
};

const filters = parseOrExit(TEST_SPEC, Deno.args).positionals;

interface Step {
  name: string;
  args: string[];
}

const GATES: Step[] = [
  { name: "deno fmt --check", args: ["fmt", "--check"] },
  { name: "deno lint", args: ["lint"] },
  { name: "deno check", args: ["check", "."] },
];

async function run(
  args: string[],
  options: { capture: boolean },
): Promise<{ code: number; out: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).spawn();
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    const text = decoder.decode(chunk, { stream: true });
    if (options.capture) out += text;
    await Deno.stdout.write(chunk);
  }
  return { code: (await child.status).code, out };
}

let passed = 0;
let failed = 0;
for (const gate of GATES) {
  console.log(`\n== ${gate.name}`);
  const { code } = await run(gate.args, { capture: false });
  if (code === 0) passed++;
  else {
    failed++;
    console.log(`gate failed: ${gate.name}`);
  }
}

console.log("\n== deno test");
const result = await run(
  ["test", "-A", "--no-prompt", ...(filters.length ? filters : ["tests/"])],
  {
    capture: true,
  },
);
const summary = [
  ...result.out.matchAll(/^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/gm),
].at(-1);
if (summary) {
  passed += Number(summary[1]);
  failed += Number(summary[2]);
} else if (result.code !== 0) {
  failed++;
  console.log("deno test did not finish with a summary");
}
if (result.code !== 0 && summary && Number(summary[2]) === 0) failed++;
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
