import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Backend } from '../backend.ts';
import { ApiError } from '../core/errors.ts';

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
