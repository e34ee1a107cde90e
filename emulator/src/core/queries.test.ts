import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { parseQueries } from './queries.ts';

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

describe('parseQueries', () => {
  it('parses the SDK form, nested and/or objects included', () => {
    const [or] = parseQueries([
      '{"method":"or","values":[{"method":"equal","attribute":"a","values":[1]},{"method":"isNull","attribute":"b"}]}',
    ]);
    expect(or).toEqual({
      method: 'or',
      attribute: '',
      values: [
        { method: 'equal', attribute: 'a', values: [1] },
        { method: 'isNull', attribute: 'b', values: [] },
      ],
    });
  });

  it('keeps integers beyond 2^53 exact', () => {
    const [query] = parseQueries([
      '{"method":"equal","attribute":"big","values":[9223372036854775807]}',
    ]);
    expect(query!.values[0]).toBe(9223372036854775807n);
  });

  it("answers Appwrite's parse errors", () => {
    expect(error(() => parseQueries(['{bad']))).toEqual({
      type: 'general_query_invalid',
      message: 'Invalid query: Syntax error',
    });
    expect(error(() => parseQueries([q('nope', 'x')])).message).toBe('Invalid query method: nope');
    expect(error(() => parseQueries(['"text"'])).message).toBe(
      'Invalid query. Must be an array, got string',
    );
    expect(error(() => parseQueries(['{"method":"equal","values":"x"}'])).message).toBe(
      'Invalid query values. Must be an array, got string',
    );
    expect(error(() => parseQueries('not-an-array' as unknown as string[])).type).toBe(
      'general_query_invalid',
    );
    expect(error(() => parseQueries(new Array(101).fill(q('limit', '', [1])))).type).toBe(
      'general_argument_invalid',
    );
  });
});
