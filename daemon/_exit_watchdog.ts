/**
 * A watchdog for the daemon's last step: `Deno.exit()` flushes Deno's
 * OpenTelemetry exporter first, and that flush can block the main thread
 * without limit (seen twice in our CI: the collector answered the shutdown
 * probe, then the process never ended). A timer on the main thread cannot
 * fire while it is blocked, so the watchdog runs in a worker, whose thread
 * ends the process with SIGKILL when the budget is spent.
 *
 * @module
 */

// The worker's whole program, as a blob: the daemon may read no module file
// beyond its own (its --allow-read names only the store and the trace dir).
const WATCHDOG_SOURCE = `
self.onmessage = (event) => {
  const { ms, line } = event.data;
  setTimeout(() => {
    console.error(line);
    Deno.kill(Deno.pid, "SIGKILL");
  }, ms);
};
`;

/** Options for {@linkcode armExitWatchdog}. */
export interface ExitWatchdogOptions {
  /** How long the exit may take, from now. */
  budgetMs: number;
  /** The log line written before the kill. */
  line: string;
}

/**
 * Starts the watchdog: unless the process has ended `budgetMs` from now, its
 * worker writes `line` on stderr and kills the process with SIGKILL.
 */
export function armExitWatchdog(options: ExitWatchdogOptions): void {
  const url = URL.createObjectURL(new Blob([WATCHDOG_SOURCE], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  worker.postMessage({ ms: options.budgetMs, line: options.line });
}
