import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Backend, BackendModule } from '../../backend.ts';
import { ApiError } from '../../core/errors.ts';
import { readBody } from '../../http/server.ts';
import { allowSwitch, answerJson } from '../../http/switches.ts';
import { routes } from './routes.ts';
import { DatabasesStore } from './store.ts';

/** The test-only switch that stops the next commit half-way (outside `/v1`, bootstrap key only). */
export const PAUSE_COMMIT_PATH = '/_emulator/databases/pause-commit';

/** How often expired transactions are looked for (Appwrite's maintenance runs daily). */
const PURGE_EVERY_MS = 3600 * 1000;

/**
 * `POST /_emulator/databases/pause-commit` with `X-Appwrite-Key: <bootstrap key>` and
 * `{"afterOperations": n, "seconds": s}`: the next commit of more than n operations stops the
 * process inside its SQLite transaction after applying n of them, for s seconds (for tests that
 * kill the backend mid-commit), printing `commit of transaction <id> paused after n of m operations`.
 */
function pauseSwitch(backend: Backend, store: DatabasesStore) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== PAUSE_COMMIT_PATH || req.method !== 'POST') return false;
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse((await readBody(req, 4096)).toString('utf8') || '{}') as Record<
        string,
        unknown
      >;
    } catch {
      // answered below
    }
    if (!allowSwitch(backend, req, res)) return true;
    const after = body?.afterOperations;
    const seconds = body?.seconds ?? 30;
    if (
      typeof after !== 'number' ||
      !Number.isInteger(after) ||
      after < 1 ||
      typeof seconds !== 'number' ||
      !(seconds > 0 && seconds <= 600)
    ) {
      const refusal = new ApiError(
        'general_argument_invalid',
        'Send {"afterOperations": n ≥ 1, "seconds": 0 < s ≤ 600}.',
      );
      answerJson(res, 400, refusal.toBody());
      return true;
    }
    store.transactions.pauseNextCommit(after, seconds);
    answerJson(res, 200, { armed: true });
    return true;
  };
}

/**
 * The Databases service (legacy `/v1/databases` API, as node-appwrite 27.1 and appwrite 26.2 call
 * it): databases, collections, attributes (string, email, enum, integer, float, boolean,
 * datetime), indexes (key, unique, fulltext), documents with Appwrite's query language,
 * permissions, validation messages and realtime events, bulk writes (create, upsert, and update
 * and delete by query), and transactions (`/v1/databases/transactions` and
 * `/v1/tablesdb/transactions`, see `transactions.ts`).
 *
 * Storage: one SQLite table per collection with a column per attribute, a SQL index per
 * key/unique index, an FTS5 table per fulltext index and a permissions side table (see
 * `catalog.ts`); queries compile to SQL with bound parameters (`queries-sql.ts`).
 *
 * Differences from Appwrite 1.9.6, on purpose or by omission:
 * - attribute and index creation answer 202 like Appwrite but report `status: "available"` at
 *   once (the column or index exists when the request returns; Appwrite says `processing`
 *   until its worker is done). A unique index over duplicate values is `failed` at once.
 * - `limit` is capped at 5,000 (Appwrite 1.9.6's document lists have no cap).
 * - `$sequence` is a string, as in response format ≥ 1.9.0 and the pinned SDKs' models (the 1.8
 *   OpenAPI spec says integer).
 * - Text comparisons (`equal`, `startsWith`, `contains`…) are case-sensitive (as on Appwrite's
 *   default MongoDB; MariaDB compares case-insensitively). `search` uses FTS5 with MariaDB's
 *   boolean-mode semantics: words are OR'ed and the last one is a prefix; `"…"` is a phrase.
 * - Not implemented: relationship/url/ip/bigint/text/spatial attributes
 *   (`ATTRIBUTE_TYPE_NOT_SUPPORTED`), list caching (`ttl` is ignored), `elemMatch`, geo and
 *   vector queries, operators in update data, the TablesDB (`/tablesdb`) family but for its
 *   transactions.
 * - Integers in request bodies pass through `JSON.parse`, so values beyond 2^53 lose precision
 *   on input (queries keep them exact); stored values beyond 2^53 are returned exactly.
 */
export const databasesModule: BackendModule<'databases'> = {
  name: 'databases',
  store: (backend) => new DatabasesStore(backend),
  routes,
  attach: (backend, store) => {
    store.transactions.purgeExpired();
    const timer = setInterval(() => store.transactions.purgeExpired(), PURGE_EVERY_MS);
    timer.unref();
    backend.httpFallbacks.push(pauseSwitch(backend, store));
    return () => clearInterval(timer);
  },
};
