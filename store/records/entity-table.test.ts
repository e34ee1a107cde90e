import { describe, expect, it } from 'vitest';
import { Prng } from '../sync/testing/prng.ts';
import { EntityTable } from './entity-table.ts';

interface Row {
  id: string;
  value: number;
}

describe('EntityTable', () => {
  it('builds from records; a later record with the same id wins', () => {
    const table = EntityTable.from<Row>([
      { id: 'a', value: 1 },
      { id: 'b', value: 2 },
      { id: 'a', value: 3 },
    ]);
    expect(table.size).toBe(2);
    expect(table.get('a')).toEqual({ id: 'a', value: 3 });
    expect(table.has('c')).toBe(false);
  });

  it('commits a new version and leaves the previous one untouched', () => {
    const a = { id: 'a', value: 1 };
    const before = EntityTable.from<Row>([a, { id: 'b', value: 2 }]);
    const draft = before.edit();
    draft.set({ id: 'a', value: 10 });
    draft.set({ id: 'c', value: 3 });
    expect(draft.delete('b')).toBe(true);
    expect(draft.delete('missing')).toBe(false);
    expect(draft.get('c')).toEqual({ id: 'c', value: 3 });
    const after = draft.commit();
    expect(after.version).toBe(before.version + 1);
    expect(after.size).toBe(2);
    expect(after.get('a')!.value).toBe(10);
    expect(after.get('b')).toBeUndefined();
    expect(before.get('a')).toBe(a);
    expect(before.get('b')!.value).toBe(2);
    expect(before.get('c')).toBeUndefined();
    expect(before.size).toBe(2);
  });

  it('returns the same table when nothing changed, and keeps untouched records identical', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `r${i}`, value: i }));
    const table = EntityTable.from<Row>(rows);
    expect(table.edit().commit()).toBe(table);
    const same = table.edit();
    same.set(rows[5]!);
    expect(same.commit()).toBe(table);
    const draft = table.edit();
    draft.set({ id: 'r7', value: -1 });
    const next = draft.commit();
    for (let i = 0; i < 1000; i++) if (i !== 7) expect(next.get(`r${i}`)).toBe(rows[i]);
  });

  it('matches a Map under random edits across many versions', () => {
    const rng = new Prng(7);
    let table = EntityTable.empty<Row>();
    let model = new Map<string, Row>();
    const versions: [EntityTable<Row>, Map<string, Row>][] = [];
    for (let round = 0; round < 200; round++) {
      const draft = table.edit();
      const next = new Map(model);
      for (let i = rng.int(0, 60); i > 0; i--) {
        const id = `id${rng.int(0, 800)}`;
        if (rng.chance(0.2)) {
          expect(draft.delete(id)).toBe(next.delete(id));
        } else {
          const row = { id, value: rng.int(0, 1e6) };
          draft.set(row);
          next.set(id, row);
        }
      }
      table = draft.commit();
      model = next;
      versions.push([table, model]);
    }
    for (const [version, expected] of versions) {
      expect(version.size).toBe(expected.size);
      expect(new Map(version.toArray().map((r) => [r.id, r]))).toEqual(expected);
      for (const [id, row] of expected) expect(version.get(id)).toBe(row);
    }
  }, 60_000);

  it('iterates every record once', () => {
    const table = EntityTable.from<Row>(
      Array.from({ length: 300 }, (_, i) => ({ id: `x${i}`, value: i })),
    );
    const seen: number[] = [];
    table.forEach((row) => seen.push(row.value));
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect([...table.values()]).toHaveLength(300);
  });

  it('visits chunks in slices and tells what changed since an earlier version', () => {
    const rng = new Prng(11);
    const start = EntityTable.from<Row>(
      Array.from({ length: 700 }, (_, i) => ({ id: `x${i}`, value: i })),
    );
    const seen: number[] = [];
    for (let c = 0; c < start.chunkCount; c += 2)
      start.forEachInChunks(c, c + 2, (row) => seen.push(row.value));
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 700 }, (_, i) => i));
    let table = start;
    for (let round = 0; round < 20; round++) {
      const draft = table.edit();
      for (let i = rng.int(0, 30); i > 0; i--) {
        const id = `x${rng.int(0, 900)}`;
        if (rng.chance(0.3)) draft.delete(id);
        else draft.set({ id, value: rng.int(0, 1e6) });
      }
      table = draft.commit();
    }
    const changes = table.changesSince(start)!;
    // Applying the changes to the start gives the table; nothing unchanged is listed.
    const model = new Map(start.toArray().map((r) => [r.id, r]));
    for (const { before, after } of changes) {
      expect(before).not.toBe(after);
      expect(model.get((before ?? after)!.id)).toBe(before);
      if (after) model.set(after.id, after);
      else model.delete(before!.id);
    }
    expect(model).toEqual(new Map(table.toArray().map((r) => [r.id, r])));
    expect(table.changesSince(table)).toEqual([]);
    expect(table.changesSince(EntityTable.from<Row>([]))).toBeNull();
  });
});
