import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/**
 * The backend's SQLite database in WAL mode. A write acknowledged to a client has been
 * committed to the WAL, so it survives the process being killed (`kill -9`).
 */
export class Store {
  readonly sql: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.sql = new DatabaseSync(join(dataDir, 'backend.sqlite'));
    this.sql.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 5000;
      PRAGMA cache_size = -65536;
      PRAGMA temp_store = MEMORY;
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

  /** Runs `fn` in a transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.sql.exec('BEGIN IMMEDIATE');
    this.depth++;
    try {
      const result = fn();
      this.depth--;
      this.sql.exec('COMMIT');
      return result;
    } catch (error) {
      this.depth--;
      this.sql.exec('ROLLBACK');
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
    this.statements.clear();
    this.sql.close();
  }
}
