import type { Store } from '../../core/db.ts';
import { ApiError } from '../../core/errors.ts';
import {
  columnOf,
  ftsTableOf,
  sqlIndexOf,
  tablesOf,
  type AttributeRecord,
  type CollectionRecord,
  type DatabaseRecord,
  type IndexRecord,
} from './types.ts';

/** JSON that keeps bigints (integer attribute bounds) as `{"$bigint": "…"}`. */
function serialize(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? { $bigint: item.toString() } : item,
  );
}

function deserialize<T>(text: string): T {
  return JSON.parse(text, (_key, item: unknown) =>
    item && typeof item === 'object' && typeof (item as { $bigint?: unknown }).$bigint === 'string'
      ? BigInt((item as { $bigint: string }).$bigint)
      : item,
  ) as T;
}

/** The SQL type of an attribute's column (arrays are JSON text). */
function sqlType(attribute: AttributeRecord): string {
  if (attribute.array) return 'TEXT';
  switch (attribute.kind) {
    case 'integer':
    case 'boolean':
      return 'INTEGER';
    case 'float':
      return 'REAL';
    default:
      return 'TEXT';
  }
}

/**
 * Databases, collections, attributes and indexes: their records (JSON in `db_databases` and
 * `db_collections`, cached in memory) and the SQL objects behind them. Every collection has a
 * real table with one column per attribute, a real SQL index per key/unique index, an FTS5 table
 * (kept in sync by triggers) per fulltext index, and a permissions side table indexed by role.
 * Schema changes run in a transaction: a failed DDL leaves records and tables as they were.
 */
export class Catalog {
  private readonly store: Store;
  private readonly databases = new Map<string, DatabaseRecord>();
  private readonly collections = new Map<string, CollectionRecord>();
  private loaded = false;
  /** Bumped on every schema change; statement caches key on it. */
  version = 0;

