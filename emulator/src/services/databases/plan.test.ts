import { afterAll, describe, expect, it } from 'vitest';
import type { ListRequest } from './documents.ts';
import { parseQueries } from '../../core/queries.ts';
import { compileFilters, cursorCondition, groupQueries, ordering } from './queries-sql.ts';
import type { SqlValue } from './structure.ts';
import { testCollection, testStore } from './test-fixtures.ts';
import { ftsTableOf, sqlIndexOf, tablesOf, type CollectionRecord } from './types.ts';

// The desk's typical list shapes (scripts/schema.ts: orders and notes) must be answered from an
// index, never by scanning the table: these tests read SQLite's EXPLAIN QUERY PLAN.

const fixture = testStore();
afterAll(() => fixture.close());

const orders = testCollection(fixture.catalog, {
  id: 'orders',
  documentSecurity: true,
  attributes: [
    ['integer', { key: 'number', min: 1, required: true }],
    ['enum', { key: 'status', elements: ['paid', 'preparing', 'ready'], required: true }],
    ['string', { key: 'customerName', size: 80, required: true }],
    ['email', { key: 'customerEmail', required: true }],
    ['string', { key: 'assigneeId', size: 36 }],
    ['string', { key: 'paymentIntentId', size: 255 }],
  ],
  indexes: [
    ['number_unique', 'unique', ['number']],
    ['status_created', 'key', ['status', '$createdAt']],
    ['created', 'key', ['$createdAt']],
    ['updated', 'key', ['$updatedAt']],
    ['assignee', 'key', ['assigneeId']],
    ['email', 'key', ['customerEmail']],
    ['payment_intent', 'key', ['paymentIntentId']],
    ['customer_search', 'fulltext', ['customerName']],
  ],
});
const notes = testCollection(fixture.catalog, {
  id: 'notes',
  documentSecurity: true,
  attributes: [
    ['string', { key: 'orderId', size: 36, required: true }],
    ['string', { key: 'body', size: 2000, required: true }],
  ],
  indexes: [
    ['order', 'key', ['orderId', '$createdAt']],
    ['updated', 'key', ['$updatedAt']],
  ],
});

function indexName(collection: CollectionRecord, key: string): string {
  return sqlIndexOf(
    collection,
    collection.indexes.find((index) => index.key === key)!,
  );
}

function plan(
  collection: CollectionRecord,
  queries: string[],
  options: { cursor?: boolean; roles?: string[] } = {},
): string {
  const grouped = groupQueries(parseQueries(queries));
  const order = ordering(grouped);
  const request: ListRequest = {
    filters: compileFilters(collection, grouped.filters),
    permission: options.roles
      ? fixture.documents.permissionCondition(collection, options.roles)
      : null,
    cursor: options.cursor
      ? cursorCondition(
          order,
          new Map<string, SqlValue>(
            order.attributes.map((attribute) => [
              attribute,
              attribute === '$sequence' ? 10 : '2026-01-01T00:00:00.000+00:00',
            ]),
          ),
        )
      : null,
    orderBy: order.orderBy,
    limit: grouped.limit,
    offset: grouped.offset,
    selections: null,
  };
  const { sql, params } = fixture.documents.listSql(collection, request);
  const rows = fixture.store.sql.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as {
    detail: string;
  }[];
  return rows.map((row) => row.detail).join(' | ');
}

const query = (method: string, attribute: string, values: unknown[] = []) =>
  JSON.stringify({ method, attribute, values });

/** A plan that reads the documents table through `index` only (no full scan). */
function expectIndex(detail: string, index: string, constraint?: string): void {
  expect(detail).toContain(`USING INDEX ${index}${constraint ? ` (${constraint})` : ''}`);
  expect(detail).not.toMatch(/SCAN d(?! USING)/);
}

describe('list query plans', () => {
  it('status = X, $createdAt desc, 5,000: the status_created index, also after a cursor', () => {
    const queries = [
      query('equal', 'status', ['paid']),
      query('orderDesc', '$createdAt'),
      query('limit', '', [5000]),
    ];
    expectIndex(plan(orders, queries), indexName(orders, 'status_created'), 'status=?');
    expectIndex(
      plan(orders, queries, { cursor: true }),
      indexName(orders, 'status_created'),
      'status=? AND _createdAt<?',
    );
  });

  it('changes since a time ($updatedAt > T, ascending): the updated index', () => {
    const detail = plan(orders, [
      query('greaterThan', '$updatedAt', ['2026-01-01T00:00:00.000+00:00']),
      query('orderAsc', '$updatedAt'),
    ]);
    expectIndex(detail, indexName(orders, 'updated'), '_updatedAt>?');
    expect(detail).not.toContain('TEMP B-TREE');
  });

  it('newest first without a filter: the created index', () => {
    expectIndex(plan(orders, [query('orderDesc', '$createdAt')]), indexName(orders, 'created'));
  });

  it('by assignee, email and payment intent: their indexes', () => {
    expectIndex(
      plan(orders, [query('equal', 'assigneeId', ['u1'])]),
      indexName(orders, 'assignee'),
      'assigneeId=?',
    );
    expectIndex(
      plan(orders, [query('equal', 'customerEmail', ['a@example.com'])]),
      indexName(orders, 'email'),
      'customerEmail=?',
    );
    expectIndex(
      plan(orders, [query('equal', 'paymentIntentId', ['pi_1'])]),
      indexName(orders, 'payment_intent'),
      'paymentIntentId=?',
    );
  });

  it('the highest order number: the unique index', () => {
    expectIndex(
      plan(orders, [query('orderDesc', 'number'), query('limit', '', [1])]),
      indexName(orders, 'number_unique'),
    );
  });

  it('customer search: the FTS5 table', () => {
    const detail = plan(orders, [query('search', 'customerName', ['ana'])]);
    const fts = ftsTableOf(
      orders,
      orders.indexes.find((index) => index.type === 'fulltext')!,
    );
    expect(detail).toContain(`SCAN ${fts} VIRTUAL TABLE`);
    expect(detail).toContain('USING INTEGER PRIMARY KEY');
  });

  it("an order's notes, filtered by document permissions: the order index and the permissions table", () => {
    const detail = plan(
      notes,
      [query('equal', 'orderId', ['o1']), query('orderAsc', '$createdAt')],
      { roles: ['any', 'users', 'user:u1', 'team:desk', 'team:desk/staff'] },
    );
    expectIndex(detail, indexName(notes, 'order'), 'orderId=?');
    expect(detail).toContain(
      `SEARCH ${tablesOf(notes).perms} USING PRIMARY KEY (_type=? AND _role=?)`,
    );
  });

  it('a document by $id and the capped count use indexes', () => {
    const byId = fixture.store.sql
      .prepare(`EXPLAIN QUERY PLAN SELECT * FROM "${tablesOf(orders).docs}" AS d WHERE d._uid = ?`)
      .all('x') as { detail: string }[];
    expect(byId[0]!.detail).toMatch(/SEARCH d USING INDEX sqlite_autoindex_.* \(_uid=\?\)/);
    const count = fixture.store.sql
      .prepare(
        `EXPLAIN QUERY PLAN SELECT COUNT(1) FROM (SELECT 1 FROM "${tablesOf(orders).docs}" AS d WHERE d."status" = ? LIMIT 5000)`,
      )
      .all('paid') as { detail: string }[];
    expect(count.map((row) => row.detail).join(' | ')).toContain(
      `USING COVERING INDEX ${indexName(orders, 'status_created')} (status=?)`,
    );
  });
});
