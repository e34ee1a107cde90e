import { describe, expect, it } from 'vitest';
import { ORPHAN_AFTER_MS } from '../../../domain/files.ts';
import { describeSweep, orphansOf } from './orphans.ts';

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

describe('orphansOf', () => {
  const files = [
    { $id: 'attached', $updatedAt: at(3 * ORPHAN_AFTER_MS) },
    { $id: 'abandoned', $updatedAt: at(ORPHAN_AFTER_MS + 1) },
    { $id: 'young', $updatedAt: at(ORPHAN_AFTER_MS - 1) },
    { $id: 'exactly-an-hour', $updatedAt: at(ORPHAN_AFTER_MS) },
  ];

  it('takes the files no record names that nothing touched for an hour', () => {
    expect(orphansOf(files, new Set(['attached']), NOW)).toEqual(['abandoned']);
  });

  it('keeps every named file, however old', () => {
    expect(orphansOf(files, new Set(['attached', 'abandoned']), NOW)).toEqual([]);
  });

  it('takes nothing from an empty page', () => {
    expect(orphansOf([], new Set(), NOW)).toEqual([]);
  });
});

describe("sweep-uploads' log line", () => {
  it('says what was checked and deleted, and whether the run got to the end', () => {
    expect(describeSweep({ checked: 240, deleted: 3, complete: true })).toBe(
      'sweep-uploads: 240 files checked, 3 orphans deleted; every file checked',
    );
    expect(describeSweep({ checked: 100, deleted: 0, complete: false })).toBe(
      'sweep-uploads: 100 files checked, 0 orphans deleted; stopped early, the next run goes on',
    );
  });
});
