/**
 * Which store errors belong to one frame and which to the store. A frame the
 * store refuses (a value it cannot bind, a constraint) must not stop the
 * frames around it: it is quarantined and its batch retried without it. Any
 * other error (a full disk, I/O, a corrupt or replaced file) means the store
 * cannot take anything now: the daemon stops, non-zero, and the spool keeps
 * the frames for its restart.
 *
 * @module
 */

/** SQLite's primary result codes that a single row's values cause. */
const ROW_RESULT_CODES = new Set([
  18, // SQLITE_TOOBIG: a string or blob past the length limit
  19, // SQLITE_CONSTRAINT
  20, // SQLITE_MISMATCH: a datatype mismatch
  25, // SQLITE_RANGE: a bind index out of range
]);

/**
 * Whether an error raised while appending one frame is that frame's fault
 * (quarantine it, commit the rest) rather than the store's (stop).
 *
 * A `TypeError` or `RangeError` is the frame's: `node:sqlite` raises them for
 * a value it cannot bind, and hashing for a value JSON cannot hold. A SQLite
 * error is the frame's only for a row-level code; a clash on `seq` is not,
 * since it means another writer moved the chain's tip.
 */
export function isFrameFault(error: unknown): boolean {
  if (error instanceof TypeError || error instanceof RangeError) return true;
  if (!(error instanceof Error)) return false;
  const { code, errcode } = error as Error & { code?: unknown; errcode?: unknown };
  if (code !== "ERR_SQLITE_ERROR" || typeof errcode !== "number") return false;
  return ROW_RESULT_CODES.has(errcode & 0xff) && !error.message.includes("rows.seq");
}
