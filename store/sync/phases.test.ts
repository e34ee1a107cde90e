import { describe, expect, it } from 'vitest';
import { INITIAL_PHASE, stepSync, type SyncInput, type SyncPhase } from './phases.ts';

/** Runs inputs from the initial phase; returns the last phase and every effect, in order. */
function run(...inputs: SyncInput[]): { phase: SyncPhase; effects: string[] } {
  let phase = INITIAL_PHASE;
  const effects: string[] = [];
  for (const input of inputs) {
    const step = stepSync(phase, input, [1_000, 5_000]);
    phase = step.phase;
    for (const effect of step.effects)
      effects.push('delayMs' in effect ? `${effect.type}(${effect.delayMs})` : effect.type);
  }
  return { phase, effects };
}

describe('the sync engine machine', () => {
  it('starts loading, goes live when the snapshot is in, and is synced when nothing was missed', () => {
    const { phase, effects } = run(
      { type: 'start' },
      { type: 'open', atRisk: false },
      { type: 'loaded', atRisk: false },
    );
    expect(phase).toMatchObject({ stage: 'running', active: true, resync: 'idle', run: 1 });
    expect(effects).toEqual(['load', 'go-live', 'synced']);
  });

  it('catches up after the load when changes may have been missed, at once or at the next open', () => {
    expect(
      run({ type: 'start' }, { type: 'open', atRisk: false }, { type: 'loaded', atRisk: true })
        .effects,
    ).toEqual(['load', 'go-live', 'resync']);
    const waiting = run({ type: 'start' }, { type: 'loaded', atRisk: true });
    expect(waiting.effects).toEqual(['load', 'go-live']);
    expect(stepSync(waiting.phase, { type: 'open', atRisk: true }).effects).toEqual([
      { type: 'resync' },
    ]);
  });

  it('retries a failed load with growing delays', () => {
    const { phase, effects } = run(
      { type: 'start' },
      { type: 'load-failed' },
      { type: 'load-failed' },
      { type: 'load-failed' },
    );
    expect(effects).toEqual(['load', 'load-later(1000)', 'load-later(5000)', 'load-later(5000)']);
    expect(phase.failures).toBe(3);
    expect(stepSync(phase, { type: 'loaded', atRisk: false }).phase.failures).toBe(0);
  });

  it('runs one catch-up pass at a time, and one more when wanted meanwhile', () => {
    const live = run(
      { type: 'start' },
      { type: 'open', atRisk: false },
      { type: 'loaded', atRisk: false },
    );
    const dropped = run(
      { type: 'start' },
      { type: 'open', atRisk: false },
      { type: 'loaded', atRisk: false },
      { type: 'close' },
      { type: 'open', atRisk: true },
      { type: 'close' },
      { type: 'open', atRisk: true },
    );
    expect(live.phase.drops).toBe(0);
    expect(dropped.phase).toMatchObject({ resync: 'again', drops: 2 });
    expect(dropped.effects.filter((e) => e === 'resync')).toHaveLength(1);
    const again = stepSync(dropped.phase, { type: 'resync-done', atRisk: false });
    expect(again.effects).toEqual([{ type: 'resync' }]);
    const done = stepSync(again.phase, { type: 'resync-done', atRisk: false });
    expect(done.phase.resync).toBe('idle');
    expect(done.effects).toEqual([{ type: 'synced' }]);
  });

  it('retries a failed pass while the subscription is active, else waits for its open', () => {
    const failed = run(
      { type: 'start' },
      { type: 'open', atRisk: false },
      { type: 'loaded', atRisk: true },
      { type: 'resync-failed' },
    );
    expect(failed.effects.at(-1)).toBe('resync-later(1000)');
    expect(stepSync(failed.phase, { type: 'resync-wanted' }).effects).toEqual([{ type: 'resync' }]);
    const down = stepSync(failed.phase, { type: 'close' }).phase;
    expect(stepSync(down, { type: 'resync-wanted' }).effects).toEqual([]);
  });

  it('ignores what comes after a stop, and starts afresh', () => {
    const stopped = run({ type: 'start' }, { type: 'stop' });
    expect(stopped.phase).toMatchObject({ stage: 'stopped', run: 2 });
    expect(stepSync(stopped.phase, { type: 'loaded', atRisk: false }).phase).toBe(stopped.phase);
    expect(stepSync(stopped.phase, { type: 'open', atRisk: true }).effects).toEqual([]);
    const again = stepSync(stopped.phase, { type: 'start' });
    expect(again.phase).toMatchObject({ stage: 'loading', run: 3 });
    expect(again.effects).toEqual([{ type: 'load' }]);
  });
});
