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

/** Whether any write whose target starts with `prefix` (e.g. `product:`) is running. */
export function selectAnyRunning(state: DeskState, prefix: string): boolean {
  for (const target in state.running) if (target.startsWith(prefix)) return true;
  return false;
}
