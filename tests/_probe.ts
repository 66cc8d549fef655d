/**
 * Test helper: runs `tests/_permission_probe.ts` under an entry's exact
 * permission flags and returns its answer.
 *
 * @module
 */

import { ROOT } from "./_daemon.ts";

const PROBE = `${ROOT}/tests/_permission_probe.ts`;

/** What the probe says of `operation` on `target` under `flags`: `granted`, `refused`, or the error. */
export async function probe(flags: string[], operation: string, target: string): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", ...flags, PROBE, operation, target],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout).trim() ||
    new TextDecoder().decode(output.stderr).trim();
}
