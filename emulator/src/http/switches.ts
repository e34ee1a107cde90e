import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Backend } from '../backend.ts';
import { ApiError } from '../core/errors.ts';
import { readBody } from './server.ts';

/** Answers a JSON body outside `/v1` (test switches, function domains). */
export function answerJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

/**
 * Whether a test switch (`/_emulator/…`) may run: only with the bootstrap key in
 * `X-Appwrite-Key`. Otherwise answers 401 and returns false.
 */
export function allowSwitch(backend: Backend, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers['x-appwrite-key'] === backend.config.apiKey) return true;
  const refusal = new ApiError('general_unauthorized_scope', 'The bootstrap API key is required.');
  answerJson(res, 401, refusal.toBody());
  return false;
}

/** Path of the test switch that moves the backend's {@link Backend.clock} forward. */
export const CLOCK_PATH = '/_emulator/clock';

/**
 * `POST /_emulator/clock` with `X-Appwrite-Key: <bootstrap key>` and `{"advanceSeconds": n}`
 * moves the clock of expiries and rate-limit windows forward and answers `{now}` (ISO).
 */
export function clockSwitch(backend: Backend) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== CLOCK_PATH || req.method !== 'POST') return false;
    let seconds: unknown = null;
    try {
      const body = (await readBody(req, 4096)).toString('utf8');
      seconds = (JSON.parse(body || '{}') as Record<string, unknown> | null)?.advanceSeconds;
    } catch {
      // answered below
    }
    if (!allowSwitch(backend, req, res)) return true;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
      const refusal = new ApiError(
        'general_argument_invalid',
        'Send {"advanceSeconds": n} with n ≥ 0.',
      );
      answerJson(res, 400, refusal.toBody());
      return true;
    }
    backend.clock.advance(seconds * 1000);
    answerJson(res, 200, { now: new Date(backend.clock.now()).toISOString() });
    return true;
  };
}
