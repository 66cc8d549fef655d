/**
 * `deno task hook [--allow-email-domain D]... EVENT`: runs the hook from
 * source on stdin, by hand, with the paths the environment gives (the private
 * runtime dir unless `CYBEROS_MEMORY_SOCKET` or `CYBEROS_MEMORY_TRACE_DIR`
 * say otherwise) and exactly the flags and allocator settings `install`
 * writes for them: a named permission set in `deno.json` cannot spell a path
 * under `$HOME`. The launcher itself may only read the path variables and
 * run `deno`.
 *
 * @module
 */

import { HOOK_ENV, HOOK_V8_FLAGS } from "../lib/hook_command.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import { type CapturePaths, resolvePaths } from "../lib/paths.ts";
import { hookPermissionFlags } from "../lib/permissions.ts";
import { pickEnv, runDeno, RUNTIME_ENV_VARS } from "../lib/launch.ts";

const HOOK_SOURCE = fileUrlToPath(new URL("./main.ts", import.meta.url));

/** The `deno` arguments that run the hook from source on `paths`, then `extra`. */
export function hookRunArgs(
  paths: Pick<CapturePaths, "socket" | "traceDir">,
  extra: readonly string[],
): string[] {
  return [
    "run",
    "-q",
    ...HOOK_V8_FLAGS,
    ...hookPermissionFlags(paths),
    HOOK_SOURCE,
    "--socket",
    paths.socket,
    "--trace-dir",
    paths.traceDir,
    ...extra,
  ];
}

async function main(): Promise<number> {
  let paths;
  try {
    paths = resolvePaths((name) => Deno.env.get(name));
  } catch (error) {
    console.error(`cyberos-memory hook: ${(error as Error).message}`);
    return 1;
  }
  return await runDeno(hookRunArgs(paths, Deno.args), {
    env: { ...pickEnv(RUNTIME_ENV_VARS), ...HOOK_ENV },
  });
}

if (import.meta.main) Deno.exit(await main());
