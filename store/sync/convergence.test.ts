import { describe, expect, it } from 'vitest';
import { runConvergence } from './testing/convergence.ts';

/** Seeds per run (CI: at least 1,000). `LIVEDESK_PROPERTY_SEEDS` raises or lowers it. */
const SEEDS = Number(process.env.LIVEDESK_PROPERTY_SEEDS ?? 1000);
const CHUNK = 100;

describe('convergence: after the final resync the store equals the server', () => {
  for (let first = 1; first <= SEEDS; first += CHUNK) {
    const last = Math.min(SEEDS, first + CHUNK - 1);
    it(`seeds ${first}–${last}`, { timeout: 120_000 }, async () => {
      let disconnects = 0;
      let writes = 0;
      let opened = 0;
      let listCopies = 0;
      for (let seed = first; seed <= last; seed++) {
        const report = await runConvergence(seed);
        expect(report.problems, `seed ${seed}`).toEqual([]);
        disconnects += report.disconnects;
        writes += report.writes;
        opened += report.opened;
        listCopies += report.listCopies;
      }
      expect(disconnects).toBeGreaterThan(CHUNK / 2);
      expect(writes).toBeGreaterThan(CHUNK * 20);
      // Both kinds of record are held at the end: list copies and whole orders read on opening.
      expect(opened).toBeGreaterThan(CHUNK / 2);
      expect(listCopies).toBeGreaterThan(CHUNK);
    });
  }
});

describe('convergence from a persisted snapshot (a returning visit)', () => {
  const WARM = Math.max(1, Math.floor(SEEDS / 4));
  for (const [name, start] of [
    ['kept an hour ago', { days: 0.04 }],
    ['kept days ago', { days: 3 }],
    ['of an older schema version (discarded)', { days: 0, version: 0 }],
  ] as const)
    it(`${name}: seeds 1–${WARM}`, { timeout: 120_000 }, async () => {
      let writes = 0;
      let deletedAway = 0;
      let agedOut = 0;
      for (let seed = 1; seed <= WARM; seed++) {
        const report = await runConvergence(seed, () => {}, start);
        expect(report.problems, `seed ${seed}`).toEqual([]);
        writes += report.writes;
        deletedAway += report.deletedAway;
        agedOut += report.agedOut;
      }
      expect(writes).toBeGreaterThan(WARM * 20);
      // Orders of the snapshot deleted while away (none of them may come back).
      expect(deletedAway).toBeGreaterThan(WARM / 2);
      // Kept days ago: orders of the snapshot that aged out of the window meanwhile, dropped.
      if (start.days >= 1) expect(agedOut).toBeGreaterThan(WARM / 2);
    });
});
