import type { Backend } from '../../backend.ts';
import { ApiError } from '../../core/errors.ts';
import { uniqueId } from '../../core/ids.ts';
import { parseQueries } from '../../core/queries.ts';
import { formatDate, now } from '../../core/time.ts';
import { documentModel } from './documents.ts';
import { BULK_ACTIONS, type OperationAction, type OperationInput } from './operations.ts';
import { bulkDocument, permissionsParam } from './params.ts';
import type { Caller, DatabasesStore, DocumentChange, DocumentTarget } from './store.ts';

/** Appwrite's `APP_LIMIT_DATABASE_TRANSACTION`: operations one transaction may hold. */
export const TRANSACTION_LIMIT = 100;
/** `ttl` bounds and default, in seconds (`APP_DATABASE_TXN_TTL_*`). */
export const TTL_MIN = 60;
export const TTL_MAX = 3600;
export const TTL_DEFAULT = 300;
/** How long an expired transaction is kept before it is deleted (Appwrite's maintenance interval). */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;
/** Appwrite's message, with its non-breaking hyphen (U+2011). */
const NOT_PENDING = 'Invalid or non‑pending transaction';

/** A transaction's state: `pending` → `committing` → `committed` | `failed` (rollback writes `failed`). */
export type TransactionStatus = 'pending' | 'committing' | 'committed' | 'failed';

