import { describe, expect, it } from 'vitest';
import { isNewer, reconcileDelete, reconcileUpsert, tombstoneOf } from './reconcile.ts';

const r = (rev: number | undefined, updatedAt: number) => ({ id: 'x', rev, updatedAt });

describe('isNewer (higher rev wins, then later updatedAt; equal keeps local)', () => {
  it.each([
    ['nothing held', r(1, 10), undefined, true],
    ['higher rev', r(3, 10), r(2, 20), true],
    ['lower rev despite later time', r(2, 30), r(3, 20), false],
    ['same rev, later time', r(2, 21), r(2, 20), true],
    ['same rev, earlier time', r(2, 19), r(2, 20), false],
    ['duplicate', r(2, 20), r(2, 20), false],
    ['no rev: later time', r(undefined, 21), r(undefined, 20), true],
    ['no rev: same time', r(undefined, 20), r(undefined, 20), false],
    ['rev on one side only: time decides', r(5, 19), r(undefined, 20), false],
  ] as const)('%s', (_name, incoming, local, expected) => {
    expect(isNewer(incoming, local)).toBe(expected);
  });
});

describe('reconcileUpsert', () => {
  it('applies newer records and ignores stale copies and duplicates', () => {
    expect(reconcileUpsert(r(2, 20), r(1, 10), undefined)).toBe('apply');
    expect(reconcileUpsert(r(1, 10), r(2, 20), undefined)).toBe('ignore');
    expect(reconcileUpsert(r(2, 20), r(2, 20), undefined)).toBe('ignore');
  });

  it('never resurrects a deleted record with a copy no newer than its deletion', () => {
    const grave = tombstoneOf(r(3, 30));
    expect(reconcileUpsert(r(3, 30), undefined, grave)).toBe('ignore');
    expect(reconcileUpsert(r(2, 40), undefined, grave)).toBe('ignore');
    expect(reconcileUpsert(r(4, 40), undefined, grave)).toBe('apply');
  });
});

describe('reconcileDelete', () => {
  it('wins ties and removes older records', () => {
    expect(reconcileDelete(r(3, 30), r(3, 30))).toBe('apply');
    expect(reconcileDelete(r(3, 30), r(2, 20))).toBe('apply');
    expect(reconcileDelete(r(3, 30), undefined)).toBe('apply');
  });

  it('does not remove a record newer than the deleted one', () => {
    expect(reconcileDelete(r(2, 20), r(3, 30))).toBe('ignore');
  });
});
