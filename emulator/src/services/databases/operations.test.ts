import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.ts';
import { parseOperations } from './operations.ts';

const base = { databaseId: 'db', collectionId: 'c' };

function problem(value: unknown, naming: 'legacy' | 'tablesdb' = 'legacy'): string {
  try {
    parseOperations(value, naming);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
  throw new Error('expected a refusal');
}

describe('parseOperations', () => {
  it('reads every action in the legacy API terms', () => {
    const parsed = parseOperations(
      [
        { ...base, action: 'create', documentId: 'd1', data: { a: 1 } },
        { ...base, action: 'delete', documentId: 'd1' },
        { ...base, action: 'increment', documentId: 'd1', data: { attribute: 'n', value: '2' } },
        { ...base, action: 'bulkCreate', data: [{ a: 1 }] },
        { ...base, action: 'bulkUpdate', data: { data: { a: 2 }, queries: [] } },
        { ...base, action: 'bulkDelete', data: { queries: [] } },
      ],
      'legacy',
    );
    expect(parsed.map((item) => [item.action, item.documentId])).toEqual([
      ['create', 'd1'],
      ['delete', 'd1'],
      ['increment', 'd1'],
      ['bulkCreate', null],
      ['bulkUpdate', null],
      ['bulkDelete', null],
    ]);
    expect(parsed[1]!.data).toEqual({});
  });

  it("reads TablesDB's tableId, rowId and column", () => {
    const [parsed] = parseOperations(
      [{ databaseId: 'db', tableId: 't', rowId: 'r', action: 'decrement', data: { column: 'n' } }],
      'tablesdb',
    );
    expect(parsed).toEqual({
      action: 'decrement',
      databaseId: 'db',
      collectionId: 't',
      documentId: 'r',
      data: { attribute: 'n' },
    });
  });

  it('gives unique() document ids a new id', () => {
    const [parsed] = parseOperations(
      [{ ...base, action: 'create', documentId: 'unique()', data: {} }],
      'legacy',
    );
    expect(parsed!.documentId).toMatch(/^[0-9a-f]{20}$/);
  });

  it("refuses malformed operations with the reason Appwrite's validator gives", () => {
    expect(problem('x')).toBe('Invalid `operations` param: Value must a valid array');
    expect(problem([{ ...base, action: 'nope', documentId: 'd', data: {} }])).toContain(
      "Key 'action' must be one of: create, update",
    );
    expect(problem([{ collectionId: 'c', action: 'create', documentId: 'd', data: {} }])).toContain(
      'Missing required key: databaseId',
    );
    expect(problem([{ ...base, action: 'create', data: {} }])).toContain(
      "Key 'documentId' is required for action 'create'",
    );
    expect(problem([{ ...base, action: 'update', documentId: 'd' }])).toContain(
      'Missing required key: data',
    );
    expect(problem([{ ...base, action: 'bulkUpdate', data: { queries: [] } }])).toContain(
      "Key 'data' is required in data for bulkUpdate",
    );
    expect(
      problem([{ ...base, action: 'increment', documentId: 'd', data: { value: 1 } }]),
    ).toContain("Key 'attribute' is required in data for increment");
    expect(
      problem(
        [{ databaseId: 'db', tableId: 't', rowId: 'r', action: 'increment', data: {} }],
        'tablesdb',
      ),
    ).toContain("Key 'column' is required in data for increment");
    expect(problem([{ ...base, action: 'create', documentId: 'bad id!', data: {} }])).toContain(
      'Invalid `documentId` param',
    );
  });
});
