import type { Clock } from '../core/clock.ts';

/**
 * A route's abuse limit, as Appwrite labels it (`abuse-limit`, `abuse-time`, `abuse-key`,
 * `abuse-reset`): at most `limit` requests per fixed window of `seconds`, counted per key.
 */
export interface AbuseLabel {
  limit: number;
  seconds: number;
  /** Key templates (`{url}`, `{ip}`, `{userId}`, `{method}`, `{chunkId}`, `{param-<name>}`); each is its own counter. */
  keys: readonly string[];
  /** Answer statuses after which the counters start again (email sessions: 201). */
  resetOn?: readonly number[];
}

const DEFAULT_KEY = 'url:{url},ip:{ip}';
const WRITE_KEY = 'ip:{ip},method:{method},url:{url},userId:{userId}';
/** Appwrite's `APP_LIMIT_WRITE_RATE_DEFAULT` per `APP_LIMIT_WRITE_RATE_PERIOD_DEFAULT` seconds. */
const WRITE_RATE = 60;
const WRITE_PERIOD = 60;
const DOCUMENTS = '/databases/:databaseId/collections/:collectionId/documents';
const FILES = '/storage/buckets/:bucketId/files';

/**
 * Appwrite 1.9.6's abuse labels of the routes the local backend serves, by `METHOD path` (the
 * route table's pattern below `/v1`). Routes not listed have no limit (and no headers), as
 * function executions and file updates on Appwrite.
 */
export const ABUSE_LABELS: Readonly<Record<string, AbuseLabel>> = {
  'POST /account': { limit: 10, seconds: 3600, keys: [DEFAULT_KEY] },
  'POST /account/sessions/email': {
    limit: 10,
    seconds: 3600,
    keys: ['url:{url},email:{param-email}'],
    resetOn: [201],
  },
  // Shared with the OAuth2 routes on Appwrite (same key, same counter).
  'POST /account/sessions/anonymous': { limit: 50, seconds: 3600, keys: ['ip:{ip}'] },
  'POST /account/jwts': {
    limit: WRITE_RATE * 2,
    seconds: WRITE_PERIOD,
    keys: ['url:{url},userId:{userId}'],
  },
  'PATCH /account/password': { limit: 10, seconds: 3600, keys: [DEFAULT_KEY] },
  'DELETE /account/sessions': { limit: 100, seconds: 3600, keys: [DEFAULT_KEY] },
  'DELETE /account/sessions/:sessionId': { limit: 100, seconds: 3600, keys: [DEFAULT_KEY] },
  [`POST ${DOCUMENTS}`]: { limit: WRITE_RATE * 2, seconds: WRITE_PERIOD, keys: [WRITE_KEY] },
  [`PUT ${DOCUMENTS}`]: { limit: WRITE_RATE * 2, seconds: WRITE_PERIOD, keys: [WRITE_KEY] },
  [`PATCH ${DOCUMENTS}`]: { limit: WRITE_RATE * 2, seconds: WRITE_PERIOD, keys: [WRITE_KEY] },
  [`DELETE ${DOCUMENTS}`]: { limit: WRITE_RATE, seconds: WRITE_PERIOD, keys: [WRITE_KEY] },
  [`PUT ${DOCUMENTS}/:documentId`]: {
    limit: WRITE_RATE * 2,
    seconds: WRITE_PERIOD,
    keys: [WRITE_KEY],
  },
  [`PATCH ${DOCUMENTS}/:documentId`]: {
    limit: WRITE_RATE * 2,
    seconds: WRITE_PERIOD,
    keys: [WRITE_KEY],
  },
  [`DELETE ${DOCUMENTS}/:documentId`]: {
    limit: WRITE_RATE,
    seconds: WRITE_PERIOD,
    keys: [WRITE_KEY],
  },
  [`PATCH ${DOCUMENTS}/:documentId/:attribute/increment`]: {
    limit: WRITE_RATE * 2,
    seconds: WRITE_PERIOD,
    keys: [WRITE_KEY],
  },
  [`PATCH ${DOCUMENTS}/:documentId/:attribute/decrement`]: {
    limit: WRITE_RATE * 2,
    seconds: WRITE_PERIOD,
    keys: [WRITE_KEY],
  },
  // Counted per chunk: each chunk of one upload has its own counter.
  [`POST ${FILES}`]: {
    limit: WRITE_RATE,
    seconds: WRITE_PERIOD,
    keys: [`${WRITE_KEY},chunkId:{chunkId}`],
  },
  [`DELETE ${FILES}/:fileId`]: { limit: WRITE_RATE, seconds: WRITE_PERIOD, keys: [WRITE_KEY] },
  'POST /teams/:teamId/memberships': { limit: 10, seconds: 3600, keys: [DEFAULT_KEY] },
};

