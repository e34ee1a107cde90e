import { describe, expect, it } from 'vitest';
import { isNewer, reconcileDelete, reconcileUpsert, tombstoneOf } from './reconcile.ts';

const r = (rev: number | undefined, updatedAt: number) => ({ id: 'x', rev, updatedAt });
const part = (rev: number | undefined, updatedAt: number) => ({
  ...r(rev, updatedAt),
  partial: true,
});

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
    ['whole copy of the version held partial', r(2, 20), part(2, 20), true],
    ['partial copy of the version held whole', part(2, 20), r(2, 20), false],
    ['partial duplicate', part(2, 20), part(2, 20), false],
    ['partial copy of a newer version', part(3, 30), r(2, 20), true],
    ['whole copy of an older version', r(1, 10), part(2, 20), false],
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

  it('never resurrects a deleted record with a partial copy of its version', () => {
    const grave = tombstoneOf(part(3, 30));
    expect(grave).toEqual({ id: 'x', rev: 3, updatedAt: 30 });
    expect(reconcileUpsert(r(3, 30), undefined, grave)).toBe('ignore');
    expect(reconcileUpsert(part(3, 30), undefined, grave)).toBe('ignore');
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

  it('removes a partial copy of the deleted version', () => {
    expect(reconcileDelete(r(3, 30), part(3, 30))).toBe('apply');
  });
});
