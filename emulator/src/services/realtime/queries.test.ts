import { describe, expect, it } from 'vitest';
import {
  compileQueries,
  matchesQueries,
  parseRealtimeQueries,
  queryToString,
  RealtimeQueryError,
  storedQueryStrings,
} from './queries.ts';

const q = (method: string, attribute?: string, values?: unknown[]) =>
  JSON.stringify({ method, attribute, values });

function matches(queries: string[], payload: Record<string, unknown>): boolean {
  return matchesQueries(compileQueries(parseRealtimeQueries(queries)), payload);
}

describe('parseRealtimeQueries', () => {
  it('parses the SDK’s JSON queries, nested and/or included', () => {
    const [query] = parseRealtimeQueries([
      JSON.stringify({
        method: 'and',
        values: [
          { method: 'equal', attribute: 'status', values: ['open'] },
          { method: 'isNull', attribute: 'courier' },
        ],
      }),
    ]);
    expect(query).toEqual({
      method: 'and',
      attribute: '',
      values: [
        { method: 'equal', attribute: 'status', values: ['open'] },
        { method: 'isNull', attribute: 'courier', values: [] },
      ],
    });
    expect(queryToString(query!)).toBe(
      '{"method":"and","values":[{"method":"equal","attribute":"status","values":["open"]},{"method":"isNull","attribute":"courier","values":[]}]}',
    );
  });

  it('refuses methods realtime does not allow, even nested', () => {
    expect(() => parseRealtimeQueries([q('limit', undefined, [5])])).toThrow(
      "Query method 'limit' is not supported in Realtime queries. Allowed: equal, notEqual, lessThan, lessThanEqual, greaterThan, greaterThanEqual, isNull, isNotNull, and, or, select",
    );
    expect(() =>
      parseRealtimeQueries([
        JSON.stringify({
          method: 'or',
          values: [{ method: 'search', attribute: 'a', values: ['x'] }],
        }),
      ]),
    ).toThrow(RealtimeQueryError);
  });

  it('refuses unknown methods, bad JSON and select other than *', () => {
    expect(() => parseRealtimeQueries([q('shout', 'a', [])])).toThrow(
      'Invalid query method: shout',
    );
    expect(() => parseRealtimeQueries(['{nope'])).toThrow('Invalid query: Syntax error');
    expect(() => parseRealtimeQueries([q('select', undefined, ['name'])])).toThrow(
      'Only select("*") is allowed',
    );
    expect(() => parseRealtimeQueries([42])).toThrow(RealtimeQueryError);
  });

  it('stores select("*") for a subscription without queries', () => {
    expect(storedQueryStrings([])).toEqual(['{"method":"select","values":["*"]}']);
  });
});

describe('matchesQueries', () => {
  const order = {
    status: 'open',
    total: 12,
    courier: null,
    $updatedAt: '2026-01-02T00:00:00.000+00:00',
  };

  it('matches everything without queries or with select("*")', () => {
    expect(matches([], order)).toBe(true);
    expect(matches([q('equal', 'status', ['closed']), q('select', undefined, ['*'])], order)).toBe(
      true,
    );
  });

  it('evaluates equal and notEqual against any of the values', () => {
    expect(matches([q('equal', 'status', ['closed', 'open'])], order)).toBe(true);
    expect(matches([q('equal', 'status', ['closed'])], order)).toBe(false);
    expect(matches([q('notEqual', 'status', ['closed'])], order)).toBe(true);
    expect(matches([q('notEqual', 'status', ['open'])], order)).toBe(false);
    expect(matches([q('equal', 'total', ['12'])], order)).toBe(false);
  });

  it('compares numbers, numeric strings and strings in order', () => {
    expect(matches([q('greaterThan', 'total', [10])], order)).toBe(true);
    expect(matches([q('greaterThan', 'total', [12])], order)).toBe(false);
    expect(matches([q('greaterThanEqual', 'total', [12])], order)).toBe(true);
    expect(matches([q('lessThan', 'total', ['100'])], order)).toBe(true);
    expect(matches([q('lessThanEqual', 'total', [11])], order)).toBe(false);
    expect(matches([q('lessThan', '$updatedAt', ['2026-02-01'])], order)).toBe(true);
  });

  it('checks null, and requires the attribute to exist', () => {
    expect(matches([q('isNull', 'courier')], order)).toBe(true);
    expect(matches([q('isNotNull', 'courier')], order)).toBe(false);
    expect(matches([q('isNull', 'missing')], order)).toBe(false);
    expect(matches([q('notEqual', 'missing', ['x'])], order)).toBe(false);
  });

  it('ANDs top-level queries and supports nested and/or', () => {
    expect(matches([q('equal', 'status', ['open']), q('greaterThan', 'total', [20])], order)).toBe(
      false,
    );
    const either = JSON.stringify({
      method: 'or',
      values: [
        { method: 'equal', attribute: 'missing', values: [1] },
        { method: 'lessThan', attribute: 'total', values: [20] },
      ],
    });
    expect(matches([either], order)).toBe(true);
    const both = JSON.stringify({
      method: 'and',
      values: [
        { method: 'equal', attribute: 'status', values: ['open'] },
        { method: 'isNotNull', attribute: 'courier' },
      ],
    });
    expect(matches([both], order)).toBe(false);
  });
});
