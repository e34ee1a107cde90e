import { Query, type Databases, type Models } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { beforeAllOnTarget } from '../support/clients.ts';
import { caught, createCollection, scratchDatabase } from '../support/databases.ts';
import { modelProblems } from '../support/openapi.ts';

let databases: Databases;
let databaseId: string;
let collectionId: string;

/** Six people, created in this order (so `$sequence` follows a…f). */
const PEOPLE = [
  {
    $id: 'a',
    name: 'Ana Lopez',
    n: 1,
    price: 1.5,
    active: true,
    at: '2026-01-01T00:00:00.000Z',
    status: 'open',
    tags: ['x', 'y'],
    email: 'ana@example.com',
  },
  {
    $id: 'b',
    name: 'Ben Stone',
    n: 2,
    price: 2.5,
    active: false,
    at: '2026-01-02T00:00:00.000Z',
    status: 'paid',
    tags: ['y'],
  },
  {
    $id: 'c',
    name: 'Cara Smith',
    n: 2,
    price: 3.5,
    active: true,
    at: '2026-01-03T00:00:00.000Z',
    status: 'paid',
    tags: [],
  },
  { $id: 'd', name: 'Dan Smithers', n: 3, status: 'done' },
  {
    $id: 'e',
    name: 'Eve Adams',
    n: 3,
    price: 0.5,
    active: true,
    at: '2026-01-05T00:00:00.000Z',
    status: 'open',
    tags: ['z'],
  },
  {
    $id: 'f',
    name: 'Finn Adamson',
    n: 3,
    price: 9.9,
    active: false,
    at: '2026-01-06T00:00:00.000Z',
    status: 'done',
    tags: ['x'],
  },
];

async function ids(queries: string[]): Promise<string[]> {
  const list = await databases.listDocuments({ databaseId, collectionId, queries });
  return list.documents.map((document) => document.$id);
}

beforeAllOnTarget(async () => {
  ({ databases, databaseId } = await scratchDatabase());
  collectionId = await createCollection(databases, databaseId, {
    attributes: [
      { type: 'string', key: 'name', size: 40, required: true },
      { type: 'integer', key: 'n' },
      { type: 'float', key: 'price' },
      { type: 'boolean', key: 'active' },
      { type: 'datetime', key: 'at' },
      { type: 'enum', key: 'status', elements: ['open', 'paid', 'done'] },
      { type: 'string', key: 'tags', size: 10, array: true },
      { type: 'email', key: 'email' },
    ],
    indexes: [
      { key: 'name_ft', type: 'fulltext', attributes: ['name'] },
      { key: 'n_i', type: 'key', attributes: ['n'] },
    ],
  });
  for (const { $id, ...data } of PEOPLE)
    await databases.createDocument({ databaseId, collectionId, documentId: $id, data });
});

