import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { applyListQueries } from './list-queries.ts';

const rows = [
  { $id: 'a', status: 'completed', duration: 3, $createdAt: '2026-01-01' },
  { $id: 'b', status: 'failed', duration: 1, $createdAt: '2026-01-02' },
  { $id: 'c', status: 'completed', duration: 2, $createdAt: '2026-01-03' },
];
const q = (method: string, attribute?: string, values: unknown[] = []) =>
  JSON.stringify({ method, ...(attribute ? { attribute } : {}), values });

describe('applyListQueries', () => {
  it('filters, orders, pages and counts', () => {
    const { total, page } = applyListQueries(
      rows,
      [q('equal', 'status', ['completed']), q('orderDesc', 'duration'), q('limit', undefined, [1])],
      ['status', 'duration'],
    );
    expect(total).toBe(2);
    expect(page.map((row) => row.$id)).toEqual(['a']);
    const after = applyListQueries(rows, [q('cursorAfter', undefined, ['a'])], []);
    expect(after.page.map((row) => row.$id)).toEqual(['b', 'c']);
    expect(applyListQueries(rows, [q('greaterThan', 'duration', [1])], ['duration']).total).toBe(2);
  });

  it('refuses unknown attributes and methods as Appwrite does', () => {
    expect(() => applyListQueries(rows, [q('equal', 'secret', ['x'])], ['status'])).toThrow(
      ApiError,
    );
    expect(() => applyListQueries(rows, [q('explode')], [])).toThrow('Query method not valid');
    expect(() => applyListQueries(rows, [q('limit', undefined, [0])], [])).toThrow('Invalid limit');
    expect(() => applyListQueries(rows, [q('cursorAfter', undefined, ['zz'])], [])).toThrow(
      "Document 'zz'",
    );
  });
});

describe('applyListQueries on models with lists and a named resource', () => {
  const models = [
    { $id: 'i1', attributes: ['a', 'b'] },
    { $id: 'i2', attributes: ['c'] },
  ];

  it('matches an element of an array attribute with equal', () => {
    const { page } = applyListQueries(models, [q('equal', 'attributes', ['c'])], ['attributes']);
    expect(page.map((model) => model.$id)).toEqual(['i2']);
  });

  it('names the resource whose cursor is missing', () => {
    expect(() =>
      applyListQueries(models, [q('cursorAfter', undefined, ['zz'])], [], 'Presence'),
    ).toThrow("Presence 'zz' for the 'cursor' value not found.");
  });

  it('reads queries with the one parser: its syntax errors and param checks', () => {
    expect(() => applyListQueries(models, ['{bad'], [])).toThrow('Invalid query: Syntax error');
    expect(() => applyListQueries(models, { not: 'a list' }, [])).toThrow(
      'Invalid `queries` param',
    );
  });
});
