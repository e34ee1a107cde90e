import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.ts';
import { parseRequest } from './main.ts';

function refusal(body: string): AppError {
  try {
    parseRequest(body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted ${body}`);
}

describe('order-action request parsing', () => {
  it('accepts the wire form', () => {
    expect(parseRequest('{"orderId":"o1","action":"take-over","expectedRev":3}')).toEqual({
      orderId: 'o1',
      action: 'take-over',
      expectedRev: 3,
    });
    expect(
      parseRequest('{"orderId":"o1","action":"cancel","expectedRev":0,"amountCents":250}'),
    ).toMatchObject({ amountCents: 250 });
    expect(parseRequest('{"orderId":"o1","action":"refund","expectedRev":4}')).toEqual({
      orderId: 'o1',
      action: 'refund',
      expectedRev: 4,
    });
  });

  it('refuses anything else as VALIDATION naming the field', () => {
    expect(refusal('nope').code).toBe('VALIDATION');
    expect(refusal('[1]').message).toBe('The request body must be a JSON object.');
    expect(refusal('{"orderId":"","action":"claim","expectedRev":0}').details).toEqual({
      field: 'orderId',
    });
    expect(refusal('{"orderId":"o1","action":"dance","expectedRev":0}').message).toBe(
      'Unknown action "dance".',
    );
    expect(refusal('{"orderId":"o1","action":"claim","expectedRev":1.5}').details).toEqual({
      field: 'expectedRev',
    });
    expect(
      refusal('{"orderId":"o1","action":"claim","expectedRev":1,"amountCents":-1}').details,
    ).toEqual({ field: 'amountCents' });
  });
});
