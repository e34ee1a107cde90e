import { describe, expect, it } from 'vitest';
import { isConnectionLoss, retryOnConnectionLoss } from './connection-loss.ts';

/** A fetch failure as undici gives it, caused by an error with `code`. */
function fetchFailed(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('closed'), { code }) });
}

describe('connection loss', () => {
  it('is a fetch failed on a closed socket, not an answer or another failure', () => {
    expect(isConnectionLoss(fetchFailed('UND_ERR_SOCKET'))).toBe(true);
    expect(isConnectionLoss(fetchFailed('ECONNRESET'))).toBe(true);
    expect(isConnectionLoss(fetchFailed('ECONNREFUSED'))).toBe(false);
    expect(isConnectionLoss(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isConnectionLoss(Object.assign(new Error('Document not found'), { code: 404 }))).toBe(
      false,
    );
  });

  it('reads again after a lost connection, at most the attempts given', async () => {
    let calls = 0;
    const flaky = () => (++calls < 3 ? Promise.reject(fetchFailed('UND_ERR_SOCKET')) : 'read');
    await expect(retryOnConnectionLoss(async () => flaky())).resolves.toBe('read');
    expect(calls).toBe(3);

    calls = 0;
    const lost = fetchFailed('ECONNRESET');
    await expect(retryOnConnectionLoss(() => (calls++, Promise.reject(lost)), 2)).rejects.toBe(
      lost,
    );
    expect(calls).toBe(2);
  });

  it('does not read again after an answer of the backend', async () => {
    let calls = 0;
    const answer = Object.assign(new Error('Document not found'), { code: 404 });
    await expect(retryOnConnectionLoss(() => (calls++, Promise.reject(answer)))).rejects.toBe(
      answer,
    );
    expect(calls).toBe(1);
  });
});
