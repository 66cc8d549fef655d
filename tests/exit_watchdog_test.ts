/**
 * `armExitWatchdog()`: a process whose main thread blocks is ended by the
 * watchdog's worker, with its line on stderr; one that ends in time is not.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileUrlToPath } from "../lib/file_url.ts";

const WATCHDOG = fileUrlToPath(new URL("../daemon/_exit_watchdog.ts", import.meta.url));

async function runWithWatchdog(blockMs: number): Promise<Deno.CommandOutput> {
  const program = `import { armExitWatchdog } from ${JSON.stringify(WATCHDOG)};
armExitWatchdog({ budgetMs: 300, line: "watchdog: budget spent" });
const until = Date.now() + ${blockMs};
while (Date.now() < until) { /* a main thread that cannot run timers */ }
Deno.exit(0);`;
  return await new Deno.Command(Deno.execPath(), {
    args: ["eval", "-q", program],
    stdout: "null",
    stderr: "piped",
  }).output();
}

Deno.test("armExitWatchdog(): a blocked main thread is killed after the budget, its line written", async () => {
  const started = performance.now();
  const out = await runWithWatchdog(20_000);
  assert.ok(performance.now() - started < 10_000);
  assert.equal(out.signal, "SIGKILL");
  assert.match(new TextDecoder().decode(out.stderr), /^watchdog: budget spent$/m);
});

Deno.test("armExitWatchdog(): a process that exits within the budget exits with its own code", async () => {
  const out = await runWithWatchdog(0);
  assert.equal(out.code, 0);
  assert.equal(new TextDecoder().decode(out.stderr), "");
});
