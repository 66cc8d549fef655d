/**
 * Summary statistics for timing samples.
 *
 * @module
 */

/** Min, median, p95 and p99 of a sample, in its own unit. */
export interface Summary {
  /** How many samples. */
  n: number;
  /** The smallest. */
  min: number;
  /** The 50th percentile. */
  median: number;
  /** The 95th percentile. */
  p95: number;
  /** The 99th percentile. */
  p99: number;
}

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Summarises a sample. */
export function summarise(values: readonly number[]): Summary {
  return {
    n: values.length,
    min: Math.min(...values),
    median: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
  };
}
