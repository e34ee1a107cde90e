import { afterAll, describe, expect, it } from 'vitest';
import type { PreparedDocument } from './documents.ts';
import type { SqlValue } from './structure.ts';
import { testCollection, testStore } from './test-fixtures.ts';
import { ftsTableOf, tablesOf } from './types.ts';

const fixture = testStore();
afterAll(() => fixture.close());

const collection = testCollection(fixture.catalog, {
  id: 'orders',
  attributes: [
    ['string', { key: 'customer', size: 80 }],
    ['string', { key: 'status', size: 20 }],
    ['integer', { key: 'rev' }],
  ],
  indexes: [
    ['status_i', 'key', ['status']],
    ['customer_ft', 'fulltext', ['customer']],
  ],
});

function prepared(uid: string, values: Record<string, SqlValue>, updatedAt: string) {
  return {
    uid,
    createdAt: '2026-01-01T00:00:00.000+00:00',
    updatedAt,
    permissions: [],
    values: new Map(Object.entries(values)),
  } satisfies PreparedDocument;
}

describe('Documents.update with the stored row', () => {
  it('writes the changed columns only, and the document reads back whole', () => {
    const { documents, store } = fixture;
    const [row] = documents.insert(collection, [
      prepared(
        'o1',
        { customer: 'Ana Silva', status: 'paid', rev: 1 },
        '2026-01-01T00:00:00.000+00:00',
      ),
    ]);
    const fts = ftsTableOf(
      collection,
      collection.indexes.find((i) => i.key === 'customer_ft')!,
    );
    // A rewrite of the full-text column would re-index it: count the index's writes.
    store.sql.exec(
      `CREATE TEMP TABLE fts_writes (n INTEGER); INSERT INTO fts_writes VALUES (0);
       CREATE TEMP TRIGGER count_fts AFTER UPDATE OF customer ON "${tablesOf(collection).docs}"
       BEGIN UPDATE fts_writes SET n = n + 1; END;`,
    );
    /** Writes o1 as an update does: with the stored row, so only changed columns are set. */
    const update = (values: Record<string, SqlValue>, updatedAt: string) =>
      documents.update(
        collection,
        Number(row!._seq),
        prepared('o1', values, updatedAt),
        false,
        documents.getRow(collection, 'o1')!,
      );
    const updated = update(
      { customer: 'Ana Silva', status: 'ready', rev: 2 },
      '2026-01-01T00:00:01.000+00:00',
    );
    expect(store.sql.prepare('SELECT n FROM fts_writes').get()).toEqual({ n: 0 });
    expect(updated).toMatchObject({ customer: 'Ana Silva', status: 'ready', rev: 2 });
    expect(documents.getRow(collection, 'o1')).toMatchObject({
      _updatedAt: '2026-01-01T00:00:01.000+00:00',
      customer: 'Ana Silva',
      status: 'ready',
      rev: 2,
    });
    update({ customer: 'Ana Souza', status: 'ready', rev: 3 }, '2026-01-01T00:00:02.000+00:00');
    expect(store.sql.prepare('SELECT n FROM fts_writes').get()).toEqual({ n: 1 });
    expect(
      store.sql.prepare(`SELECT rowid FROM "${fts}" WHERE "${fts}" MATCH 'Souza'`).all(),
    ).toHaveLength(1);
  });
});
