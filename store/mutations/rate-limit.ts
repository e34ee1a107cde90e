import { AppError } from '../../domain/errors.ts';

/**
 * When to send a write again that the backend refused with 429 (`RATE_LIMITED`): at the time the
 * backend named (`Retry-After` seconds, or `X-RateLimit-Reset`, the epoch second the window
 * resets), else after a backoff that doubles from 1 s to at most 30 s; with up to a quarter more
 * of jitter so that tabs limited together do not come back together. Pure.
 */
export interface RateLimitHint {
  /** `Retry-After`, in seconds. */
  retryAfterSeconds?: number;
  /** `X-RateLimit-Reset`: the epoch second the limit's window resets. */
  resetAtSeconds?: number;
}

/** How often a write is sent again after a 429 before its refusal is kept. */
export const RATE_LIMIT_ATTEMPTS = 6;
const BASE_MS = 1_000;
const MAX_MS = 30_000;

/**
 * Milliseconds to wait before attempt `attempt + 1` after the `attempt`-th 429 (1-based), or null
 * when the write should give up and show the refusal. `random` in [0, 1) draws the jitter.
 */
export function rateLimitDelay(
  attempt: number,
  hint: RateLimitHint,
  now: number,
  random: () => number = Math.random,
): number | null {
  if (attempt >= RATE_LIMIT_ATTEMPTS) return null;
  let wait: number;
  if (hint.retryAfterSeconds !== undefined && hint.retryAfterSeconds >= 0)
    wait = hint.retryAfterSeconds * 1000;
  else if (hint.resetAtSeconds !== undefined) wait = hint.resetAtSeconds * 1000 - now;
  else wait = BASE_MS * 2 ** (attempt - 1);
  wait = Math.min(Math.max(wait, BASE_MS / 4), MAX_MS * 2);
  return Math.round(wait * (1 + random() / 4));
}

/** The product's `RATE_LIMITED` message for a wait of `waitMs`: `Too many requests — retrying in 2s.` */
export function rateLimitMessage(waitMs: number): string {
  return `Too many requests — retrying in ${Math.max(1, Math.round(waitMs / 1000))}s.`;
}

/** The hint an `AppError`'s details carry (set where the response's headers were seen). */
export function hintOf(error: AppError): RateLimitHint {
  const details = error.details ?? {};
  const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const hint: RateLimitHint = {};
  const retryAfter = number(details.retryAfterSeconds);
  const resetAt = number(details.resetAtSeconds);
  if (retryAfter !== undefined) hint.retryAfterSeconds = retryAfter;
  if (resetAt !== undefined) hint.resetAtSeconds = resetAt;
  return hint;
}

/**
 * Runs `send`, and after each `RATE_LIMITED` refusal tells `onLimited` the refusal with the wait
 * in its message ({@link rateLimitMessage}; the desk shows it meanwhile), waits as
 * {@link rateLimitDelay} says and sends it again. Any other outcome, or the last refusal, is the
 * answer.
 */
export async function retryRateLimited<T>(
  send: () => Promise<T>,
  toError: (thrown: unknown) => AppError,
  onLimited: (error: AppError, waitMs: number) => void,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (thrown) {
      const error = toError(thrown);
      if (error.code !== 'RATE_LIMITED') throw error;
      const wait = rateLimitDelay(attempt, hintOf(error), Date.now());
      if (wait === null) throw error;
      onLimited(new AppError('RATE_LIMITED', rateLimitMessage(wait), error.details), wait);
      await sleep(wait);
    }
  }
}
