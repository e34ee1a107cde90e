/**
 * The sync engine's phases as a state machine (a reducer, like `connection.ts`): what the engine
 * does next is decided here, from what happened; `engine.ts` does the reading and subscribing.
 *
 * ```
 * stopped ─start→ loading (subscribed; events buffered; the snapshot is read, retried on failure)
 *         ─loaded→ running (events applied per frame; a catch-up pass after every gap)
 * any ─stop→ stopped
 * ```
 */

/** Where the engine is. */
export interface SyncPhase {
  stage: 'stopped' | 'loading' | 'running';
  /** Bumped by every start and stop: async work of an older run stops at its next step. */
  run: number;
  /** Whether the realtime subscription is active now. */
  active: boolean;
  /** Times the subscription dropped (a read that spans a drop may have missed changes). */
  drops: number;
  /** The catch-up pass (delta reads after a gap): idle, running, or running with another wanted. */
  resync: 'idle' | 'running' | 'again';
  /** Reads that failed in a row (picks the retry delay). */
  failures: number;
}

/** What happened. `atRisk`: some changes may have been missed (see `coverage.ts`). */
export type SyncInput =
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'open'; atRisk: boolean }
  | { type: 'close' }
  | { type: 'loaded'; atRisk: boolean }
  | { type: 'load-failed' }
  /** A retry timer of a failed catch-up pass fired. */
  | { type: 'resync-wanted' }
  | { type: 'resync-done'; atRisk: boolean }
  | { type: 'resync-failed' };

/** What the engine must do now. */
export type SyncEffect =
  /** Read the snapshot. */
  | { type: 'load' }
  /** Read the snapshot again after `delayMs` (it failed). */
  | { type: 'load-later'; delayMs: number }
  /** Buffered events are applied from now on, as they come. */
  | { type: 'go-live' }
  /** Run a catch-up pass now. */
  | { type: 'resync' }
  /** Want another catch-up pass after `delayMs` (one failed). */
  | { type: 'resync-later'; delayMs: number }
  /** Nothing is missing: the connection is live. */
  | { type: 'synced' };

/** Delay before retrying a failed read, by failures in a row (the last value repeats). */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 5_000, 10_000];

/** The phase before the first start. */
export const INITIAL_PHASE: SyncPhase = {
  stage: 'stopped',
  run: 0,
  active: false,
  drops: 0,
  resync: 'idle',
  failures: 0,
};

/** The delay before the next try after `failures` failed reads in a row. */
export function retryDelay(failures: number, delays: readonly number[]): number {
  return delays[Math.min(failures, delays.length - 1)] ?? 1_000;
}

/** A catch-up pass is wanted: run one, or one more after the one running. */
function wantResync(phase: SyncPhase, effects: SyncEffect[]): SyncPhase {
  if (phase.resync !== 'idle') return { ...phase, resync: 'again' };
  effects.push({ type: 'resync' });
  return { ...phase, resync: 'running' };
}

/**
 * One step of the machine: the next phase and what to do. Pure. Inputs that do not apply to the
 * current stage (a late answer of a stopped run) change nothing.
 */
export function stepSync(
  phase: SyncPhase,
  input: SyncInput,
  delays: readonly number[] = RETRY_DELAYS_MS,
): { phase: SyncPhase; effects: SyncEffect[] } {
  const effects: SyncEffect[] = [];
  if (input.type === 'start') {
    if (phase.stage !== 'stopped') return { phase, effects };
    const next: SyncPhase = {
      ...phase,
      stage: 'loading',
      run: phase.run + 1,
      active: false,
      resync: 'idle',
      failures: 0,
    };
    return { phase: next, effects: [{ type: 'load' }] };
  }
  if (phase.stage === 'stopped') return { phase, effects };
  let next = phase;
  switch (input.type) {
    case 'stop':
      next = { ...phase, stage: 'stopped', run: phase.run + 1, active: false, resync: 'idle' };
      break;
    case 'open':
      next = { ...phase, active: true };
      if (phase.stage === 'running' && input.atRisk) next = wantResync(next, effects);
      break;
    case 'close':
      next = { ...phase, active: false, drops: phase.drops + 1 };
      break;
    case 'loaded':
      if (phase.stage !== 'loading') break;
      next = { ...phase, stage: 'running', failures: 0 };
      effects.push({ type: 'go-live' });
      // Missed while loading: caught up now if the subscription is active, else at its `open`.
      if (!input.atRisk) effects.push({ type: 'synced' });
      else if (next.active) next = wantResync(next, effects);
      break;
    case 'load-failed':
      if (phase.stage !== 'loading') break;
      next = { ...phase, failures: phase.failures + 1 };
      effects.push({ type: 'load-later', delayMs: retryDelay(phase.failures, delays) });
      break;
    case 'resync-wanted':
      // With the subscription down, its `open` starts the pass.
      if (phase.stage === 'running' && phase.active) next = wantResync(phase, effects);
      break;
    case 'resync-done':
      if (phase.resync === 'idle') break;
      next = { ...phase, failures: 0 };
      if (phase.active && (phase.resync === 'again' || input.atRisk)) {
        next = { ...next, resync: 'running' };
        effects.push({ type: 'resync' });
      } else {
        next = { ...next, resync: 'idle' };
        if (phase.active) effects.push({ type: 'synced' });
      }
      break;
    case 'resync-failed':
      if (phase.resync === 'idle') break;
      next = { ...phase, resync: 'idle', failures: phase.failures + 1 };
      effects.push({ type: 'resync-later', delayMs: retryDelay(phase.failures, delays) });
      break;
  }
  return { phase: next, effects };
}
