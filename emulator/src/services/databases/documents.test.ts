import { afterAll, describe, expect, it } from 'vitest';
import { documentModel, type ListRequest, type PreparedDocument } from './documents.ts';
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

/** A first page in insertion order, of the `selections` (null: every attribute). */
const request = (selections: string[] | null): ListRequest => ({
  filters: { sql: '', params: [] },
  permission: null,
  cursor: null,
  orderBy: 'd._seq ASC',
  limit: 100,
  offset: 0,
  selections,
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

describe('Documents.listModels', () => {
  const listed = testCollection(fixture.catalog, {
    id: 'listed',
    attributes: [
      ['string', { key: 'name', size: 80 }],
      ['integer', { key: 'big', size: 8 }],
      ['integer', { key: 'scores', array: true }],
      ['boolean', { key: 'done' }],
      ['float', { key: 'ratio' }],
    ],
  });
  const database = fixture.catalog.getDatabase('test')!;

  it('gives the models documentModel makes of the rows, selected or whole', () => {
    const { documents } = fixture;
    documents.insert(listed, [
      {
        ...prepared(
          'l1',
          { name: 'Ana', big: 7, scores: '[1,2]', done: 1, ratio: 0.5 },
          '2026-01-01T00:00:01.000+00:00',
        ),
        permissions: ['read("any")', 'update("user:u1")'],
      },
      prepared(
        'l2',
        { name: null, big: null, scores: null, done: 0, ratio: null },
        '2026-01-01T00:00:02.000+00:00',
      ),
    ]);
    for (const selections of [null, ['name', 'scores'], []]) {
      const rows = documents.list(listed, request(selections));
      expect(rows).toHaveLength(2);
      expect(documents.listModels(database, listed, request(selections))).toEqual(
        rows.map((row) => documentModel(database, listed, row)),
      );
    }
  });

  it('keeps an integer beyond 2^53 exact', () => {
    const { documents } = fixture;
    documents.insert(listed, [
      prepared(
        'l3',
        { name: 'Big', big: 2n ** 60n, scores: '[9007199254740993]', done: 0, ratio: 1 },
        '2026-01-01T00:00:03.000+00:00',
      ),
    ]);
    const models = documents.listModels(database, listed, request(null));
    const rows = documents.list(listed, request(null));
    expect(models).toEqual(rows.map((row) => documentModel(database, listed, row)));
    expect(JSON.stringify(models.find((model) => model.$id === 'l3'))).toContain(
      '"big":1152921504606846976,"scores":[9007199254740993]',
    );
  });
});

describe('Documents.listJson', () => {
  const database = fixture.catalog.getDatabase('test')!;
  const texts = [
    'Ana "the best" \\ Silva',
    'tab\there, line\nbreak, cr\r, \b\f, unit separator \u001f, escape \u001b, del \u007f',
    'Zoë, 東京, emoji 🍩, separators \u2028 \u2029, </script>',
    '',
    "O'Brien",
  ];

  it('writes each document as JSON.stringify writes its model, for every kind it takes', () => {
    const written = testCollection(fixture.catalog, {
      id: 'written',
      attributes: [
        ['string', { key: 'name', size: 200 }],
        ['email', { key: 'email' }],
        ['enum', { key: 'status', elements: ['paid', 'ready'] }],
        ['datetime', { key: 'paidAt' }],
        ['integer', { key: 'big', size: 8 }],
        ['boolean', { key: 'done' }],
        ['string', { key: 'tags', size: 40, array: true }],
        ['boolean', { key: 'flags', array: true }],
      ],
    });
    const { documents } = fixture;
    documents.insert(
      written,
      texts.map((name, i) => ({
        ...prepared(
          `w${i}`,
          {
            name,
            email: i % 2 ? null : `a${i}@example.com`,
            status: i % 2 ? 'paid' : 'ready',
            paidAt: i % 2 ? null : '2026-01-01T00:00:00.000+00:00',
            big: i === 0 ? 2n ** 62n : i === 1 ? null : -i,
            done: i === 1 ? null : i % 2,
            tags: i === 1 ? null : JSON.stringify([name, 'x']),
            flags: JSON.stringify([true, false]),
          },
          `2026-01-01T00:00:0${i}.000+00:00`,
        ),
        permissions: i === 0 ? ['read("any")', 'update("user:u1")'] : [],
      })),
    );
    for (const selections of [null, ['name', 'done'], []]) {
      const models = documents.listModels(database, written, request(selections));
      expect(models).toHaveLength(texts.length);
      const listed = documents
        .listJson(database, written, request(selections))!
        .map((bytes) => new TextDecoder().decode(bytes));
      expect(listed).toEqual(models.map((model) => JSON.stringify(model)));
    }
  });

  it('declines a collection with a float or an integer list (SQLite would write them otherwise)', () => {
    const floats = testCollection(fixture.catalog, {
      id: 'floats',
      attributes: [
        ['string', { key: 'name', size: 20 }],
        ['float', { key: 'ratio' }],
        ['integer', { key: 'scores', array: true }],
      ],
    });
    expect(fixture.documents.listJson(database, floats, request(null))).toBeNull();
    expect(fixture.documents.listJson(database, floats, request(['ratio']))).toBeNull();
    expect(fixture.documents.listJson(database, floats, request(['scores']))).toBeNull();
    expect(fixture.documents.listJson(database, floats, request(['name']))).toEqual([]);
  });
});
