import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import {
  RATE_LIMIT_ATTEMPTS,
  rateLimitDelay,
  rateLimitMessage,
  retryRateLimited,
} from './rate-limit.ts';

const noJitter = () => 0;

describe('rateLimitDelay', () => {
  it('doubles from 1 s without a hint, and gives up after the last attempt', () => {
    expect([1, 2, 3, 4, 5].map((a) => rateLimitDelay(a, {}, 0, noJitter))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
    expect(rateLimitDelay(RATE_LIMIT_ATTEMPTS, {}, 0, noJitter)).toBeNull();
  });

  it('honours Retry-After, then X-RateLimit-Reset, within bounds', () => {
    expect(rateLimitDelay(1, { retryAfterSeconds: 7 }, 0, noJitter)).toBe(7000);
    expect(rateLimitDelay(1, { resetAtSeconds: 1_000_012 }, 1_000_000_000, noJitter)).toBe(12_000);
    // A reset already past waits a moment; a far one is capped.
    expect(rateLimitDelay(1, { resetAtSeconds: 10 }, 1_000_000, noJitter)).toBe(250);
    expect(rateLimitDelay(1, { retryAfterSeconds: 3600 }, 0, noJitter)).toBe(60_000);
  });

  it('adds up to a quarter of jitter', () => {
    expect(rateLimitDelay(1, {}, 0, () => 0.999)).toBe(1250);
  });
});

describe('rateLimitMessage', () => {
  it('names the wait in whole seconds, at least one', () => {
    expect(rateLimitMessage(250)).toBe('Too many requests — retrying in 1s.');
    expect(rateLimitMessage(2_400)).toBe('Too many requests — retrying in 2s.');
    expect(rateLimitMessage(16_000)).toBe('Too many requests — retrying in 16s.');
  });
});

describe('retryRateLimited', () => {
  const limited = new AppError('RATE_LIMITED', 'Too many requests — retrying in a few seconds.', {
    retryAfterSeconds: 2,
  });

  it('sends again after each 429, telling the desk, until it goes through', async () => {
    const waits: number[] = [];
    const shown: string[] = [];
    let calls = 0;
    const answer = await retryRateLimited(
      async () => {
        calls++;
        if (calls < 3) throw limited;
        return 'done';
      },
      (thrown) => thrown as AppError,
      (error) => shown.push(error.message),
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(answer).toBe('done');
    expect(calls).toBe(3);
    expect(waits.every((ms) => ms >= 2000 && ms <= 2500)).toBe(true);
    expect(shown).toEqual([
      'Too many requests — retrying in 2s.',
      'Too many requests — retrying in 2s.',
    ]);
  });

  it('does not retry other refusals, and keeps the last 429', async () => {
    const conflict = new AppError('ORDER_CONFLICT', 'Ana claimed this order a moment ago.');
    let calls = 0;
    await expect(
      retryRateLimited(
        async () => {
          calls++;
          throw conflict;
        },
        (thrown) => thrown as AppError,
        () => {},
        async () => {},
      ),
    ).rejects.toBe(conflict);
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retryRateLimited(
        async () => {
          calls++;
          throw limited;
        },
        (thrown) => thrown as AppError,
        () => {},
        async () => {},
      ),
    ).rejects.toBe(limited);
    expect(calls).toBe(RATE_LIMIT_ATTEMPTS);
  });
});
