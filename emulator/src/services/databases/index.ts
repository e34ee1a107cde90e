import type { BackendModule } from '../../backend.ts';
import { routes } from './routes.ts';
import { DatabasesStore } from './store.ts';

/**
 * The Databases service (legacy `/v1/databases` API, as node-appwrite 27.1 and appwrite 26.2 call
 * it): databases, collections, attributes (string, email, enum, integer, float, boolean,
 * datetime), indexes (key, unique, fulltext) and documents with Appwrite's query language,
 * permissions, validation messages and realtime events.
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
 * - Not implemented: transactions (`transactionId` is refused with `general_not_implemented`),
 *   bulk update/upsert/delete, relationship/url/ip/bigint/text/spatial attributes
 *   (`ATTRIBUTE_TYPE_NOT_SUPPORTED`), list caching (`ttl` is ignored), `elemMatch`, geo and
 *   vector queries, the TablesDB (`/tablesdb`) family.
 * - Integers in request bodies pass through `JSON.parse`, so values beyond 2^53 lose precision
 *   on input (queries keep them exact); stored values beyond 2^53 are returned exactly.
 */
export const databasesModule: BackendModule<'databases'> = {
  name: 'databases',
  store: (backend) => new DatabasesStore(backend),
  routes,
};
