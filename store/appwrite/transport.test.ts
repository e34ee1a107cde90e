import { AppwriteException } from 'appwrite';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { Prng } from '../sync/testing/prng.ts';
import { makeOrder, orderDocument } from '../sync/testing/orders.ts';
import { gatewayError, parseExecution } from './transport.ts';

const doc = orderDocument(
  makeOrder(new Prng(1), { id: 'o1', number: 1, createdAt: 0, status: 'paid' }),
);

function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  throw new Error('expected an AppError');
}

describe('parseExecution', () => {
  it('returns the order document of a 200', () => {
    expect(
      parseExecution({ $id: 'e1', responseStatusCode: 200, responseBody: JSON.stringify(doc) }),
    ).toEqual(doc);
  });

  it('throws the AppError of a refusal', () => {
    const error = thrown(() =>
      parseExecution({
        $id: 'e2',
        responseStatusCode: 409,
        responseBody: JSON.stringify({
          error: {
            code: 'ORDER_CONFLICT',
            message: 'Ana claimed this order a moment ago.',
            details: { currentRev: 4 },
          },
        }),
      }),
    );
    expect(error.code).toBe('ORDER_CONFLICT');
    expect(error.message).toBe('Ana claimed this order a moment ago.');
    expect(error.details).toEqual({ currentRev: 4 });
  });

  it('throws SERVER_ERROR naming the execution for anything unreadable', () => {
    for (const execution of [
      { $id: 'e3', responseStatusCode: 500, responseBody: 'Internal error' },
      { $id: 'e3', responseStatusCode: 200, responseBody: '{"not":"an order"}' },
      { $id: 'e3', responseStatusCode: 502, responseBody: '' },
    ]) {
      const error = thrown(() => parseExecution(execution));
      expect(error.code).toBe('SERVER_ERROR');
      expect(error.message).toBe('Something went wrong (ref e3).');
    }
  });
});

describe('gatewayError', () => {
  it('maps SDK failures', () => {
    expect(gatewayError(new AppwriteException('no session', 401, 'user_unauthorized')).code).toBe(
      'AUTH_REQUIRED',
    );
    expect(
      gatewayError(new AppwriteException('slow down', 429, 'general_rate_limit_exceeded')).code,
    ).toBe('RATE_LIMITED');
    expect(gatewayError(new TypeError('Failed to fetch')).code).toBe('OFFLINE');
    expect(gatewayError(new AppwriteException('', 0)).code).toBe('OFFLINE');
    expect(gatewayError(new AppwriteException('nope', 403, 'user_unauthorized')).code).toBe(
      'FORBIDDEN',
    );
    const same = new AppError('FORBIDDEN', 'x');
    expect(gatewayError(same)).toBe(same);
  });
});
