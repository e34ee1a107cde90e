import { describe, expect, it } from 'vitest';
import { EntityTable } from './entity-table.ts';
import { reconcileBatch } from './changes.ts';
import type { Tombstone } from './reconcile.ts';

interface Row {
  id: string;
  orderId: string;
  updatedAt: number;
  rev?: number;
  body: string;
}

const row = (id: string, updatedAt: number, body = id, orderId = 'o1'): Row => ({
  id,
  orderId,
  updatedAt,
  body,
});

describe('reconcileBatch', () => {
  it('applies newer records, ignores duplicates and stale copies, and reports one diff per record', () => {
    const a1 = row('a', 10);
    const table = EntityTable.from([a1]);
    const a2 = row('a', 20, 'a2');
    const a3 = row('a', 30, 'a3');
    const batch = reconcileBatch(table, EntityTable.empty<Tombstone>(), [
      { kind: 'upsert', record: a3 },
      { kind: 'upsert', record: a2 },
      { kind: 'upsert', record: a3 },
      { kind: 'upsert', record: row('b', 5) },
    ]);
    expect(batch.table.get('a')).toBe(a3);
    expect(batch.diffs).toEqual([
      { before: a1, after: a3 },
      { before: undefined, after: row('b', 5) },
    ]);
  });

  it('leaves the tables untouched when nothing is newer', () => {
    const a = row('a', 10);
    const table = EntityTable.from([a]);
    const graves = EntityTable.empty<Tombstone>();
    const batch = reconcileBatch(table, graves, [{ kind: 'upsert', record: { ...a } }]);
    expect(batch.table).toBe(table);
    expect(batch.tombstones).toBe(graves);
    expect(batch.diffs).toEqual([]);
  });

  it('deletes with a tombstone that stops late copies, in any order', () => {
    const a = row('a', 10);
    const deleted = row('a', 20);
    for (const order of [
      ['upsert-late', 'delete'],
      ['delete', 'upsert-late'],
    ]) {
      let table = EntityTable.from([a]);
      let graves = EntityTable.empty<Tombstone>();
      for (const step of order) {
        const batch = reconcileBatch(table, graves, [
          step === 'delete'
            ? { kind: 'delete', record: deleted }
            : { kind: 'upsert', record: row('a', 20, 'late copy') },
        ]);
        table = batch.table;
        graves = batch.tombstones;
      }
      expect(table.get('a')).toBeUndefined();
      expect(graves.get('a')).toEqual({ id: 'a', rev: undefined, updatedAt: 20 });
    }
  });
});

describe('reconcileBatch: an eviction', () => {
  it('removes the record held, leaves no tombstone, and a later copy brings it back', () => {
    const a = row('a', 10);
    const first = reconcileBatch(EntityTable.from([a]), EntityTable.empty<Tombstone>(), [
      { kind: 'evict', record: a },
    ]);
    expect(first.table.get('a')).toBeUndefined();
    expect(first.tombstones.size).toBe(0);
    expect(first.diffs).toEqual([{ before: a, after: undefined }]);
    const again = reconcileBatch(first.table, first.tombstones, [
      { kind: 'upsert', record: { ...a } },
    ]);
    expect(again.table.get('a')).toEqual(a);
  });

  it('leaves a record that changed since the eviction was decided', () => {
    const a = row('a', 10);
    const newer = row('a', 20, 'a2');
    const batch = reconcileBatch(EntityTable.from([newer]), EntityTable.empty<Tombstone>(), [
      { kind: 'evict', record: a },
    ]);
    expect(batch.table.get('a')).toBe(newer);
    expect(batch.diffs).toEqual([]);
  });
});

describe('reconcileBatch of orders (the rule with rev)', () => {
  const o = (rev: number, updatedAt = rev * 10) => ({
    id: 'o1',
    orderId: 'o1',
    rev,
    updatedAt,
    body: `v${rev}`,
  });

  it('applies the higher rev and reports first-before/last-after diffs', () => {
    const batch = reconcileBatch(EntityTable.from([o(2)]), EntityTable.empty<Tombstone>(), [
      { kind: 'upsert', record: o(4) },
      { kind: 'upsert', record: o(3) },
      { kind: 'upsert', record: o(4) },
    ]);
    expect(batch.table.get('o1')!.rev).toBe(4);
    expect(batch.diffs).toEqual([{ before: o(2), after: o(4) }]);
  });

  it('deletes with a tombstone and never resurrects', () => {
    const batch = reconcileBatch(EntityTable.from([o(2)]), EntityTable.empty<Tombstone>(), [
      { kind: 'upsert', record: o(3) },
      { kind: 'delete', record: o(3) },
      { kind: 'upsert', record: o(3) },
      { kind: 'upsert', record: o(2) },
    ]);
    expect(batch.table.get('o1')).toBeUndefined();
    expect(batch.table.size).toBe(0);
    expect(batch.diffs).toEqual([{ before: o(2), after: undefined }]);
    const later = reconcileBatch(batch.table, batch.tombstones, [{ kind: 'upsert', record: o(3) }]);
    expect(later.table.get('o1')).toBeUndefined();
  });
});
