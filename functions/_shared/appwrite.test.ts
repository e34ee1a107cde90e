import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors.ts';
import { activityIdFor, refuse, STATUS_OF } from './appwrite.ts';
import type { FunctionContext } from './runtime.ts';

describe('functions/_shared', () => {
  it('derives one activity id per order revision, within 36 characters', () => {
    expect(activityIdFor('6b0388c77b890c53228d', 7)).toBe('6b0388c77b890c53228d.r7');
    const long = activityIdFor('a'.repeat(36), 12);
    expect(long).toHaveLength(36);
    expect(long).toMatch(/^a[0-9a-f]{35}$/);
    expect(activityIdFor('a'.repeat(36), 13)).not.toBe(long);
  });

  it('answers refusals with the status of the wire contract', () => {
    expect(STATUS_OF).toMatchObject({
      AUTH_REQUIRED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      ORDER_CONFLICT: 409,
      INVALID_TRANSITION: 400,
      VALIDATION: 400,
      SERVER_ERROR: 500,
    });
    const ctx = {
      res: { json: (body: unknown, statusCode = 200) => ({ body, statusCode }) },
    } as unknown as FunctionContext;
    expect(
      refuse(ctx, new AppError('ORDER_CONFLICT', 'Ana claimed this order a moment ago.')),
    ).toEqual({
      statusCode: 409,
      body: { error: { code: 'ORDER_CONFLICT', message: 'Ana claimed this order a moment ago.' } },
    });
  });
});
