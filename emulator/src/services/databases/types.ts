import type { Permission } from '../../core/permissions.ts';

/** A database of the legacy Databases API (`type: "legacy"`). */
export interface DatabaseRecord {
  seq: number;
  id: string;
  name: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The attribute families of the Databases API (one create/update endpoint each). */
export type AttributeKind =
  'string' | 'email' | 'enum' | 'integer' | 'float' | 'boolean' | 'datetime';

/** An attribute of a collection, one SQL column of its table. */
export interface AttributeRecord {
  key: string;
  kind: AttributeKind;
  /** Strings: max chars; email 254; enum 255; integers 4 or 8 bytes (32- or 64-bit); else 0. */
  size: number;
  required: boolean;
  array: boolean;
  default: string | number | boolean | null;
  /** Enum elements. */
  elements: string[];
  /** Integer bounds are bigints (±2^63 when unset), float bounds numbers (±Number.MAX_VALUE). */
  min: bigint | number | null;
  max: bigint | number | null;
  status: 'available' | 'failed';
  error: string;
  createdAt: string;
  updatedAt: string;
}

/** Appwrite's index types this backend supports. */
export type IndexType = 'key' | 'unique' | 'fulltext';

/** An index of a collection: a SQL index (key, unique) or an FTS5 table (fulltext). */
export interface IndexRecord {
  /** Stable number used in SQL object names (never reused within a collection). */
  seq: number;
  key: string;
  type: IndexType;
  attributes: string[];
  orders: string[];
  lengths: number[];
  status: 'available' | 'failed';
  error: string;
  createdAt: string;
  updatedAt: string;
}

/** A collection: its settings, its schema and the name of its SQL table. */
export interface CollectionRecord {
  seq: number;
  databaseSeq: number;
  databaseId: string;
  id: string;
  name: string;
  enabled: boolean;
  documentSecurity: boolean;
  permissions: Permission[];
  attributes: AttributeRecord[];
  indexes: IndexRecord[];
  /** Next {@link IndexRecord.seq}. */
  nextIndexSeq: number;
  createdAt: string;
  updatedAt: string;
}

/** SQL names of a collection's tables. */
export interface CollectionTables {
  /** The documents: `_seq` (= `$sequence`), `_uid`, `_createdAt`, `_updatedAt`, `_permissions`, one column per attribute. */
  docs: string;
  /** Permissions side table `(_type, _role, _doc)`, for permission-filtered lists. */
  perms: string;
}

/** The SQL table names of `collection`. */
export function tablesOf(collection: { seq: number }): CollectionTables {
  return { docs: `dbdoc_${collection.seq}`, perms: `dbdoc_${collection.seq}_perms` };
}

/** The FTS5 table of a fulltext index. */
export function ftsTableOf(collection: { seq: number }, index: { seq: number }): string {
  return `dbdoc_${collection.seq}_fts_${index.seq}`;
}

/** The SQL index name of a key or unique index. */
export function sqlIndexOf(collection: { seq: number }, index: { seq: number }): string {
  return `dbdoc_${collection.seq}_idx_${index.seq}`;
}

/** The SQL column of an attribute key or of a system field (`$id`, `$sequence`, …). */
export function columnOf(key: string): string {
  switch (key) {
    case '$id':
      return '_uid';
    case '$sequence':
      return '_seq';
    case '$createdAt':
      return '_createdAt';
    case '$updatedAt':
      return '_updatedAt';
    case '$permissions':
      return '_permissions';
    default:
      return `"${key}"`;
  }
}

/** Permission types a document takes. */
export const DOCUMENT_PERMISSIONS = ['read', 'update', 'delete'] as const;

/** A document to create: its id, its permissions (null: the defaults) and its data. */
export interface NewDocument {
  id: string;
  permissions: string[] | null;
  data: Record<string, unknown>;
}
