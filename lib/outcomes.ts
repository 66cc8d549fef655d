/**
 * The outcome words a hook run ends with. They are the stderr WARN word and the
 * `outcome` metric label, so they live here once.
 *
 * @module
 */

/** Every outcome a hook run can end with; each one exits 0. */
export const OUTCOMES = [
  "ok",
  "socket_unavailable",
  "emit_timeout",
  "invalid_payload",
  "redaction_failed",
] as const;

/** One outcome word. */
export type Outcome = typeof OUTCOMES[number];

/**
 * Warning words that do not end a run but say the hook fell back to a safer path
 * (an untrusted trace dir or socket).
 */
export const WARNINGS = ["trace_dir_untrusted", "socket_untrusted", "unknown_fields"] as const;

/** One warning word. */
export type Warning = typeof WARNINGS[number];

/** Whether `value` is one of {@linkcode OUTCOMES}. */
export function isOutcome(value: unknown): value is Outcome {
  return typeof value === "string" && (OUTCOMES as readonly string[]).includes(value);
}
