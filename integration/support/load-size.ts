import { targetKind } from '../targets/select.ts';
import type { TargetKind } from '../targets/types.ts';

/**
 * The share of a load test's full size that runs on a target. The heavy suites (hundreds of
 * seeded trials, floods, fuzzing, kill rounds) prove the product's logic at full size on `local`;
 * the other targets run the same tests through another packaging or server, where a fifth of the
 * load shows the same behaviour in a fifth of the time.
 */
export const LOAD_SHARE: Record<TargetKind, number> = {
  local: 1,
  container: 0.2,
  appwrite: 0.2,
  remote: 0.2,
};

/**
 * A load test's size on the current target: `full` on `local`, its {@link LOAD_SHARE} elsewhere,
 * never below `minimum`, rounded to a multiple of `step`.
 */
export function loadSize(
  full: number,
  { minimum = 1, step = 1 }: { minimum?: number; step?: number } = {},
  kind: TargetKind = targetKind(),
): number {
  const scaled = Math.round((full * LOAD_SHARE[kind]) / step) * step;
  return Math.max(minimum, Math.min(full, scaled));
}
