/**
 * Starts an entry in a child Deno with flags computed at run time, for the
 * entries whose exact paths a named permission set in `deno.json` cannot
 * spell (they depend on `$HOME`, `$XDG_DATA_HOME` or the command line). The
 * launcher itself may only read the environment and `/proc`, and run `deno`.
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
  const orphaned = watchOrphaning(() => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Exited already.
    }
  });
  const { code } = await child.status;
  clearInterval(orphaned);
  for (const [signal, handler] of forward) Deno.removeSignalListener(signal, handler);
  return code;
}

/** How often the launcher checks that what started it is still there. */
const ORPHAN_CHECK_MS = 500;

/**
 * Calls `onOrphaned` once when this process's parent changes, or, when npm
 * started us (`npm_command` is set), when our parent's parent changes.
 * Outside npm a grandparent may go on purpose (`nohup deno task start &`
 * and a closed terminal), so only the parent counts there.
 */
function watchOrphaning(onOrphaned: () => void): ReturnType<typeof setInterval> {
  const parent = Deno.ppid;
  const underNpm = readEnv("npm_command") !== undefined;
  const grandparent = underNpm ? parentOf(parent) : undefined;
  const timer = setInterval(() => {
    const parentsParent = grandparent === undefined ? undefined : parentOf(parent);
    const gone = Deno.ppid !== parent ||
      (parentsParent !== undefined && parentsParent !== grandparent);
    if (!gone) return;
    clearInterval(timer);
    onOrphaned();
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

/** The parent pid of `pid` from `/proc` (Linux); `undefined` where there is none. */
function parentOf(pid: number): number | undefined {
  let stat: string;
  try {
    stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  // "pid (command) state ppid …": the command may hold spaces and parentheses.
  const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
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