describe('query methods', () => {
  it.each([
    ['equal', [Query.equal('status', ['paid'])], ['b', 'c']],
    ['equal, several values', [Query.equal('status', ['open', 'paid'])], ['a', 'b', 'c', 'e']],
    ['equal on a boolean', [Query.equal('active', [true])], ['a', 'c', 'e']],
    ['equal on $id', [Query.equal('$id', ['f', 'a'])], ['a', 'f']],
    ['notEqual', [Query.notEqual('status', 'done')], ['a', 'b', 'c', 'e']],
    ['lessThan', [Query.lessThan('n', 2)], ['a']],
    ['lessThanEqual', [Query.lessThanEqual('n', 2)], ['a', 'b', 'c']],
    ['greaterThan', [Query.greaterThan('n', 2)], ['d', 'e', 'f']],
    ['greaterThanEqual', [Query.greaterThanEqual('price', 3.5)], ['c', 'f']],
    ['between', [Query.between('price', 1, 3.5)], ['a', 'b', 'c']],
    ['between dates', [Query.between('at', '2026-01-02', '2026-01-05')], ['b', 'c', 'e']],
    ['isNull', [Query.isNull('at')], ['d']],
    ['isNotNull', [Query.isNotNull('price')], ['a', 'b', 'c', 'e', 'f']],
    ['startsWith', [Query.startsWith('name', 'Ca')], ['c']],
    ['startsWith is case-sensitive', [Query.startsWith('name', 'ca')], []],
    ['endsWith', [Query.endsWith('name', 'son')], ['f']],
    ['search (prefix of the last word)', [Query.search('name', 'smith')], ['c', 'd']],
    ['search, several words', [Query.search('name', 'ana adam')], ['a', 'e', 'f']],
    ['search, exact phrase', [Query.search('name', '"eve adams"')], ['e']],
    ['contains on an array', [Query.contains('tags', ['y'])], ['a', 'b']],
    ['contains on a string', [Query.contains('name', ['mith'])], ['c', 'd']],
    ['notContains on an array', [Query.notContains('tags', ['x'])], ['b', 'c', 'e']],
    ['and', [Query.and([Query.equal('status', ['open']), Query.greaterThan('n', 1)])], ['e']],
    ['or', [Query.or([Query.equal('n', [1]), Query.equal('status', ['done'])])], ['a', 'd', 'f']],
    [
      'or nested in and',
      [
        Query.and([
          Query.or([Query.equal('status', ['paid']), Query.equal('status', ['done'])]),
          Query.isNotNull('price'),
        ]),
      ],
      ['b', 'c', 'f'],
    ],
    [
      'createdAfter/Before',
      [Query.createdAfter('2000-01-01'), Query.createdBefore('2999-01-01')],
      ['a', 'b', 'c', 'd', 'e', 'f'],
    ],
  ])('%s', async (_name, queries, expected) => {
    expect(await ids(queries)).toEqual(expected);
  });

  it('orders ascending and descending, $sequence ascending breaking ties, nulls first ascending', async () => {
    expect(await ids([Query.orderAsc('name')])).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(await ids([Query.orderDesc('n')])).toEqual(['d', 'e', 'f', 'b', 'c', 'a']);
    expect(await ids([Query.orderDesc('price')])).toEqual(['f', 'c', 'b', 'a', 'e', 'd']);
    expect(await ids([Query.orderAsc('price')])).toEqual(['d', 'e', 'a', 'b', 'c', 'f']);
    expect(await ids([Query.orderDesc('n'), Query.orderAsc('name')])).toEqual([
      'd',
      'e',
      'f',
      'b',
      'c',
      'a',
    ]);
    expect(await ids([Query.orderDesc('$sequence')])).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect((await ids([Query.orderRandom()])).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('limits and offsets', async () => {
    expect(await ids([Query.orderAsc('name'), Query.limit(2), Query.offset(1)])).toEqual([
      'b',
      'c',
    ]);
    expect(await ids([Query.limit(1)])).toEqual(['a']);
  });

  it('selects attributes: only those, plus the system fields', async () => {
    const list = await databases.listDocuments<Models.DefaultDocument>({
      databaseId,
      collectionId,
      queries: [Query.select(['name', 'n']), Query.equal('$id', ['a'])],
    });
    expect(Object.keys(list.documents[0]!).sort()).toEqual(
      [
        '$collectionId',
        '$createdAt',
        '$databaseId',
        '$id',
        '$permissions',
        '$sequence',
        '$updatedAt',
        'n',
        'name',
      ].sort(),
    );
    const one = await databases.getDocument({
      databaseId,
      collectionId,
      documentId: 'b',
      queries: [Query.select(['status'])],
    });
    expect(one).toMatchObject({ $id: 'b', status: 'paid' });
    expect(one).not.toHaveProperty('name');
  });

  it('returns Document models with typed values', async () => {
    const list = await databases.listDocuments<Models.DefaultDocument>({
      databaseId,
      collectionId,
      queries: [Query.equal('$id', ['a', 'd'])],
    });
    expect(modelProblems('documentList', list)).toEqual([]);
    expect(list.documents[0]).toMatchObject({
      $id: 'a',
      $collectionId: collectionId,
      $databaseId: databaseId,
      name: 'Ana Lopez',
      n: 1,
      price: 1.5,
      active: true,
      at: '2026-01-01T00:00:00.000+00:00',
      status: 'open',
      tags: ['x', 'y'],
      email: 'ana@example.com',
    });
    expect(list.documents[0]!.$sequence).toMatch(/^\d+$/);
    expect(list.documents[1]).toMatchObject({
      price: null,
      active: null,
      at: null,
      tags: null,
      email: null,
    });
  });
});

describe('total', () => {
  it('counts every match regardless of limit, offset and cursor; total=false answers 0', async () => {
    const list = await databases.listDocuments({
      databaseId,
      collectionId,
      queries: [Query.greaterThan('n', 1), Query.limit(1), Query.offset(1)],
    });
    expect([list.total, list.documents.length]).toEqual([5, 1]);
    const after = await databases.listDocuments({
      databaseId,
      collectionId,
      queries: [Query.cursorAfter('a')],
    });
    expect(after.total).toBe(6);
    const none = await databases.listDocuments({ databaseId, collectionId, total: false });
    expect([none.total, none.documents.length]).toEqual([0, 6]);
  });

  it('caps total at 5,000 as Appwrite counts (APP_LIMIT_COUNT), and returns up to 5,000', async () => {
    const big = await createCollection(databases, databaseId, {
      attributes: [{ type: 'integer', key: 'i', required: true }],
    });
    for (let start = 0; start < 5100; start += 100) {
      await databases.createDocuments({
        databaseId,
        collectionId: big,
        documents: Array.from({ length: 100 }, (_, j) => ({ i: start + j })),
      });
    }
    const page = await databases.listDocuments({
      databaseId,
      collectionId: big,
      queries: [Query.limit(5000)],
    });
    expect([page.total, page.documents.length]).toEqual([5000, 5000]);
    const filtered = await databases.listDocuments({
      databaseId,
      collectionId: big,
      queries: [Query.greaterThanEqual('i', 5000), Query.limit(1)],
    });
    expect(filtered.total).toBe(100);
    expect(
      (await databases.listDocuments({ databaseId, collectionId: big })).documents,
    ).toHaveLength(25);
  });
});

describe('cursor pagination', () => {
  const order = ['d', 'e', 'f', 'b', 'c', 'a']; // orderDesc('n'), ties by $sequence

  it('pages forward with cursorAfter through ties', async () => {
    const pages: string[][] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await ids([
        Query.orderDesc('n'),
        Query.limit(2),
        ...(cursor ? [Query.cursorAfter(cursor)] : []),
      ]);
      if (!page.length) break;
      pages.push(page);
      cursor = page[page.length - 1]!;
    }
    expect(pages).toEqual([
      ['d', 'e'],
      ['f', 'b'],
      ['c', 'a'],
    ]);
  });

  it('pages backward with cursorBefore, pages in list order', async () => {
    expect(await ids([Query.orderDesc('n'), Query.limit(2), Query.cursorBefore('c')])).toEqual([
      'f',
      'b',
    ]);
    expect(await ids([Query.orderDesc('n'), Query.limit(2), Query.cursorBefore('f')])).toEqual([
      'd',
      'e',
    ]);
    expect(await ids([Query.orderDesc('n'), Query.limit(5), Query.cursorBefore('e')])).toEqual([
      'd',
    ]);
    expect(await ids([Query.limit(10), Query.cursorBefore('d')])).toEqual(['a', 'b', 'c']);
    expect(order).toHaveLength(6);
  });

  it('answers Appwrite’s errors for a missing cursor and a null order value', async () => {
    const missing = await caught(ids([Query.cursorAfter('nope')]));
    expect([missing.code, missing.type, missing.message]).toEqual([
      400,
      'general_cursor_not_found',
      "Document 'nope' for the 'cursor' value not found.",
    ]);
    const nullValue = await caught(ids([Query.orderAsc('price'), Query.cursorAfter('d')]));
    expect([nullValue.code, nullValue.type]).toEqual([400, 'database_query_order_null']);
  });
});

describe('invalid queries', () => {
  it.each([
    [[Query.equal('nope', ['x'])], 'Invalid query: Attribute not found in schema: nope'],
    [
      [Query.search('status', 'open')],
      'Searching by attribute "status" requires a fulltext index.',
    ],
    [
      [Query.limit(5001)],
      'Invalid query: Invalid limit: Value must be a valid range between 1 and 5,000',
    ],
    [[Query.equal('n', ['1'])], 'Invalid query: Query value is invalid for attribute "n"'],
    [[Query.orderAsc('nope')], 'Invalid query: Attribute not found in schema: nope'],
    [['{bad json'], 'Invalid query: Syntax error'],
    [['{"method":"frobnicate","attribute":"n","values":[1]}'], 'Invalid query method: frobnicate'],
    [
      [Query.equal('tags', ['x'])],
      'Invalid query: Cannot query equal on attribute "tags" because it is an array.',
    ],
  ])('%j → %s', async (queries, message) => {
    const error = await caught(ids(queries));
    expect([error.code, error.type, error.message]).toEqual([
      400,
      'general_query_invalid',
      message,
    ]);
  });
});
