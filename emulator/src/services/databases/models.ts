import { formatPermissions } from '../../core/permissions.ts';
import { rawJson } from '../../core/json.ts';
import type { AttributeRecord, CollectionRecord, DatabaseRecord, IndexRecord } from './types.ts';

/** Appwrite's Database model (`type: "legacy"` for the Databases API). */
export function databaseModel(database: DatabaseRecord): Record<string, unknown> {
  return {
    $id: database.id,
    name: database.name,
    $createdAt: database.createdAt,
    $updatedAt: database.updatedAt,
    enabled: database.enabled,
    type: 'legacy',
  };
}

/** The attribute's `type` as Appwrite reports it (`double` for floats, `string` for email/enum). */
export function attributeType(attribute: AttributeRecord): string {
  switch (attribute.kind) {
    case 'integer':
      return 'integer';
    case 'float':
      return 'double';
    case 'boolean':
      return 'boolean';
    case 'datetime':
      return 'datetime';
    default:
      return 'string';
  }
}

/** A number written exactly (bigint bounds of integer attributes). */
function exactNumber(value: bigint | number | null): unknown {
  if (value === null) return null;
  return typeof value === 'bigint' ? rawJson(value.toString()) : value;
}

/**
 * Appwrite's Attribute* models (AttributeString, AttributeEmail, AttributeEnum, AttributeInteger,
 * AttributeFloat, AttributeBoolean, AttributeDatetime). Unset integer bounds are ±2^63 and unset
 * float bounds ±Number.MAX_VALUE, as Appwrite reports PHP's limits.
 */
export function attributeModel(attribute: AttributeRecord): Record<string, unknown> {
  const base: Record<string, unknown> = {
    key: attribute.key,
    type: attributeType(attribute),
    status: attribute.status,
    error: attribute.error,
    required: attribute.required,
    array: attribute.array,
    $createdAt: attribute.createdAt,
    $updatedAt: attribute.updatedAt,
  };
  switch (attribute.kind) {
    case 'string':
      return { ...base, size: attribute.size, default: attribute.default, encrypt: false };
    case 'email':
      return { ...base, format: 'email', default: attribute.default };
    case 'enum':
      return { ...base, elements: attribute.elements, format: 'enum', default: attribute.default };
    case 'integer':
      return {
        ...base,
        min: exactNumber(attribute.min),
        max: exactNumber(attribute.max),
        default: attribute.default,
      };
    case 'float':
      return { ...base, min: attribute.min, max: attribute.max, default: attribute.default };
    case 'boolean':
      return { ...base, default: attribute.default };
    case 'datetime':
      return { ...base, format: 'datetime', default: attribute.default };
  }
}

/** Appwrite's Index model; `$id` is `<database seq>_<collection seq>_<key>` as on Appwrite. */
export function indexModel(
  collection: CollectionRecord,
  index: IndexRecord,
): Record<string, unknown> {
  return {
    $id: `${collection.databaseSeq}_${collection.seq}_${index.key}`,
    $createdAt: index.createdAt,
    $updatedAt: index.updatedAt,
    key: index.key,
    type: index.type,
    status: index.status,
    error: index.error,
    attributes: index.attributes,
    lengths: index.lengths,
    orders: index.orders,
  };
}

/** Appwrite's row-width limit (MariaDB), reported as `bytesMax`. */
const BYTES_MAX = 65535;

/** Bytes an attribute takes in Appwrite's row-width accounting (approximately). */
function attributeBytes(attribute: AttributeRecord): number {
  if (attribute.array) return 20;
  switch (attribute.kind) {
    case 'integer':
      return attribute.size >= 8 ? 8 : 4;
    case 'float':
      return 8;
    case 'boolean':
      return 1;
    case 'datetime':
      return 19;
    default:
      return attribute.size > 16383 ? 20 : attribute.size * 4 + (attribute.size > 255 ? 2 : 1);
  }
}

/** Appwrite's Collection model with its attributes and indexes. */
export function collectionModel(collection: CollectionRecord): Record<string, unknown> {
  return {
    $id: collection.id,
    $createdAt: collection.createdAt,
    $updatedAt: collection.updatedAt,
    $permissions: formatPermissions(collection.permissions),
    databaseId: collection.databaseId,
    name: collection.name,
    enabled: collection.enabled,
    documentSecurity: collection.documentSecurity,
    attributes: collection.attributes.map(attributeModel),
    indexes: collection.indexes.map((index) => indexModel(collection, index)),
    bytesMax: BYTES_MAX,
    bytesUsed: collection.attributes.reduce((sum, attribute) => sum + attributeBytes(attribute), 0),
  };
}
