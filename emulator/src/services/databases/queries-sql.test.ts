import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.ts';
import { parseQueries, type Query } from '../../core/queries.ts';
import {
  compileFilters,
  cursorCondition,
  ftsQuery,
  groupQueries,
  ordering,
  validateQueries,
} from './queries-sql.ts';
import { testCollection, testStore } from './test-fixtures.ts';

const q = (method: string, attribute = '', values: unknown[] = []) =>
  JSON.stringify({ method, attribute, values });

function error(fn: () => unknown): { type: string; message: string } {
  try {
    fn();
  } catch (caught) {
    if (caught instanceof ApiError) return { type: caught.type, message: caught.message };
    throw caught;
  }
  throw new Error('expected an ApiError');
}

const fixture = testStore();
afterAll(() => fixture.close());
const collection = testCollection(fixture.catalog, {
  attributes: [
    ['string', { key: 'name', size: 80 }],
    ['integer', { key: 'count', max: 1000 }],
    ['integer', { key: 'big' }],
    ['float', { key: 'price' }],
    ['boolean', { key: 'active' }],
    ['datetime', { key: 'at' }],
    ['enum', { key: 'status', elements: ['a', 'b'] }],
    ['string', { key: 'tags', size: 10, array: true }],
  ],
  indexes: [['name_ft', 'fulltext', ['name']]],
});

function check(...queries: string[]) {
  return () => validateQueries(collection, parseQueries(queries));
}

describe('validateQueries', () => {
  it('accepts valid queries of every supported method', () => {
    expect(
      check(
        q('equal', 'name', ['x', 'y']),
        q('notEqual', 'count', [1]),
        q('lessThan', 'price', [1.5]),
        q('greaterThanEqual', 'at', ['2026-01-01']),
        q('between', 'count', [1, 5]),
        q('isNull', 'at'),
        q('isNotNull', '$id'),
        q('startsWith', 'name', ['a']),
        q('search', 'name', ['jo']),
        q('contains', 'tags', ['x']),
        q('contains', 'name', ['x']),
        q('equal', 'active', [true]),
        q('select', '', ['name', '$id']),
        q('orderAsc', 'name'),
        q('orderDesc', '$createdAt'),
        q('limit', '', [5000]),
        q('offset', '', [10]),
        q('cursorAfter', '', ['doc1']),
      ),
    ).not.toThrow();
  });

  it.each([
    [[q('equal', 'nope', ['x'])], 'Invalid query: Attribute not found in schema: nope'],
    [[q('orderAsc', 'nope')], 'Invalid query: Attribute not found in schema: nope'],
    [[q('select', '', ['nope'])], 'Invalid query: Attribute not found in schema: nope'],
    [[q('select', '', [])], 'Invalid query: No attributes selected'],
    [[q('equal', 'name', [])], 'Invalid query: Equal queries require at least one value.'],
    [
      [q('lessThan', 'count', [1, 2])],
      'Invalid query: LessThan queries require exactly one value.',
    ],
    [[q('between', 'count', [1])], 'Invalid query: Between queries require exactly two values.'],
    [[q('equal', 'count', ['1'])], 'Invalid query: Query value is invalid for attribute "count"'],
    [
      [q('equal', 'count', [2 ** 40])],
      'Invalid query: Query value is invalid for attribute "count"',
    ],
    [[q('equal', 'active', [1])], 'Invalid query: Query value is invalid for attribute "active"'],
    [[q('equal', 'at', ['nope'])], 'Invalid query: Query value is invalid for attribute "at"'],
    [
      [q('contains', 'count', [1])],
      'Invalid query: Cannot query contains on attribute "count" because it is not an array, string, or object.',
    ],
    [
      [q('equal', 'tags', ['x'])],
      'Invalid query: Cannot query equal on attribute "tags" because it is an array.',
    ],
    [
      [q('limit', '', [5001])],
      'Invalid query: Invalid limit: Value must be a valid range between 1 and 5,000',
    ],
    [
      [q('limit', '', [0])],
      'Invalid query: Invalid limit: Value must be a valid range between 1 and 5,000',
    ],
    [[q('limit', '', ['x'])], 'Invalid query: Invalid limit: Value must be a valid number'],
    [
      [q('offset', '', [-1])],
      'Invalid query: Invalid offset: Value must be a valid range between 0 and 9,223,372,036,854,775,808',
    ],
    [[q('search', 'status', ['a'])], 'Searching by attribute "status" requires a fulltext index.'],
    [
      ['{"method":"or","values":[{"method":"equal","attribute":"name","values":["x"]}]}'],
      'Invalid query: Or queries require at least two queries',
    ],
    [
      [
        '{"method":"and","values":[{"method":"limit","values":[1]},{"method":"equal","attribute":"name","values":["x"]}]}',
      ],
      'Invalid query: And queries can only contain filter queries',
    ],
    [
      [
        '{"method":"or","values":[{"method":"equal","attribute":"nope","values":["x"]},{"method":"isNull","attribute":"name"}]}',
      ],
      'Invalid query: Attribute not found in schema: nope',
    ],
    [[q('elemMatch', 'tags', [])], 'Invalid query: elemMatch is not supported by the database'],
  ])('%j → %s', (queries, message) => {
    expect(error(check(...queries))).toEqual({ type: 'general_query_invalid', message });
  });
});

