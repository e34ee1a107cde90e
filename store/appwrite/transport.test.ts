import { AppwriteException } from 'appwrite';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { Prng } from '../sync/testing/prng.ts';
import { makeOrder, orderDocument } from '../sync/testing/orders.ts';
import {
  createAppwriteTransport,
  parseExecution,
  type FunctionsClient,
  type TransportSdk,
} from './transport.ts';

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

describe('createAppwriteTransport', () => {
  const sdk = (createExecution: FunctionsClient['createExecution']) =>
    ({
      functions: { createExecution },
      teams: {},
      realtime: {},
    }) as unknown as TransportSdk;

  it('runs order-action and answers its order document', async () => {
    const calls: unknown[] = [];
    const transport = createAppwriteTransport(
      sdk(async (params) => {
        calls.push(params);
        return { $id: 'e1', responseStatusCode: 200, responseBody: JSON.stringify(doc) };
      }),
      'http://app/join',
    );
    const request = { orderId: 'o1', action: 'claim' as const, expectedRev: 1 };
    expect(await transport.performOrderAction(request)).toEqual(doc);
    expect(calls).toEqual([
      {
        functionId: 'order-action',
        body: JSON.stringify(request),
        async: false,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
    ]);
  });

  it('adds a note through note-action (no author sent) and answers the note document', async () => {
    const calls: { functionId: string; body?: string }[] = [];
    const note = { $id: 'n1', $createdAt: 't', $updatedAt: 't', orderId: 'o1' };
    const transport = createAppwriteTransport(
      sdk(async (params) => {
        calls.push(params);
        return {
          $id: 'e2',
          responseStatusCode: 200,
          responseBody: JSON.stringify({ note, order: doc }),
        };
      }),
      'http://app/join',
    );
    const answer = await transport.createNote({
      id: 'n1',
      orderId: 'o1',
      body: 'Extra napkins',
      authorId: 'u1',
      authorName: 'Ana',
    });
    expect(answer).toEqual(note);
    expect(calls.map((call) => [call.functionId, JSON.parse(call.body!)])).toEqual([
      ['note-action', { action: 'add', noteId: 'n1', orderId: 'o1', body: 'Extra napkins' }],
    ]);
  });

  it('writes products through product-action and throws its refusal as an AppError', async () => {
    const transport = createAppwriteTransport(
      sdk(async (params) => ({
        $id: 'e3',
        responseStatusCode: 400,
        responseBody: JSON.stringify({
          error: {
            code: 'VALIDATION',
            message: `Refused ${String(JSON.parse(params.body!).changes.priceCents)}`,
          },
        }),
      })),
      'http://app/join',
    );
    await expect(transport.updateProduct('p1', { priceCents: -1 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'Refused -1',
    });
  });

  it('converts what the SDK throws once, with toAppError', async () => {
    const failing = (error: unknown): Promise<AppError> =>
      createAppwriteTransport(
        sdk(async () => {
          throw error;
        }),
        'http://app/join',
      )
        .performOrderAction({ orderId: 'o1', action: 'claim', expectedRev: 1 })
        .then(
          () => {
            throw new Error('expected a failure');
          },
          (caught: unknown) => caught as AppError,
        );
    const code = async (error: unknown) => (await failing(error)).code;
    expect(await code(new AppwriteException('slow down', 429, 'general_rate_limit_exceeded'))).toBe(
      'RATE_LIMITED',
    );
    expect(await code(new TypeError('Failed to fetch'))).toBe('OFFLINE');
    expect(await code(new AppwriteException('', 0))).toBe('OFFLINE');
    expect(await code(new AppwriteException('no session', 401, 'user_session_not_found'))).toBe(
      'AUTH_REQUIRED',
    );
    // "Not allowed" or "signed out": FORBIDDEN, with the status for the app to ask which.
    const refused = await failing(new AppwriteException('nope', 401, 'user_unauthorized'));
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.details).toEqual({ status: 401 });
  });
});
