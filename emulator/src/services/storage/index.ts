import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Backend, BackendModule } from '../../backend.ts';
import { allowSwitch, answerJson } from '../../http/switches.ts';
import { routes } from './routes.ts';
import { StorageStore } from './store.ts';

/** The test switch that answers where uploads' time went (outside `/v1`, bootstrap key only). */
export const TIMINGS_PATH = '/_emulator/storage/timings';

/**
 * `GET /_emulator/storage/timings` with `X-Appwrite-Key: <bootstrap key>` → the chunks' waits
 * between their body's last byte and their answer, and the uploads' finishes, since the last call
 * (`TimingsReport`; bench:storage reads it after each upload).
 */
function timingsSwitch(backend: Backend, store: StorageStore) {
  return (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== TIMINGS_PATH || req.method !== 'GET') return Promise.resolve(false);
    if (allowSwitch(backend, req, res)) answerJson(res, 200, store.timings.take());
    return Promise.resolve(true);
  };
}

/** How long an unfinished upload is kept by default (seconds): `BACKEND_STORAGE_UPLOAD_TTL_SECONDS`. */
const DEFAULT_UPLOAD_TTL_SECONDS = 3600;

/** The time an unfinished upload is kept, from the environment (a readable error when invalid). */
export function uploadTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BACKEND_STORAGE_UPLOAD_TTL_SECONDS;
  if (raw === undefined || raw === '') return DEFAULT_UPLOAD_TTL_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(`BACKEND_STORAGE_UPLOAD_TTL_SECONDS must be a positive number, got "${raw}"`);
  return seconds * 1000;
}

async function sweep(store: StorageStore, ttlMs: number, atStart: boolean): Promise<void> {
  const result = await store.sweep(Date.now(), ttlMs, atStart);
  if (result.uploads + result.orphans > 0)
    console.log(
      `[storage] removed ${result.uploads} unfinished upload(s) older than ${ttlMs / 1000} s and ${result.orphans} unreferenced file(s)`,
    );
}

/**
 * The Storage service: buckets (API keys) and files (create in one request or 5 MiB chunks, get,
 * list, update, delete, download, view, preview) with Appwrite 1.9's rules, permissions and
 * events. Unfinished uploads are removed after `BACKEND_STORAGE_UPLOAD_TTL_SECONDS` (default
 * 1 h): a sweep at start, then every tenth of that time (at most every 5 minutes).
 */
export const storageModule: BackendModule<'storage'> = {
  name: 'storage',
  store: (backend) => new StorageStore(backend),
  routes,
  attach: (backend, store) => {
    backend.httpFallbacks.push(timingsSwitch(backend, store));
    const ttlMs = uploadTtlMs();
    const report = (error: unknown) => console.error('[storage] sweep failed', error);
    sweep(store, ttlMs, true).catch(report);
    const timer = setInterval(
      () => sweep(store, ttlMs, false).catch(report),
      Math.min(ttlMs / 10, 5 * 60_000),
    );
    timer.unref();
    return async () => {
      clearInterval(timer);
      await store.close();
    };
  },
};
