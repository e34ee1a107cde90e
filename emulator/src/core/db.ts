import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/** How long a group transaction may stay open once an answer waits for it (milliseconds). */
const MAX_GROUP_MS = 5;

/** Called once the writes made before it are committed (`error` set when the commit failed). */
export type AfterCommit = (error: unknown) => void;

/**
 * The backend's SQLite database in WAL mode. A write acknowledged to a client has been
 * committed to the WAL, so it survives the process being killed (`kill -9`).
 *
 * With {@link groupCommits} on (the running backend), the writes of one turn of the event loop
 * share one transaction: the first write opens it, each {@link transaction} runs in a savepoint
 * of it (all or nothing, as before), and it is committed once the turn's I/O callbacks have run
 * (`setImmediate`), or earlier once it has been open for 5 ms and an answer waits for it.
 * Answers and events wait for that commit ({@link afterCommit}), so nothing is acknowledged
 * before it is durable; one commit then writes the pages that many requests touched (the
 * orders table's last leaf, its `$updatedAt` index, a full-text segment) once.
 */
export class Store {
  readonly sql: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;
  private grouping = false;
  /** The open group transaction: callbacks waiting for its commit (null: none open). */
  private group: AfterCommit[] | null = null;
  private groupOpenedAt = 0;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.sql = new DatabaseSync(join(dataDir, 'backend.sqlite'));
    this.sql.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 5000;
      PRAGMA cache_size = -65536;
      PRAGMA temp_store = MEMORY;
      -- Reads through a memory map, not a read call per page: the desk's first load (100,000
      -- orders, their rows spread over the table) took 0.8 s of CPU in SQLite, against 1.2 s.
      PRAGMA mmap_size = 1073741824;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
  }

  /** A cached prepared statement for `sql`. */
  prepare(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.sql.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Forgets cached statements (after a schema change that alters a table they use). */
  forgetStatements(): void {
    this.statements.clear();
  }

  /** Turns group commits on (see the class comment). */
  groupCommits(): void {
    this.grouping = true;
  }

  /**
   * Runs `after` once the writes made so far are committed: at once when no group transaction
   * is open, else right after its commit (in call order).
   */
  afterCommit(after: AfterCommit): void {
    if (!this.group) return after(null);
    this.group.push(after);
    // A group that has been open a while commits now rather than keep its answers waiting for
    // the rest of the turn (e.g. behind a bulk write of another request).
    if (this.depth === 0 && performance.now() - this.groupOpenedAt > MAX_GROUP_MS)
      this.commitGroup();
  }

  /** Opens the group transaction if none is open; statements run until its commit join it. */
  private openGroup(): void {
    if (this.group) return;
    this.sql.exec('BEGIN IMMEDIATE');
    this.group = [];
    this.groupOpenedAt = performance.now();
    setImmediate(() => this.commitGroup());
  }

  /** Commits the open group transaction (rolled back if the commit fails) and runs its callbacks. */
  commitGroup(): void {
    const waiting = this.group;
    if (!waiting) return;
    this.group = null;
    let failure: unknown = null;
    try {
      this.sql.exec('COMMIT');
    } catch (error) {
      failure = error;
      console.error('[backend] commit failed; the writes of this turn are rolled back', error);
      try {
        this.sql.exec('ROLLBACK');
      } catch {
        // the transaction is already gone
      }
    }
    for (const after of waiting) {
      try {
        after(failure);
      } catch (error) {
        console.error('[backend] after-commit callback failed', error);
      }
    }
  }

  /** Runs `fn` in a transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    if (this.grouping) {
      // A savepoint of the group transaction: undone alone when `fn` throws.
      this.openGroup();
      return this.enclosed(fn, 'SAVEPOINT tx', 'RELEASE tx', 'ROLLBACK TO tx; RELEASE tx');
    }
    return this.enclosed(fn, 'BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK');
  }

  /** `fn` between `begin` and `commit`, or `rollback` when it throws. */
  private enclosed<T>(fn: () => T, begin: string, commit: string, rollback: string): T {
    this.sql.exec(begin);
    this.depth++;
    try {
      const result = fn();
      this.depth--;
      this.sql.exec(commit);
      return result;
    } catch (error) {
      this.depth--;
      this.sql.exec(rollback);
      throw error;
    }
  }

  /** A value of the `meta` table, created with `init()` on first use. */
  metaValue(key: string, init: () => string): string {
    const row = this.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
      { value: string } | undefined;
    if (row) return row.value;
    const value = init();
    this.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(key, value);
    return value;
  }

  close(): void {
    this.commitGroup();
    this.grouping = false;
    this.statements.clear();
    this.sql.close();
  }
}
