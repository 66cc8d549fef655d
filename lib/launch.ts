/**
 * Starts an entry in a child Deno with flags computed at run time, for the
 * entries whose exact paths a named permission set in `deno.json` cannot
 * spell (they depend on `$HOME`, `$XDG_DATA_HOME` or the command line). The
 * launcher itself may only read the environment and run `deno`.
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
  const { code } = await child.status;
  for (const [signal, handler] of forward) Deno.removeSignalListener(signal, handler);
  return code;
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
