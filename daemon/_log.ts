/**
 * The daemon's log lines on stderr: `cyberos-memory daemon: LEVEL message`.
 * Debug lines are namespaced (`daemon:store`, `daemon:conn`) and off unless
 * the daemon was started with `--debug`.
 *
 * @module
 */

let debugOn = false;

/** Turns namespaced debug lines on or off. */
export function setDebug(on: boolean): void {
  debugOn = on;
}

/** One log line at `INFO`, `WARN` or `ERROR`, as {@linkcode log} writes it. */
export function logLine(level: "INFO" | "WARN" | "ERROR", message: string): string {
  return `cyberos-memory daemon: ${level} ${message}`;
}

/** Logs one line at `INFO`, `WARN` or `ERROR`. */
export function log(level: "INFO" | "WARN" | "ERROR", message: string): void {
  console.error(logLine(level, message));
}

/** Logs one debug line under a namespace, when debugging is on. */
export function debug(namespace: string, message: string): void {
  if (debugOn) console.error(`cyberos-memory ${namespace}: ${message}`);
}
