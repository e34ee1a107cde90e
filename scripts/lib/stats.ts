/** The median of `values` (the upper of the two middle ones when their count is even). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/**
 * The `p`th percentile of `values` (`p` from 0 to 100) by nearest rank: the smallest value with
 * at least `p`% of the values at or below it. NaN when there are none.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}
