import { describe, expect, it } from 'vitest';
import { Prng } from '../sync/testing/prng.ts';
import { compareEntries, SortedIndex, type Direction, type IndexEntry } from './sorted-index.ts';

function sorted(entries: Iterable<IndexEntry>, direction: Direction): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...entries].sort((a, b) => compareEntries(a, b, sign)).map((e) => e.id);
}

describe('compareEntries', () => {
  it('orders by key in the direction, nulls last, then tie and id in the same direction', () => {
    const e = (id: string, key: number | null, tie = 0): IndexEntry => ({ id, key, tie });
    expect(sorted([e('a', 3), e('b', 1), e('c', null), e('d', 2)], 'asc')).toEqual([
      'b',
      'd',
      'a',
      'c',
    ]);
    expect(sorted([e('a', 3), e('b', 1), e('c', null), e('d', 2)], 'desc')).toEqual([
      'a',
      'd',
      'b',
      'c',
    ]);
    expect(sorted([e('a', 1, 1), e('b', 1, 5), e('c', 1, 5)], 'asc')).toEqual(['a', 'b', 'c']);
    expect(sorted([e('a', 1, 1), e('b', 1, 5), e('c', 1, 5)], 'desc')).toEqual(['c', 'b', 'a']);
  });

  it('orders strings', () => {
    const s = (id: string, key: string): IndexEntry => ({ id, key, tie: 0 });
    expect(sorted([s('1', 'bea'), s('2', 'ana'), s('3', 'cid')], 'asc')).toEqual(['2', '1', '3']);
  });
});

/** Entries with a key in [0, `maxKey`], or null with chance `nulls`, and a tie in [0, 3]. */
function entryMaker(rng: Prng, nulls: number, maxKey: number) {
  return (id: string): IndexEntry => ({
    id,
    key: rng.chance(nulls) ? null : rng.int(0, maxKey),
    tie: rng.int(0, 3),
  });
}

/**
 * One batch of up to `most` random moves, inserts and removals among the ids `n0`…`n<ids>`,
 * applied to `index` and mirrored in `current`; the index after it.
 */
function randomBatch(
  index: SortedIndex,
  current: Map<string, IndexEntry>,
  rng: Prng,
  make: (id: string) => IndexEntry,
  most: number,
  ids: number,
): SortedIndex {
  const draft = index.edit();
  for (let k = rng.int(0, most); k > 0; k--) {
    const id = `n${rng.int(0, ids)}`;
    const before = current.get(id) ?? null;
    const after = rng.chance(0.15) ? null : make(id);
    draft.move(before, after);
    if (after) current.set(id, after);
    else current.delete(id);
  }
  return draft.commit();
}

describe('SortedIndex', () => {
  it('reads rows by position and slices', () => {
    const entries = Array.from({ length: 1000 }, (_, i) => ({ id: `i${i}`, key: i, tie: 0 }));
    const index = SortedIndex.build(entries.slice().reverse(), 'asc');
    expect(index.size).toBe(1000);
    expect(index.at(0)).toBe('i0');
    expect(index.at(999)).toBe('i999');
    expect(index.at(1000)).toBeUndefined();
    expect(index.at(-1)).toBeUndefined();
    expect(index.slice(510, 514)).toEqual(['i510', 'i511', 'i512', 'i513']);
    expect(index.indexOf(entries[700]!)).toBe(700);
    expect(index.indexOf({ id: 'nope', key: 5, tie: 0 })).toBe(-1);
    expect(index.countWhile((e) => (e.key as number) < 300)).toBe(300);
  });

  it('stays equal to a full sort under random inserts, removals and moves', () => {
    for (const direction of ['asc', 'desc'] as const) {
      const rng = new Prng(direction === 'asc' ? 1 : 2);
      const current = new Map<string, IndexEntry>();
      const make = entryMaker(rng, 0.05, 500);
      for (let i = 0; i < 3000; i++) current.set(`n${i}`, make(`n${i}`));
      let index = SortedIndex.build([...current.values()], direction);
      const history: [SortedIndex, string[]][] = [];
      for (let round = 0; round < 60; round++) {
        index = randomBatch(index, current, rng, make, 400, 4000);
        history.push([index, sorted(current.values(), direction)]);
      }
      for (const [version, expected] of history) {
        expect(version.size).toBe(expected.length);
        expect(version.toArray()).toEqual(expected);
        for (let i = 0; i < expected.length; i += 97) expect(version.at(i)).toBe(expected[i]);
      }
    }
  });

  it('reads the other way when reversed, nulls still last, and stays sorted under edits', () => {
    const rng = new Prng(3);
    const current = new Map<string, IndexEntry>();
    const make = entryMaker(rng, 0.1, 300);
    for (let i = 0; i < 2000; i++) current.set(`n${i}`, make(`n${i}`));
    const ascending = SortedIndex.build([...current.values()], 'asc');
    const original = ascending.toArray();
    let index = ascending.reversed();
    expect(index.direction).toBe('desc');
    expect(index.chunkOrder).toBe('asc');
    expect(index.reversed().toArray()).toEqual(ascending.toArray());
    for (let round = 0; round < 30; round++) {
      const expected = sorted(current.values(), 'desc');
      const entries = [...current.values()];
      expect(index.toArray()).toEqual(expected);
      expect([...index.entries()].map((e) => e.id)).toEqual(expected);
      const backwards: string[] = [];
      index.forEachEntry((e) => void backwards.push(e.id), true);
      expect(backwards).toEqual(expected.slice().reverse());
      expect(index.slice(100, 140)).toEqual(expected.slice(100, 140));
      expect(index.slice(expected.length - 30)).toEqual(expected.slice(-30));
      for (let i = 0; i < expected.length; i += 61) {
        expect(index.at(i)).toBe(expected[i]);
        expect(index.indexOf(current.get(expected[i]!)!)).toBe(i);
      }
      const keyed = entries.filter((e) => e.key !== null).length;
      expect(index.countWhile((e) => e.key !== null)).toBe(keyed);
      index = randomBatch(index, current, rng, make, 200, 2500);
      expect(index.chunkOrder).toBe('asc');
    }
    expect(ascending.toArray()).toEqual(original);
  });

  it('returns the same index when a batch changes nothing, and shares unchanged chunks', () => {
    const entries = Array.from({ length: 2000 }, (_, i) => ({ id: `i${i}`, key: i, tie: 0 }));
    const index = SortedIndex.build(entries, 'asc');
    const draft = index.edit();
    draft.move(entries[10]!, { ...entries[10]! });
    expect(draft.commit()).toBe(index);
    const moved = index.edit();
    moved.move(entries[10]!, { id: 'i10', key: 1500.5, tie: 0 });
    const next = moved.commit();
    expect(next).not.toBe(index);
    expect(next.version).toBe(index.version + 1);
    expect(next.at(10)).toBe('i11');
    expect(index.at(10)).toBe('i10');
  });

  it('grows from empty and shrinks to empty', () => {
    let index = SortedIndex.empty('desc');
    const draft = index.edit();
    for (let i = 0; i < 1500; i++) draft.insert({ id: `k${i}`, key: i, tie: 0 });
    index = draft.commit();
    expect(index.at(0)).toBe('k1499');
    const drain = index.edit();
    for (let i = 0; i < 1500; i++) expect(drain.remove({ id: `k${i}`, key: i, tie: 0 })).toBe(true);
    expect(drain.remove({ id: 'k0', key: 0, tie: 0 })).toBe(false);
    const empty = drain.commit();
    expect(empty.size).toBe(0);
    expect(empty.toArray()).toEqual([]);
  });
});