describe('compilation', () => {
  const compile = (...queries: string[]) =>
    compileFilters(collection, groupQueries(parseQueries(queries)).filters);

  it('binds every value as a parameter, never in the SQL text', () => {
    const fragment = compile(
      q('equal', 'name', ["x' OR 1=1 --"]),
      q('between', 'count', [1, 5]),
      q('equal', 'active', [true]),
      q('greaterThan', 'at', ['2026-01-01']),
    );
    expect(fragment.sql).not.toContain('OR 1=1');
    expect(fragment.params).toEqual(["x' OR 1=1 --", 1, 5, 1, '2026-01-01T00:00:00.000+00:00']);
  });

  it('nests and/or', () => {
    const fragment = compile(
      '{"method":"or","values":[{"method":"equal","attribute":"count","values":[1]},{"method":"and","values":[{"method":"isNull","attribute":"at"},{"method":"lessThan","attribute":"price","values":[2]}]}]}',
    );
    expect(fragment.sql).toBe('(d."count" = ? OR (d."at" IS NULL AND d."price" < ?))');
    expect(fragment.params).toEqual([1, 2]);
  });

  it('escapes GLOB wildcards of startsWith', () => {
    const fragment = compile(q('startsWith', 'name', ['a*b?[']));
    expect(fragment.params).toEqual(['a[*]b[?][[]*']);
  });

  it('turns search values into FTS5 queries as MariaDB boolean mode reads them', () => {
    expect(ftsQuery('john smi')).toBe('"john" OR "smi"*');
    expect(ftsQuery('"john smith"')).toBe('"john smith"');
    expect(ftsQuery('  +-*  ')).toBeNull();
  });

  it('orders with $sequence ascending as the tie-break, flipped for cursorBefore', () => {
    const after = ordering(groupQueries(parseQueries([q('orderDesc', '$createdAt')])));
    expect(after.orderBy).toBe('d._createdAt DESC, d._seq ASC');
    const before = ordering(
      groupQueries(parseQueries([q('orderDesc', '$createdAt'), q('cursorBefore', '', ['x'])])),
    );
    expect(before.orderBy).toBe('d._createdAt ASC, d._seq DESC');
    expect(ordering(groupQueries(parseQueries([q('orderAsc', '$id')]))).orderBy).toBe('d._uid ASC');
  });

  it("builds the keyset condition from the cursor document's values", () => {
    const order = ordering(groupQueries(parseQueries([q('orderDesc', 'count')])));
    const condition = cursorCondition(
      order,
      new Map<string, number>([
        ['count', 7],
        ['$sequence', 42],
      ]),
    );
    expect(condition.sql).toBe(
      '(d."count" <= ? AND ((d."count" < ?) OR (d."count" = ? AND d._seq > ?)))',
    );
    expect(condition.params).toEqual([7, 7, 7, 42]);
  });
});

describe('grouping', () => {
  it('keeps the first limit, offset and cursor, as Appwrite does', () => {
    const grouped = groupQueries(
      parseQueries([
        q('limit', '', [5]),
        q('limit', '', [9]),
        q('offset', '', [2]),
        q('cursorAfter', '', ['a']),
        q('cursorBefore', '', ['b']),
      ]),
    );
    expect(grouped).toMatchObject({ limit: 5, offset: 2, cursor: { id: 'a', direction: 'after' } });
  });

  it('defaults to 25 documents', () => {
    expect(groupQueries([] as Query[]).limit).toBe(25);
  });
});
