/** The Databases service's request params: JSON data, permissions, bulk documents, index and inline schema definitions. */
import { ApiError, invalidParam } from '../../core/errors.ts';
import { uniqueId, validateKey } from '../../core/ids.ts';
import { formatPermissions, parsePermissions } from '../../core/permissions.ts';
import { required } from '../../http/params.ts';
import { ATTRIBUTE_KINDS, attributeFromCreate } from './attributes.ts';
import { DOCUMENT_PERMISSIONS, type NewDocument } from './store.ts';
import type {
  AttributeKind,
  AttributeRecord,
  CollectionRecord,
  IndexRecord,
  IndexType,
} from './types.ts';

/** Appwrite's `APP_LIMIT_DATABASE_BATCH`: documents per bulk request on a self-hosted server. */
export const BATCH_LIMIT = 100;
/** MariaDB's 64 indexes a table, less the ones Appwrite keeps for itself. */
const INDEX_LIMIT = 58;
const CUSTOM_ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;
const CUSTOM_ID_MESSAGE =
  "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char";
const KEY_MESSAGE =
  "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char";

/** A JSON object param (an object, or a JSON string of one); a list becomes `{0: …}` as in PHP. */
export function jsonObject(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalidParam(name, 'Value must be a valid JSON string');
    }
  }
  if (Array.isArray(parsed)) return Object.fromEntries(parsed.map((item, i) => [String(i), item]));
  if (typeof parsed !== 'object' || parsed === null)
    throw invalidParam(name, 'Value must be a valid JSON string');
  return parsed as Record<string, unknown>;
}

/** The `documents` param of a bulk create: at most 100 JSON objects. */
export function documentsParam(value: unknown): Record<string, unknown>[] {
  if (value === undefined || value === null) return [];
  const message = `Value must a valid array no longer than ${BATCH_LIMIT} items and Value must be a valid JSON string`;
  if (!Array.isArray(value) || value.length > BATCH_LIMIT) throw invalidParam('documents', message);
  return value.map((item) => {
    try {
      return jsonObject(item, 'documents');
    } catch {
      throw invalidParam('documents', message);
    }
  });
}

/** Optional `permissions` param (null when absent), validated and with `write` expanded. */
export function permissionsParam(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  return formatPermissions(parsePermissions(value, DOCUMENT_PERMISSIONS));
}

/**
 * Validates index params and metadata like Appwrite's index endpoint and validator (the
 * collection's state decides too: its attributes, its index count).
 */