/** What fills a key template's placeholders for one request. */
export interface AbuseRequest {
  /** Host name (no port) + `/v1` + the route's pattern: one counter covers every collection. */
  url: string;
  ip: string;
  /** The calling user's id ('' for guests and keys). */
  userId: string;
  method: string;
  /** `Content-Range` start / chunk size (0 without one). */
  chunkId: number;
  /** The request's params; non-empty ones fill `{param-<name>}` (arrays and objects as JSON). */
  params: Record<string, unknown>;
}

/** The counter keys of `label` for `request` (a placeholder with no value stays as written, as on Appwrite). */
export function abuseKeys(label: AbuseLabel, request: AbuseRequest): string[] {
  const values = new Map<string, string>([
    ['{url}', request.url],
    ['{ip}', request.ip],
    ['{userId}', request.userId],
    ['{method}', request.method],
    ['{chunkId}', String(request.chunkId)],
  ]);
  for (const [name, value] of Object.entries(request.params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    values.set(
      `{param-${name}}`,
      typeof value === 'object' ? JSON.stringify(value) : String(value as string | number),
    );
  }
  return label.keys.map((template) =>
    template.replace(
      /\{[A-Za-z0-9_-]+\}/g,
      (placeholder) => values.get(placeholder) ?? placeholder,
    ),
  );
}

/** The `X-RateLimit-*` headers of a limited route and whether the request is refused. */
export interface AbuseVerdict {
  headers: {
    'X-RateLimit-Limit': string;
    'X-RateLimit-Remaining': string;
    'X-RateLimit-Reset': string;
  };
  limited: boolean;
}

interface Counter {
  windowStart: number;
  /** When the window ends (Unix seconds). */
  windowEnd: number;
  count: number;
}

/** Counts between two sweeps of ended windows. */
const SWEEP_EVERY = 10_000;
/** Most counters kept: past it the oldest go first (a flood of distinct keys cannot grow memory without bound). */
const MAX_COUNTERS = 200_000;

/**
 * Appwrite's fixed-window abuse counters (utopia-php/abuse `TimeLimit`), in memory: a restart
 * starts every counter again. A window of `seconds` starts at `now - now % seconds`; a request is
 * refused (and not counted) once `limit` requests were counted in the window; `X-RateLimit-Remaining`
 * is `max(0, limit - (count + 1))` read before the request is counted, `X-RateLimit-Reset` the
 * window's end in Unix seconds.
 */
export class AbuseCounters {
  private readonly clock: Pick<Clock, 'now'>;
  private readonly counters = new Map<string, Counter>();
  private sinceSweep = 0;

  constructor(clock: Pick<Clock, 'now'>) {
    this.clock = clock;
  }

  private windowStart(seconds: number): number {
    const now = Math.floor(this.clock.now() / 1000);
    return now - (now % seconds);
  }

  private count(key: string, windowStart: number): number {
    const counter = this.counters.get(key);
    return counter && counter.windowStart === windowStart ? counter.count : 0;
  }

  /**
   * The verdict for one request under `label` with `keys` (one counter each; the closest to its
   * limit sets the headers). With `enforce`, requests under the limit are counted and one over it
   * is `limited`; without (API keys, abuse disabled), nothing is counted and nothing refused.
   */
  check(label: AbuseLabel, keys: readonly string[], enforce: boolean): AbuseVerdict {
    const windowStart = this.windowStart(label.seconds);
    const counts = keys.map((key) => this.count(key, windowStart));
    const remaining = Math.max(0, label.limit - (Math.max(...counts) + 1));
    const headers = {
      'X-RateLimit-Limit': String(label.limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(windowStart + label.seconds),
    };
    if (!enforce) return { headers, limited: false };
    if (counts.some((count) => count >= label.limit)) return { headers, limited: true };
    const windowEnd = windowStart + label.seconds;
    keys.forEach((key, i) => {
      // Re-inserted, so the map stays ordered from the least to the most recently counted.
      this.counters.delete(key);
      this.counters.set(key, { windowStart, windowEnd, count: counts[i]! + 1 });
    });
    this.sweep();
    return { headers, limited: false };
  }

  /** Starts the counters of `keys` again (a route's `abuse-reset` status was answered). */
  reset(keys: readonly string[]): void {
    for (const key of keys) this.counters.delete(key);
  }

  /** Drops counters of windows that are over (they would read as 0 anyway), and the oldest past the cap. */
  private sweep(): void {
    if (++this.sinceSweep < SWEEP_EVERY && this.counters.size <= MAX_COUNTERS) return;
    this.sinceSweep = 0;
    const now = Math.floor(this.clock.now() / 1000);
    for (const [key, counter] of this.counters)
      if (counter.windowEnd <= now) this.counters.delete(key);
    if (this.counters.size <= MAX_COUNTERS) return;
    // Down to 90 % of the cap, so that a flood does not sweep on every request.
    for (const key of this.counters.keys()) {
      if (this.counters.size <= MAX_COUNTERS * 0.9) break;
      this.counters.delete(key);
    }
  }

  /** How many counters are kept (for tests). */
  get size(): number {
    return this.counters.size;
  }
}