/** A stored transaction. */
export interface TransactionRecord {
  seq: number;
  id: string;
  /** The user who created it (null: an API key or a guest — then only API keys see it). */
  owner: string | null;
  status: TransactionStatus;
  operations: number;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

/** A staged operation as logged: what {@link OperationInput} holds, and when it was staged. */
export interface LoggedOperation extends OperationInput {
  stagedAt: string;
}

/**
 * How a document route refuses a transaction it cannot stage into (Appwrite's routes differ):
 * `document` — create, update, upsert, delete: 404 / 400 `transaction_not_ready` / 410;
 * `counter` — increment, decrement: 400 "Invalid or non‑pending transaction" / 410;
 * `bulk` — bulk update, upsert, delete: 400 "Invalid or non‑pending transaction", no expiry check.
 */
export type StagingRoute = 'document' | 'counter' | 'bulk';

type Row = Record<string, unknown>;

function recordOf(row: Row): TransactionRecord {
  return {
    seq: Number(row.seq),
    id: String(row.id),
    owner: (row.owner as string | null) ?? null,
    status: row.status as TransactionStatus,
    operations: Number(row.operations),
    expiresAt: String(row.expires_at),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

/** Appwrite's Transaction model. */
export function transactionModel(record: TransactionRecord): Record<string, unknown> {
  return {
    $id: record.id,
    $createdAt: record.createdAt,
    $updatedAt: record.updatedAt,
    status: record.status,
    operations: record.operations,
    expiresAt: record.expiresAt,
  };
}

/** The `$permissions` of a document's data, validated and formatted (null: none given). */
function permissionsOf(data: unknown): string[] | null {
  const value = (data as Record<string, unknown> | null)?.$permissions;
  return value === undefined || value === null ? null : permissionsParam(value);
}

/** Thrown to undo a {@link Transactions.withStaged} read. */
class Undo {
  readonly result: unknown;

  constructor(result: unknown) {
    this.result = result;
  }
}

/**
 * Appwrite 1.9's database transactions: staged operations kept in SQLite, replayed in order
 * inside one SQLite transaction on commit (an acknowledged commit survives `kill -9`; a crash
 * during it applies nothing), with conflict detection (a document changed after an operation on
 * it was staged, and not touched earlier in the transaction, fails the commit with 409
 * `transaction_conflict`; increments are not checked), events after the commit only, and reads
 * that see the staged operations.
 *
 * Differences from Appwrite, on purpose: a transaction's staged data is seen through
 * `transactionId` only by its owner and API keys (Appwrite lets any caller who knows the id read
 * through it); `unique()` as an operation's document id becomes a new id (Appwrite stores the
 * literal); events of a transaction carry each document as committed, as on Appwrite, but
 * increments' events too.
 */
export class Transactions {
  private readonly backend: Backend;
  private readonly databases: DatabasesStore;
  /** Test switch: the next commit stops after this many operations, for `seconds`. */
  private pause: { afterOperations: number; seconds: number } | null = null;

  constructor(backend: Backend, databases: DatabasesStore) {
    this.backend = backend;
    this.databases = databases;
    backend.store.sql.exec(`
      CREATE TABLE IF NOT EXISTS db_transactions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, owner TEXT,
        status TEXT NOT NULL, operations INTEGER NOT NULL DEFAULT 0, expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS db_transaction_logs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, transaction_seq INTEGER NOT NULL,
        action TEXT NOT NULL, database_id TEXT NOT NULL, collection_id TEXT NOT NULL,
        document_id TEXT, data TEXT NOT NULL, staged_at TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS db_transaction_logs_tx ON db_transaction_logs (transaction_seq, seq);
    `);
  }

  private get sql() {
    return this.backend.store;
  }

  /** Whether the transaction has expired, by the backend's clock. */
  private expired(record: TransactionRecord): boolean {
    return this.backend.clock.now() > Date.parse(record.expiresAt);
  }

  private static visibleTo(record: TransactionRecord, caller: Caller): boolean {
    return caller.isKey || (record.owner !== null && record.owner === caller.userId);
  }

  /** The transaction `id` if the caller may see it (its owner, or an API key), else null. */
  find(id: string, caller: Caller): TransactionRecord | null {
    const row = this.sql.prepare('SELECT * FROM db_transactions WHERE id = ?').get(id) as
      Row | undefined;
    if (!row) return null;
    const record = recordOf(row);
    return Transactions.visibleTo(record, caller) ? record : null;
  }

  /** The transaction `id`, or 404 `transaction_not_found` (also for another user's). */
  get(id: string, caller: Caller): TransactionRecord {
    const record = this.find(id, caller);
    if (!record) throw new ApiError('transaction_not_found', null, [id]);
    return record;
  }

  /** The transactions the caller may see. */
  list(caller: Caller): TransactionRecord[] {
    const rows = (
      caller.isKey
        ? this.sql.prepare('SELECT * FROM db_transactions ORDER BY seq').all()
        : this.sql
            .prepare('SELECT * FROM db_transactions WHERE owner = ? ORDER BY seq')
            .all(caller.userId ?? '')
    ) as Row[];
    return rows.map(recordOf);
  }

  /** Opens a transaction that expires `ttl` seconds from now. */
  create(ttl: number, caller: Caller): TransactionRecord {
    const time = now();
    const id = uniqueId();
    this.sql
      .prepare(
        `INSERT INTO db_transactions (id, owner, status, operations, expires_at, created_at, updated_at)
         VALUES (?, ?, 'pending', 0, ?, ?, ?)`,
      )
      .run(
        id,
        caller.isKey ? null : caller.userId,
        formatDate(this.backend.clock.now() + ttl * 1000),
        time,
        time,
      );
    return this.get(id, { ...caller, isKey: true });
  }

  /** Deletes a transaction (in any state) with its staged operations. */
  delete(record: TransactionRecord): void {
    this.sql.transaction(() => {
      this.sql.prepare('DELETE FROM db_transaction_logs WHERE transaction_seq = ?').run(record.seq);
      this.sql.prepare('DELETE FROM db_transactions WHERE seq = ?').run(record.seq);
    });
  }

  /** Deletes transactions expired for more than a day, as Appwrite's maintenance does. */
  purgeExpired(): void {
    const limit = formatDate(this.backend.clock.now() - KEEP_EXPIRED_MS);
    this.sql.transaction(() => {
      this.sql
        .prepare(
          'DELETE FROM db_transaction_logs WHERE transaction_seq IN (SELECT seq FROM db_transactions WHERE expires_at < ?)',
        )
        .run(limit);
      this.sql.prepare('DELETE FROM db_transactions WHERE expires_at < ?').run(limit);
    });
  }

  private setStatus(record: TransactionRecord, status: TransactionStatus): TransactionRecord {
    const time = now();
    this.sql
      .prepare('UPDATE db_transactions SET status = ?, updated_at = ? WHERE seq = ?')
      .run(status, time, record.seq);
    return { ...record, status, updatedAt: time };
  }

  private logs(record: TransactionRecord): LoggedOperation[] {
    const rows = this.sql
      .prepare('SELECT * FROM db_transaction_logs WHERE transaction_seq = ? ORDER BY seq')
      .all(record.seq) as Row[];
    return rows.map((row) => ({
      action: row.action as OperationAction,
      databaseId: String(row.database_id),
      collectionId: String(row.collection_id),
      documentId: (row.document_id as string | null) ?? null,
      data: JSON.parse(String(row.data)) as unknown,
      stagedAt: String(row.staged_at),
    }));
  }

  // ── staging ──────────────────────────────────────────────────────────────

  /**
   * The pending transaction operations may be added to, checked as `createOperations` checks
   * it: 404, 400 "Invalid or non‑pending transaction", 410 `transaction_expired`, 400
   * `transaction_limit_exceeded` for more than 100 operations in all.
   */
  forOperations(id: string, caller: Caller, adding: number): TransactionRecord {
    const record = this.get(id, caller);
    if (record.status !== 'pending') throw new ApiError('general_bad_request', NOT_PENDING);
    if (this.expired(record)) throw new ApiError('transaction_expired');
    this.checkLimit(record, adding);
    return record;
  }

  /** The pending transaction a document route stages one operation into (see {@link StagingRoute}). */
  forRoute(id: string, caller: Caller, route: StagingRoute): TransactionRecord {
    const record = this.find(id, caller);
    if (route === 'document') {
      if (!record) throw new ApiError('transaction_not_found', null, [id]);
      if (record.status !== 'pending') throw new ApiError('transaction_not_ready');
    } else if (!record || record.status !== 'pending') {
      throw new ApiError('general_bad_request', NOT_PENDING);
    }
    if (route !== 'bulk' && this.expired(record)) throw new ApiError('transaction_expired');
    this.checkLimit(record, 1);
    return record;
  }

  private checkLimit(record: TransactionRecord, adding: number): void {
    if (record.operations + adding > TRANSACTION_LIMIT)
      throw new ApiError(
        'transaction_limit_exceeded',
        `Transaction already has ${record.operations} operations, adding ${adding} would exceed the maximum of ${TRANSACTION_LIMIT}`,
      );
  }

  /**
   * Appends operations to a pending transaction; `counted` is how many they count for (a route's
   * bulk call counts as one). Validates the `$permissions` they carry.
   */
  stage(record: TransactionRecord, operations: OperationInput[], counted = operations.length) {
    for (const operation of operations) {
      if (operation.action === 'bulkCreate' || operation.action === 'bulkUpsert') {
        for (const document of operation.data as unknown[]) bulkDocument(document as Row);
      } else if (operation.action === 'bulkUpdate') {
        permissionsOf((operation.data as Row).data);
        parseQueries((operation.data as Row).queries);
      } else if (operation.action === 'bulkDelete') {
        parseQueries((operation.data as Row).queries);
      } else {
        permissionsOf(operation.data);
      }
    }
    const stagedAt = now();
    const time = now();
    this.sql.transaction(() => {
      const insert = this.sql.prepare(
        `INSERT INTO db_transaction_logs (transaction_seq, action, database_id, collection_id, document_id, data, staged_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const operation of operations)
        insert.run(
          record.seq,
          operation.action,
          operation.databaseId,
          operation.collectionId,
          operation.documentId,
          JSON.stringify(operation.data ?? {}),
          stagedAt,
        );
      this.sql
        .prepare(
          'UPDATE db_transactions SET operations = operations + ?, updated_at = ? WHERE seq = ?',
        )
        .run(counted, time, record.seq);
    });
    return this.get(record.id, { isKey: true, userId: null, roles: new Set() });
  }

  /**
   * Runs `read` over the committed data with the staged operations of transaction `id` applied
   * (then undone): what a read with `transactionId` sees. An unknown, finished or foreign
   * transaction leaves the committed data, as Appwrite falls back silently.
   */
  read<T>(id: string | null, caller: Caller, read: () => T): T {
    const record = id ? this.find(id, caller) : null;
    if (!record || record.status !== 'pending') return read();
    return this.withStaged(record, read);
  }

  /** {@link read} for a transaction already found. */
  withStaged<T>(record: TransactionRecord, read: () => T): T {
    const key: Caller = { isKey: true, userId: null, roles: new Set(['any']) };
    try {
      this.sql.transaction(() => {
        this.databases.captureChanges(() => {
          for (const operation of this.logs(record)) {
            // An operation that cannot apply (yet) is left out of the view, not an error.
            this.sql.sql.exec('SAVEPOINT staged_op');
            try {
              this.apply(operation, key, null);
              this.sql.sql.exec('RELEASE staged_op');
            } catch {
              this.sql.sql.exec('ROLLBACK TO staged_op; RELEASE staged_op');
            }
          }
        });
        throw new Undo(read());
      });
    } catch (error) {
      if (error instanceof Undo) return error.result as T;
      throw error;
    }
    throw new Error('unreachable');
  }

  // ── commit and rollback ──────────────────────────────────────────────────

  /** The transaction a commit or rollback acts on: 404, 400 `transaction_not_ready`, 410. */
  forDecision(id: string, caller: Caller): TransactionRecord {
    const record = this.get(id, caller);
    if (record.status !== 'pending') throw new ApiError('transaction_not_ready');
    if (this.expired(record)) throw new ApiError('transaction_expired');
    return record;
  }

  /** Rolls back: nothing applied, status `failed`, staged operations deleted. */
  rollback(record: TransactionRecord): TransactionRecord {
    return this.sql.transaction(() => {
      this.sql.prepare('DELETE FROM db_transaction_logs WHERE transaction_seq = ?').run(record.seq);
      return this.setStatus(record, 'failed');
    });
  }

  /**
   * Commits: `committing` (made durable first), then every staged operation in order inside one
   * SQLite transaction together with the status `committed`, then one event per single-document
   * operation (upsert as `.update`; bulk operations none). A failure applies nothing and leaves
   * `failed` (409 `transaction_conflict` for a conflict or a duplicate); a permission refused
   * during the replay leaves `committing`, as on Appwrite.
   */
  commit(record: TransactionRecord, caller: Caller): TransactionRecord {
    const operations = this.logs(record);
    if (operations.length === 0) return this.setStatus(record, 'committed');
    let current = this.setStatus(record, 'committing');
    // `committing` survives a crash during the replay (a retried commit then answers 400).
    this.sql.commitGroup();
    let changes: DocumentChange[];
    try {
      changes = this.sql.transaction(() => {
        const touched = new Set<string>();
        const events: DocumentChange[] = [];
        operations.forEach((operation, index) => {
          const captured = this.databases.captureChanges(() =>
            this.apply(operation, caller, touched),
          ).changes;
          if (!BULK_ACTIONS.has(operation.action)) events.push(...captured);
          this.pauseIfAsked(record, index + 1, operations.length);
        });
        this.sql
          .prepare('DELETE FROM db_transaction_logs WHERE transaction_seq = ?')
          .run(record.seq);
        current = this.setStatus(current, 'committed');
        return events;
      });
    } catch (error) {
      throw this.failed(current, error);
    }
    for (const change of this.afterCommit(changes)) this.backend.publish(change);
    return current;
  }

  /** Marks a failed commit and turns its error into Appwrite's answer. */
  private failed(record: TransactionRecord, error: unknown): unknown {
    if (!(error instanceof ApiError)) {
      this.setStatus(record, 'failed');
      return error;
    }
    if (error.type === 'user_unauthorized') return error;
    this.sql.transaction(() => {
      this.sql.prepare('DELETE FROM db_transaction_logs WHERE transaction_seq = ?').run(record.seq);
      this.setStatus(record, 'failed');
    });
    if (error.type === 'document_update_conflict' || error.type === 'document_already_exists')
      return new ApiError('transaction_conflict');
    return error;
  }

  /**
   * The events of a commit: each single-document operation's, carrying the document as committed
   * (none when a later operation deleted it), upsert as `.update`, delete with the old document.
   */
  private afterCommit(changes: DocumentChange[]): DocumentChange[] {
    const out: DocumentChange[] = [];
    for (const change of changes) {
      if (change.action === 'delete') {
        out.push(change);
        continue;
      }
      const row = this.databases.documents.getRow(change.collection, change.documentId);
      if (!row) continue;
      const database = this.databases.database(change.collection.databaseId);
      const payload = documentModel(database, change.collection, row);
      out.push({
        ...change,
        action: change.action === 'upsert' ? 'update' : change.action,
        permissions: payload.$permissions as string[],
        payload,
      });
    }
    return out;
  }

  /**
   * Applies one staged operation as `caller`. With `touched` (a commit), a document changed after
   * the operation was staged is a conflict unless the transaction touched it earlier; without (a
   * read's view), nothing is checked against time.
   */
  private apply(operation: LoggedOperation, caller: Caller, touched: Set<string> | null): void {
    const databases = this.databases;
    const database = databases.database(operation.databaseId);
    const collection = databases.collection(database, operation.collectionId);
    const target: DocumentTarget = { database, collection, caller };
    const keyOf = (id: string) => `${collection.seq}:${id}`;
    const timestampFor = (id: string) =>
      touched && !touched.has(keyOf(id)) ? operation.stagedAt : undefined;
    const touch = (ids: readonly string[]) => {
      for (const id of ids) touched?.add(keyOf(id));
    };
    const data = operation.data as Row;
    const id = operation.documentId!;
    switch (operation.action) {
      case 'create':
        databases.createDocuments(target, [{ id, permissions: permissionsOf(data) ?? [], data }]);
        touch([id]);
        return;
      case 'update':
        databases.updateDocument(target, id, data, permissionsOf(data), timestampFor(id));
        touch([id]);
        return;
      case 'upsert':
        databases.upsertDocument(target, id, data, permissionsOf(data), timestampFor(id));
        touch([id]);
        return;
      case 'delete':
        databases.deleteDocument(target, id, timestampFor(id));
        touch([id]);
        return;
      case 'increment':
      case 'decrement': {
        if (!databases.documents.getRow(collection, id))
          throw new ApiError('document_not_found', null, [id]);
        const bound = operation.action === 'increment' ? data.max : data.min;
        databases.changeCounter(target, id, String(data.attribute), {
          direction: operation.action === 'increment' ? 1 : -1,
          value: data.value === undefined || data.value === null ? 1 : Number(data.value),
          bound: bound === undefined || bound === null ? null : Number(bound),
        });
        touch([id]);
        return;
      }
      case 'bulkCreate': {
        const sources = (operation.data as Row[]).map(bulkDocument);
        databases.createDocuments(target, sources);
        touch(sources.map((source) => source.id));
        return;
      }
      case 'bulkUpsert':
        touch(
          databases.upsertDocuments(
            target,
            (operation.data as Row[]).map(bulkDocument),
            timestampFor,
          ).ids,
        );
        return;
      case 'bulkUpdate': {
        const update = data.data as Row;
        touch(
          databases.updateDocuments(
            target,
            parseQueries(data.queries),
            update,
            permissionsOf(update),
            timestampFor,
          ).ids,
        );
        return;
      }
      case 'bulkDelete':
        touch(databases.deleteDocuments(target, parseQueries(data.queries), timestampFor).ids);
        return;
    }
  }

  // ── test switch ──────────────────────────────────────────────────────────

  /**
   * Arms the test switch: the next commit with more than `afterOperations` operations stops
   * (blocking the process, inside its SQLite transaction) after applying that many, for
   * `seconds`, once it has printed `commit of transaction <id> paused after n of m operations`.
   */
  pauseNextCommit(afterOperations: number, seconds: number): void {
    this.pause = { afterOperations, seconds };
  }

  private pauseIfAsked(record: TransactionRecord, applied: number, total: number): void {
    const pause = this.pause;
    if (!pause || applied !== pause.afterOperations || applied >= total) return;
    this.pause = null;
    console.log(
      `[backend] test switch: commit of transaction ${record.id} paused after ${applied} of ${total} operations`,
    );
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause.seconds * 1000);
  }
}
