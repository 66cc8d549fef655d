/**
 * Starts an entry in a child Deno with flags computed at run time, for the
 * entries whose exact paths a named permission set in `deno.json` cannot
 * spell (they depend on `$HOME`, `$XDG_DATA_HOME` or the command line). The
 * launcher itself may only read the environment and run `deno` (and, for
 * `start`, `ps`).
 *
 * The child must not outlive whoever started it: SIGINT and SIGTERM are passed
 * on, and the launcher also stops the child when its own parent goes (a
 * `deno task` killed hard), or, under npx, when the shell npx started goes:
 * npx passes a signal to that shell only, which dies without passing it on,
 * leaving `deno task`, the launcher and the daemon running and holding the
 * socket.
 *
 * @module
 */

/** Options for {@linkcode runDeno}. */
export interface RunDenoOptions {
  /** The child's whole environment (nothing else is inherited). */
  env: Record<string, string>;
  /**
   * What the child's stdin is.
   *
   * @default {"inherit"}
   */
  stdin?: "inherit" | "null";
  /**
   * Also stop the child when npx's shell goes (see the module comment); needs
   * `run=ps`, since Deno lets nothing less than `--allow-all` read `/proc`.
   *
   * @default {false}
   */
  followNpx?: boolean;
}

/**
 * Runs `deno <args>` (found on `PATH`, which the launcher's `run=deno` grant
 * names), passes SIGINT and SIGTERM on, and returns the child's exit code.
 */
export async function runDeno(args: string[], options: RunDenoOptions): Promise<number> {
  const child = new Deno.Command("deno", {
    args,
    clearEnv: true,
    env: options.env,
    stdin: options.stdin ?? "inherit",
  }).spawn();
  const forward: Array<[Deno.Signal, () => void]> = (["SIGINT", "SIGTERM"] as const).map((
    signal,
  ) => [signal, () => {
    try {
      child.kill(signal);
    } catch {
      // Exited already.
    }
  }]);
  for (const [signal, handler] of forward) Deno.addSignalListener(signal, handler);
  const orphaned = watchOrphaning({
    followNpx: options.followNpx ?? false,
    onOrphaned: () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // Exited already.
      }
    },
  });
  const { code } = await child.status;
  clearInterval(orphaned);
  for (const [signal, handler] of forward) Deno.removeSignalListener(signal, handler);
  return code;
}

/** How often the launcher checks that its parent is still there (`Deno.ppid`: free). */
const ORPHAN_CHECK_MS = 500;

/** Every how many checks it asks `ps` about npx's shell (one `ps` costs about 8 ms of CPU). */
const PS_EVERY_CHECKS = 4;

/**
 * Calls `onOrphaned` once when this process's parent changes, or, with
 * `followNpx` when npm started us (`npm_command` is set), when our parent's
 * parent changes. Outside npm a grandparent may go on purpose
 * (`nohup deno task start &` and a closed terminal), so only the parent
 * counts there.
 */
function watchOrphaning(
  options: { followNpx: boolean; onOrphaned: () => void },
): ReturnType<typeof setInterval> {
  const parent = Deno.ppid;
  const grandparent = options.followNpx && readEnv("npm_command") !== undefined
    ? parentOf(parent)
    : Promise.resolve(undefined);
  let checking = false;
  let checks = 0;
  const timer = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      const expected = await grandparent;
      const askPs = expected !== undefined && ++checks % PS_EVERY_CHECKS === 0;
      const now = askPs ? await parentOf(parent) : undefined;
      const gone = Deno.ppid !== parent || (now !== undefined && now !== expected);
      if (!gone) return;
      clearInterval(timer);
      options.onOrphaned();
    } finally {
      checking = false;
    }
  }, ORPHAN_CHECK_MS);
  return timer;
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    // Not granted: an entry that does not name it was not started by npm for us.
    return undefined;
  }
}

/** The parent pid of `pid` as `ps` tells it; `undefined` when it cannot say. */
async function parentOf(pid: number): Promise<number | undefined> {
  try {
    const output = await new Deno.Command("ps", {
      args: ["-o", "ppid=", "-p", String(pid)],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const ppid = Number(new TextDecoder().decode(output.stdout).trim());
    return output.success && Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** The named variables' values, leaving out those not set. */
export function pickEnv(names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = Deno.env.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Variables the Deno runtime itself reads (its cache, the user's home): passed
 * to every child, though the child's code may read only what its flags allow.
 */
export const RUNTIME_ENV_VARS = ["DENO_DIR", "HOME", "XDG_CACHE_HOME", "NO_COLOR"] as const;
