import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** A stored Stripe object: its public JSON and what only the double knows about it. */
export interface StoredObject<T, I = Record<string, unknown>> {
  data: T;
  internal: I;
}

/** A response saved for an idempotency key. */
export interface SavedResponse {
  method: string;
  path: string;
  fingerprint: string;
  status: number;
  body: string;
}

/**
 * A webhook delivery waiting in the queue: event and endpoint ids, the attempt to make next, and
 * when (ms since the epoch; null while held for a flush). `seq` orders and names it.
 */
export interface QueuedDelivery {
  seq: number;
  event: string;
  endpoint: string;
  attempt: number;
  due: number | null;
}

/**
 * The Stripe doubles' state in one SQLite file (`stripe.sqlite` in the data folder), so that a
 * restart of the backend keeps every PaymentIntent an order references. Objects are kept as
 * JSON by id, in creation order (`seq`), with their type for lists; the webhook delivery queue
 * is kept beside them, so that a crash loses no delivery.
 */
export class StripeStore {
  private readonly db: DatabaseSync;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new DatabaseSync(join(dataDir, 'stripe.sqlite'));
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS objects (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        parent TEXT,
        data TEXT NOT NULL,
        internal TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS objects_type ON objects (type, seq);
      CREATE INDEX IF NOT EXISTS objects_parent ON objects (parent, seq);
      CREATE TABLE IF NOT EXISTS idempotency (
        key TEXT PRIMARY KEY,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        created INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS webhook_deliveries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        due INTEGER
      );
      CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint, seq);
      CREATE TABLE IF NOT EXISTS webhook_delivered (
        event TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        PRIMARY KEY (event, endpoint)
      );
    `);
  }

  /** Stores a new object; `parent` groups it for lists (a refund's PaymentIntent). */
  insert<T extends { id: string; object: string }>(
    data: T,
    internal: object = {},
    parent: string | null = null,
  ): void {
    this.db
      .prepare('INSERT INTO objects (id, type, parent, data, internal) VALUES (?, ?, ?, ?, ?)')
      .run(data.id, data.object, parent, JSON.stringify(data), JSON.stringify(internal));
  }

  /** Replaces an object's JSON (and, if given, its internal part). */
  update<T extends { id: string }>(data: T, internal?: object): void {
    if (internal === undefined) {
      this.db
        .prepare('UPDATE objects SET data = ? WHERE id = ?')
        .run(JSON.stringify(data), data.id);
    } else {
      this.db
        .prepare('UPDATE objects SET data = ?, internal = ? WHERE id = ?')
        .run(JSON.stringify(data), JSON.stringify(internal), data.id);
    }
  }

  /** The object with `id` if it is of `type`. */
  get<T, I = Record<string, unknown>>(type: string, id: string): StoredObject<T, I> | undefined {
    const row = this.db
      .prepare('SELECT data, internal FROM objects WHERE id = ? AND type = ?')
      .get(id, type) as { data: string; internal: string } | undefined;
    return row && { data: JSON.parse(row.data) as T, internal: JSON.parse(row.internal) as I };
  }

  /**
   * Objects of `type`, newest first, as Stripe lists them: at most `limit`, after the cursor
   * object `startingAfter` (or before `endingBefore`), optionally only those of `parent`.
   */
  list<T>(
    type: string,
    options: {
      limit: number;
      startingAfter?: string;
      endingBefore?: string;
      parent?: string;
      where?: (data: T) => boolean;
    },
  ): { data: T[]; hasMore: boolean } {
    const cursor = (id: string | undefined) =>
      id === undefined
        ? undefined
        : (
            this.db.prepare('SELECT seq FROM objects WHERE id = ? AND type = ?').get(id, type) as
              { seq: number } | undefined
          )?.seq;
    const after = cursor(options.startingAfter);
    const before = cursor(options.endingBefore);
    const rows = this.db
      .prepare(
        `SELECT data FROM objects WHERE type = ?
           AND (? IS NULL OR parent = ?)
           AND (? IS NULL OR seq < ?)
           AND (? IS NULL OR seq > ?)
         ORDER BY seq ${before === undefined ? 'DESC' : 'ASC'}`,
      )
      .iterate(
        type,
        options.parent ?? null,
        options.parent ?? null,
        after ?? null,
        after ?? null,
        before ?? null,
        before ?? null,
      ) as Iterable<{ data: string }>;
    const found: T[] = [];
    let hasMore = false;
    for (const row of rows) {
      const data = JSON.parse(row.data) as T;
      if (options.where && !options.where(data)) continue;
      if (found.length === options.limit) {
        hasMore = true;
        break;
      }
      found.push(data);
    }
    if (before !== undefined) found.reverse();
    return { data: found, hasMore };
  }

  /** Every object of `type` whose internal part `filter` accepts (for resuming timers). */
  scan<T, I>(type: string, filter: (internal: I) => boolean): StoredObject<T, I>[] {
    const rows = this.db
      .prepare('SELECT data, internal FROM objects WHERE type = ? ORDER BY seq')
      .all(type) as { data: string; internal: string }[];
    return rows
      .map((row) => ({ data: JSON.parse(row.data) as T, internal: JSON.parse(row.internal) as I }))
      .filter((object) => filter(object.internal));
  }

  /** The response saved for an idempotency key, if any. */
  savedResponse(key: string): SavedResponse | undefined {
    return this.db
      .prepare('SELECT method, path, fingerprint, status, body FROM idempotency WHERE key = ?')
      .get(key) as SavedResponse | undefined;
  }

  /** Saves the response of the first request with `key`. */
  saveResponse(key: string, response: SavedResponse): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO idempotency (key, method, path, fingerprint, status, body, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        key,
        response.method,
        response.path,
        response.fingerprint,
        response.status,
        response.body,
        Date.now(),
      );
  }

  /**
   * Queues a delivery of event `event` to endpoint `endpoint`: attempt `attempt` at `due` (ms
   * since the epoch), or held until a flush when `due` is null. Returns it with its `seq`.
   */
  queueDelivery(delivery: Omit<QueuedDelivery, 'seq'>): QueuedDelivery {
    const result = this.db
      .prepare('INSERT INTO webhook_deliveries (event, endpoint, attempt, due) VALUES (?, ?, ?, ?)')
      .run(delivery.event, delivery.endpoint, delivery.attempt, delivery.due);
    return { ...delivery, seq: Number(result.lastInsertRowid) };
  }

  /** The queued deliveries that are not held (`due` set), oldest first. */
  dueDeliveries(): QueuedDelivery[] {
    return this.db
      .prepare(
        'SELECT seq, event, endpoint, attempt, due FROM webhook_deliveries WHERE due IS NOT NULL ORDER BY seq',
      )
      .all() as unknown as QueuedDelivery[];
  }

  /** The deliveries held for `endpoint` (`due` null), oldest first. */
  heldDeliveries(endpoint: string): QueuedDelivery[] {
    return this.db
      .prepare(
        'SELECT seq, event, endpoint, attempt, due FROM webhook_deliveries WHERE endpoint = ? AND due IS NULL ORDER BY seq',
      )
      .all(endpoint) as unknown as QueuedDelivery[];
  }

  /** Sets the next attempt of a queued delivery (`due` null holds it again). */
  rescheduleDelivery(seq: number, attempt: number, due: number | null): void {
    this.db
      .prepare('UPDATE webhook_deliveries SET attempt = ?, due = ? WHERE seq = ?')
      .run(attempt, due, seq);
  }

  /** Removes a delivery from the queue (delivered, or given up). */
  removeDelivery(seq: number): void {
    this.db.prepare('DELETE FROM webhook_deliveries WHERE seq = ?').run(seq);
  }

  /** Records that `event` reached `endpoint`; true the first time only. */
  markDelivered(event: string, endpoint: string): boolean {
    const result = this.db
      .prepare('INSERT OR IGNORE INTO webhook_delivered (event, endpoint) VALUES (?, ?)')
      .run(event, endpoint);
    return Number(result.changes) === 1;
  }

  /** Runs `work` in one transaction (all its writes or none). */
  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }
}