export function indexFromParams(
  collection: CollectionRecord,
  input: Record<string, unknown>,
  time: string,
): Omit<IndexRecord, 'seq' | 'status' | 'error'> {
  const key = validateKey('key', required(input, 'key'));
  const type = required(input, 'type');
  if (type !== 'key' && type !== 'fulltext' && type !== 'unique' && type !== 'spatial')
    throw invalidParam('type', 'Value must be one of (key, fulltext, unique, spatial)');
  const attributes = required(input, 'attributes');
  if (
    !Array.isArray(attributes) ||
    attributes.length > 100 ||
    attributes.some(
      (item) =>
        typeof item !== 'string' ||
        !(
          /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/.test(item) ||
          ['$id', '$createdAt', '$updatedAt'].includes(item)
        ),
    )
  ) {
    throw invalidParam(
      'attributes',
      `Value must a valid array no longer than 100 items and ${KEY_MESSAGE}`,
    );
  }
  const orders = input.orders ?? [];
  if (
    !Array.isArray(orders) ||
    orders.length > 100 ||
    orders.some((item) => typeof item !== 'string' || !['ASC', 'DESC'].includes(item.toUpperCase()))
  ) {
    throw invalidParam(
      'orders',
      'Value must a valid array no longer than 100 items and Value must be one of (ASC, DESC)',
    );
  }
  const lengths = input.lengths ?? [];
  if (
    !Array.isArray(lengths) ||
    lengths.length > 100 ||
    lengths.some((item) => item !== null && (typeof item !== 'number' || !Number.isInteger(item)))
  ) {
    throw invalidParam(
      'lengths',
      'Value must a valid array no longer than 100 items and Value must be a valid integer',
    );
  }
  if (type === 'spatial') throw new ApiError('index_invalid', 'Spatial indexes are not supported');
  if (collection.indexes.length >= INDEX_LIMIT)
    throw new ApiError('index_limit_exceeded', null, [collection.id]);
  const system: Record<string, AttributeRecord['kind']> = {
    $id: 'string',
    $createdAt: 'datetime',
    $updatedAt: 'datetime',
  };
  for (const name of attributes as string[]) {
    if (system[name]) continue;
    const attribute = collection.attributes.find((item) => item.key === name);
    if (!attribute) throw new ApiError('attribute_unknown', null, [name]);
    if (attribute.status !== 'available')
      throw new ApiError('attribute_not_available', null, [name]);
    if (attribute.array)
      throw new ApiError(
        'index_invalid',
        'Creating indexes on array attributes is not currently supported.',
      );
  }
  if (new Set(attributes as string[]).size !== attributes.length)
    throw new ApiError('index_invalid', 'Duplicate attributes provided');
  if (type === 'fulltext') {
    for (const name of attributes as string[]) {
      const kind = system[name] ?? collection.attributes.find((item) => item.key === name)!.kind;
      if (!['string', 'email', 'enum'].includes(kind))
        throw new ApiError(
          'index_invalid',
          `Attribute "${name}" cannot be part of a fulltext index, must be of type string`,
        );
    }
  }
  if ((lengths as unknown[]).length > attributes.length)
    throw new ApiError(
      'index_invalid',
      'Invalid index lengths. Count of lengths must be equal or less than the number of attributes.',
    );
  if (collection.indexes.some((index) => index.key.toLowerCase() === key.toLowerCase()))
    throw new ApiError('index_already_exists', null, [key]);
  return {
    key,
    type: type as IndexType,
    attributes: attributes as string[],
    orders: orders as string[],
    lengths: (lengths as (number | null)[]).filter((item): item is number => item !== null),
    createdAt: time,
    updatedAt: time,
  };
}

/** An element of `createCollection`'s `attributes`/`indexes` params: a JSON object or its text. */
export function inlineDefinition(raw: unknown, name: string): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = null;
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalidParam(
      name,
      'Value must a valid array no longer than 100 items and Value must be a valid JSON string',
    );
  return value as Record<string, unknown>;
}

/** An inline attribute definition of `createCollection` in the shape of the create endpoints' params. */
export function inlineAttribute(raw: unknown, time: string): AttributeRecord {
  const definition = inlineDefinition(raw, 'attributes');
  let kind = String(definition.type ?? '');
  if (kind === 'double') kind = 'float';
  if (kind === 'string' && (definition.format === 'email' || definition.format === 'enum'))
    kind = String(definition.format);
  if (!ATTRIBUTE_KINDS.includes(kind as AttributeKind))
    throw new ApiError(
      'ATTRIBUTE_TYPE_NOT_SUPPORTED',
      `Attribute type '${kind}' is not supported by the local backend.`,
    );
  return attributeFromCreate(kind as AttributeKind, definition, time);
}

/** The `$id` and `$permissions` of one document of a bulk create (refused as a bad request). */
export function bulkDocument(source: Record<string, unknown>): NewDocument {
  const rawId = source.$id ?? 'unique()';
  let id: string;
  if (rawId === 'unique()') id = uniqueId();
  else if (typeof rawId === 'string' && CUSTOM_ID.test(rawId)) id = rawId;
  else throw new ApiError('general_bad_request', CUSTOM_ID_MESSAGE);
  let permissions: string[] | null = null;
  if (source.$permissions !== undefined && source.$permissions !== null) {
    try {
      permissions = permissionsParam(source.$permissions);
    } catch (error) {
      throw new ApiError(
        'general_bad_request',
        (error as Error).message.replace(/^Invalid `permissions` param: /, ''),
      );
    }
  }
  return { id, permissions, data: source };
}