  constructor(store: Store) {
    this.store = store;
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS db_databases (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS db_collections (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, database_seq INTEGER NOT NULL, id TEXT NOT NULL,
        data TEXT NOT NULL, UNIQUE (database_seq, id));
    `);
  }

  /** Runs schema changes in a transaction; on failure the cached records are reloaded. */
  private inTransaction<T>(fn: () => T): T {
    try {
      return this.store.transaction(fn);
    } catch (error) {
      this.loaded = false;
      this.databases.clear();
      this.collections.clear();
      this.version++;
      throw error;
    }
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const databases = this.store.sql
      .prepare('SELECT seq, data FROM db_databases ORDER BY seq')
      .all() as { seq: number; data: string }[];
    for (const row of databases) {
      const record = { ...deserialize<DatabaseRecord>(row.data), seq: row.seq };
      this.databases.set(record.id, record);
    }
    const collections = this.store.sql
      .prepare('SELECT seq, data FROM db_collections ORDER BY seq')
      .all() as { seq: number; data: string }[];
    for (const row of collections) {
      const record = { ...deserialize<CollectionRecord>(row.data), seq: row.seq };
      this.collections.set(collectionKey(record.databaseId, record.id), record);
    }
  }

  // ── databases ────────────────────────────────────────────────────────────

  getDatabase(id: string): DatabaseRecord | null {
    this.load();
    return this.databases.get(id) ?? null;
  }

  listDatabases(): DatabaseRecord[] {
    this.load();
    return [...this.databases.values()].sort((a, b) => a.seq - b.seq);
  }

  createDatabase(record: Omit<DatabaseRecord, 'seq'>): DatabaseRecord {
    this.load();
    if (this.databases.has(record.id))
      throw new ApiError('database_already_exists', null, [record.id]);
    const result = this.store
      .prepare('INSERT INTO db_databases (id, data) VALUES (?, ?)')
      .run(record.id, serialize(record));
    const created = { ...record, seq: Number(result.lastInsertRowid) };
    this.databases.set(created.id, created);
    return created;
  }

  saveDatabase(record: DatabaseRecord): void {
    this.store
      .prepare('UPDATE db_databases SET data = ? WHERE seq = ?')
      .run(serialize(record), record.seq);
    this.databases.set(record.id, record);
  }

  /** Deletes a database with all its collections and their tables. */
  deleteDatabase(record: DatabaseRecord): void {
    this.inTransaction(() => {
      for (const collection of this.listCollections(record.id)) this.dropCollection(collection);
      this.store.prepare('DELETE FROM db_databases WHERE seq = ?').run(record.seq);
    });
    this.databases.delete(record.id);
  }

  // ── collections ──────────────────────────────────────────────────────────

  getCollection(databaseId: string, id: string): CollectionRecord | null {
    this.load();
    return this.collections.get(collectionKey(databaseId, id)) ?? null;
  }

  listCollections(databaseId: string): CollectionRecord[] {
    this.load();
    return [...this.collections.values()]
      .filter((collection) => collection.databaseId === databaseId)
      .sort((a, b) => a.seq - b.seq);
  }

  /** Creates the collection record and its tables. */
  createCollection(record: Omit<CollectionRecord, 'seq'>): CollectionRecord {
    this.load();
    if (this.collections.has(collectionKey(record.databaseId, record.id)))
      throw new ApiError('collection_already_exists', null, [record.id]);
    const created = this.inTransaction(() => {
      const result = this.store
        .prepare('INSERT INTO db_collections (database_seq, id, data) VALUES (?, ?, ?)')
        .run(record.databaseSeq, record.id, serialize(record));
      const collection: CollectionRecord = { ...record, seq: Number(result.lastInsertRowid) };
      const { docs, perms } = tablesOf(collection);
      this.store.sql.exec(`
        CREATE TABLE "${docs}" (
          _seq INTEGER PRIMARY KEY AUTOINCREMENT,
          _uid TEXT NOT NULL UNIQUE,
          _createdAt TEXT NOT NULL,
          _updatedAt TEXT NOT NULL,
          _permissions TEXT NOT NULL DEFAULT '[]'
        );
        CREATE TABLE "${perms}" (
          _type TEXT NOT NULL, _role TEXT NOT NULL, _doc INTEGER NOT NULL,
          PRIMARY KEY (_type, _role, _doc)
        ) WITHOUT ROWID;
        CREATE INDEX "${perms}_doc" ON "${perms}" (_doc);
      `);
      return collection;
    });
    this.collections.set(collectionKey(created.databaseId, created.id), created);
    this.version++;
    return created;
  }

  /** Persists a changed collection record (settings, attribute or index metadata). */
  saveCollection(record: CollectionRecord): void {
    this.store
      .prepare('UPDATE db_collections SET data = ? WHERE seq = ?')
      .run(serialize(record), record.seq);
    this.collections.set(collectionKey(record.databaseId, record.id), record);
    this.version++;
  }

  deleteCollection(record: CollectionRecord): void {
    this.inTransaction(() => this.dropCollection(record));
  }

  private dropCollection(record: CollectionRecord): void {
    const { docs, perms } = tablesOf(record);
    for (const index of record.indexes)
      if (index.type === 'fulltext') this.dropFulltext(record, index);
    this.store.sql.exec(`DROP TABLE IF EXISTS "${docs}"; DROP TABLE IF EXISTS "${perms}";`);
    this.store.prepare('DELETE FROM db_collections WHERE seq = ?').run(record.seq);
    this.collections.delete(collectionKey(record.databaseId, record.id));
    this.version++;
  }

  // ── attributes ───────────────────────────────────────────────────────────

  /** Adds an attribute: `ALTER TABLE … ADD COLUMN` and the record, in one transaction. */
  addAttribute(collection: CollectionRecord, attribute: AttributeRecord): CollectionRecord {
    const taken = collection.attributes.some(
      (existing) => existing.key.toLowerCase() === attribute.key.toLowerCase(),
    );
    if (taken) throw new ApiError('attribute_already_exists', null, [attribute.key]);
    if (collection.attributes.length >= 1000)
      throw new ApiError('attribute_limit_exceeded', null, [collection.id]);
    const next = { ...collection, attributes: [...collection.attributes, attribute] };
    this.inTransaction(() => {
      this.store.sql.exec(
        `ALTER TABLE "${tablesOf(collection).docs}" ADD COLUMN ${columnOf(attribute.key)} ${sqlType(attribute)}`,
      );
      this.saveCollection(next);
    });
    return next;
  }

  /** Replaces an attribute's record; renames its column when its key changes. */
  updateAttribute(
    collection: CollectionRecord,
    oldKey: string,
    attribute: AttributeRecord,
  ): CollectionRecord {
    const renamed = oldKey !== attribute.key;
    if (
      renamed &&
      collection.attributes.some(
        (existing) =>
          existing.key !== oldKey && existing.key.toLowerCase() === attribute.key.toLowerCase(),
      )
    ) {
      throw new ApiError('attribute_already_exists', null, [attribute.key]);
    }
    const next: CollectionRecord = {
      ...collection,
      attributes: collection.attributes.map((existing) =>
        existing.key === oldKey ? attribute : existing,
      ),
      indexes: renamed
        ? collection.indexes.map((index) => ({
            ...index,
            attributes: index.attributes.map((key) => (key === oldKey ? attribute.key : key)),
          }))
        : collection.indexes,
    };
    this.inTransaction(() => {
      if (renamed) {
        this.store.sql.exec(
          `ALTER TABLE "${tablesOf(collection).docs}" RENAME COLUMN ${columnOf(oldKey)} TO ${columnOf(attribute.key)}`,
        );
      }
      this.saveCollection(next);
    });
    return next;
  }

  /** Deletes an attribute, the indexes that use it, and its column. */
  deleteAttribute(collection: CollectionRecord, key: string): CollectionRecord {
    let next = collection;
    this.inTransaction(() => {
      for (const index of collection.indexes) {
        if (index.attributes.includes(key)) next = this.deleteIndexInTransaction(next, index.key);
      }
      this.store.sql.exec(
        `ALTER TABLE "${tablesOf(collection).docs}" DROP COLUMN ${columnOf(key)}`,
      );
      next = { ...next, attributes: next.attributes.filter((attribute) => attribute.key !== key) };
      this.saveCollection(next);
    });
    return next;
  }

  // ── indexes ──────────────────────────────────────────────────────────────

  /**
   * Creates an index: a SQL index for key/unique (a unique index over duplicate values is
   * recorded as `failed`, as Appwrite's worker would) or an FTS5 table filled from the existing
   * rows and kept in sync by triggers for fulltext.
   */
  createIndex(
    collection: CollectionRecord,
    index: Omit<IndexRecord, 'seq' | 'status' | 'error'>,
  ): { collection: CollectionRecord; index: IndexRecord } {
    const record: IndexRecord = {
      ...index,
      seq: collection.nextIndexSeq,
      status: 'available',
      error: '',
    };
    let next: CollectionRecord = {
      ...collection,
      nextIndexSeq: collection.nextIndexSeq + 1,
      indexes: [...collection.indexes, record],
    };
    try {
      this.inTransaction(() => {
        if (record.type === 'fulltext') this.createFulltext(collection, record);
        else this.createSqlIndex(collection, record);
        this.saveCollection(next);
      });
    } catch (error) {
      if (!String((error as Error).message).includes('UNIQUE')) throw error;
      record.status = 'failed';
      record.error = `Duplicate entry found for unique index "${record.key}": remove the duplicates, delete this index and create it again.`;
      next = {
        ...next,
        indexes: next.indexes.map((item) => (item.seq === record.seq ? record : item)),
      };
      this.saveCollection(next);
    }
    return { collection: next, index: record };
  }

  deleteIndex(collection: CollectionRecord, key: string): CollectionRecord {
    return this.inTransaction(() => this.deleteIndexInTransaction(collection, key));
  }

  private deleteIndexInTransaction(collection: CollectionRecord, key: string): CollectionRecord {
    const index = collection.indexes.find((item) => item.key === key);
    if (!index) return collection;
    if (index.status === 'available') {
      if (index.type === 'fulltext') this.dropFulltext(collection, index);
      else this.store.sql.exec(`DROP INDEX IF EXISTS "${sqlIndexOf(collection, index)}"`);
    }
    const next = { ...collection, indexes: collection.indexes.filter((item) => item !== index) };
    this.saveCollection(next);
    return next;
  }

  private createSqlIndex(collection: CollectionRecord, index: IndexRecord): void {
    const columns = index.attributes.map((key, i) => {
      const order = (index.orders[i] ?? '').toUpperCase();
      return `${columnOf(key)}${order === 'DESC' ? ' DESC' : order === 'ASC' ? ' ASC' : ''}`;
    });
    this.store.sql.exec(
      `CREATE ${index.type === 'unique' ? 'UNIQUE ' : ''}INDEX "${sqlIndexOf(collection, index)}" ON "${tablesOf(collection).docs}" (${columns.join(', ')})`,
    );
  }

  private createFulltext(collection: CollectionRecord, index: IndexRecord): void {
    const fts = ftsTableOf(collection, index);
    const docs = tablesOf(collection).docs;
    const ftsColumns = index.attributes.map((_, i) => `c${i}`);
    const values = (prefix: string) =>
      index.attributes.map((key) => `${prefix}${columnOf(key)}`).join(', ');
    const watched = index.attributes.map((key) => columnOf(key)).join(', ');
    this.store.sql.exec(`
      CREATE VIRTUAL TABLE "${fts}" USING fts5(${ftsColumns.join(', ')}, content='', contentless_delete=1);
      INSERT INTO "${fts}" (rowid, ${ftsColumns.join(', ')}) SELECT _seq, ${values('')} FROM "${docs}";
      CREATE TRIGGER "${fts}_ai" AFTER INSERT ON "${docs}" BEGIN
        INSERT INTO "${fts}" (rowid, ${ftsColumns.join(', ')}) VALUES (new._seq, ${values('new.')});
      END;
      CREATE TRIGGER "${fts}_ad" AFTER DELETE ON "${docs}" BEGIN
        DELETE FROM "${fts}" WHERE rowid = old._seq;
      END;
      CREATE TRIGGER "${fts}_au" AFTER UPDATE OF ${watched} ON "${docs}" BEGIN
        DELETE FROM "${fts}" WHERE rowid = old._seq;
        INSERT INTO "${fts}" (rowid, ${ftsColumns.join(', ')}) VALUES (new._seq, ${values('new.')});
      END;
    `);
  }

  private dropFulltext(collection: CollectionRecord, index: IndexRecord): void {
    const fts = ftsTableOf(collection, index);
    this.store.sql.exec(`
      DROP TRIGGER IF EXISTS "${fts}_ai";
      DROP TRIGGER IF EXISTS "${fts}_ad";
      DROP TRIGGER IF EXISTS "${fts}_au";
      DROP TABLE IF EXISTS "${fts}";
    `);
  }
}

function collectionKey(databaseId: string, collectionId: string): string {
  return `${databaseId}\u0000${collectionId}`;
}
