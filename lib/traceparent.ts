/**
 * The W3C Trace Context `traceparent` value Claude Code hands every hook in
 * `TRACEPARENT` when it propagates its own traces
 * (`CLAUDE_CODE_PROPAGATE_TRACEPARENT=1`): the turn's interaction span. The
 * hook passes it on in the frame's telemetry; the daemon parents the hook's
 * span on it. Only version `00` is understood: anything else is ignored, never
 * an error, since the variable is Claude Code's and optional.
 *
 * @module
 */

/** The environment variable Claude Code sets for each hook. */
export const TRACEPARENT_ENV = "TRACEPARENT";

/** The length of a version-00 `traceparent`: `00-` 32 hex `-` 16 hex `-` 2 hex. */
export const TRACEPARENT_LENGTH = 55;

const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A parsed `traceparent`. */
export interface TraceParent {
  /** 32 lowercase hex, never all zeros. */
  traceId: string;
  /** 16 lowercase hex, never all zeros. */
  spanId: string;
  /** The trace flags byte (bit 0: sampled). */
  flags: number;
}

/**
 * Parses a version-00 `traceparent`; `undefined` for anything else (absent,
 * too long, another version, upper-case or invalid hex, all-zero ids).
 */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== "string" || value.length !== TRACEPARENT_LENGTH) return undefined;
  const match = VERSION_00.exec(value);
  if (match === null) return undefined;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, flags: parseInt(flags, 16) };
}

/**
 * The hook's `TRACEPARENT` when it is well formed, else `undefined`. Reading
 * it needs `--allow-env=TRACEPARENT`; a command installed without that grant
 * is refused the read, and the hook goes on as if it were unset.
 */
export function traceparentFromEnv(): string | undefined {
  let value: string | undefined;
  try {
    value = Deno.env.get(TRACEPARENT_ENV);
  } catch {
    return undefined;
  }
  return parseTraceparent(value) === undefined ? undefined : value;
}
