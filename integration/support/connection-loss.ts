/** Connection errors that mean a request got no answer at all: its socket was closed under it. */
const LOST_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * Whether `error` is a fetch that failed because its connection was closed before any answer
 * (`TypeError: fetch failed`, caused by a closed socket) — not an answer of the backend.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return false;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' && LOST_CONNECTION_CODES.has(cause.code);
}

/**
 * Runs an idempotent read again (at most `attempts` times in all) when its connection was lost
 * before an answer, as a browser retries a request sent on a kept-alive connection the server
 * had closed. After a container backend is killed and started again, its port forwarder keeps
 * the test's idle connections open until they are used: the first request on each fails so.
 */
export async function retryOnConnectionLoss<T>(read: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= attempts || !isConnectionLoss(error)) throw error;
    }
  }
}
