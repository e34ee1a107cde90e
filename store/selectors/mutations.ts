import type { MutationFailure, MutationTarget } from '../mutations/mutations.ts';
import type { DeskState } from '../state.ts';

/** What a write on `target` is doing right now (e.g. `save`), or null. */
export function selectRunning(state: DeskState, target: MutationTarget): string | null {
  return state.running[target] ?? null;
}

/** The last failed write on `target`, or null. */
export function selectFailure(state: DeskState, target: MutationTarget): MutationFailure | null {
  return state.failures[target] ?? null;
}

const latestCache = new WeakMap<DeskState['failures'], Map<string, MutationFailure | null>>();

/**
 * The most recent failure among the targets starting with `prefix` (e.g. `product:`), except
 * `except`; the same object until the failures change.
 */
export function selectLatestFailure(
  state: DeskState,
  prefix: string,
  except?: MutationTarget,
): MutationFailure | null {
  let cache = latestCache.get(state.failures);
  if (!cache) {
    cache = new Map();
    latestCache.set(state.failures, cache);
  }
  const key = `${prefix}\u0000${except ?? ''}`;
  let latest = cache.get(key);
  if (latest === undefined) {
    latest = null;
    for (const [target, failure] of Object.entries(state.failures))
      if (
        failure &&
        target.startsWith(prefix) &&
        target !== except &&
        (!latest || failure.at >= latest.at)
      )
        latest = failure;
    cache.set(key, latest);
  }
  return latest;
}
