import { AppwriteException, Databases, Query, type Client, type Models } from 'node-appwrite';
import type { BackendConnection } from '../targets/types.ts';
import { backend, serverClient, uniqueTestId } from './clients.ts';

/** An attribute to create, in the shape of the SDK's create*Attribute params. */
export type AttributeDefinition =
  | {
      type: 'string';
      key: string;
      size: number;
      required?: boolean;
      default?: string;
      array?: boolean;
    }
  | { type: 'email'; key: string; required?: boolean; default?: string }
  | { type: 'enum'; key: string; elements: string[]; required?: boolean; default?: string }
  | {
      type: 'integer';
      key: string;
      required?: boolean;
      min?: number;
      max?: number;
      default?: number;
    }
  | { type: 'float'; key: string; required?: boolean; min?: number; max?: number; default?: number }
  | { type: 'boolean'; key: string; required?: boolean; default?: boolean }
  | { type: 'datetime'; key: string; required?: boolean; default?: string };

/** An index to create. */
export interface IndexDefinition {
  key: string;
  type: 'key' | 'unique' | 'fulltext';
  attributes: string[];
  orders?: ('asc' | 'desc')[];
}

/** A database made for one test file (unique id), with a node-appwrite `Databases` on the API key. */
export async function scratchDatabase(
  connection: BackendConnection = backend(),
): Promise<{ databases: Databases; databaseId: string }> {
  const databases = new Databases(serverClient(connection));
  const database = await databases.create({ databaseId: uniqueTestId('db'), name: 'Scratch' });
  return { databases, databaseId: database.$id };
}

/** Creates an attribute through the endpoint of its type. */
export async function createAttribute(
  databases: Databases,
  ids: { databaseId: string; collectionId: string },
  definition: AttributeDefinition,
): Promise<unknown> {
  const base = { ...ids, key: definition.key, required: definition.required ?? false };
  const fallback = (value: unknown) => (value === undefined ? {} : { xdefault: value as never });
  switch (definition.type) {
    case 'string':
      return databases.createStringAttribute({
        ...base,
        size: definition.size,
        array: definition.array ?? false,
        ...fallback(definition.default),
      });
    case 'email':
      return databases.createEmailAttribute({ ...base, ...fallback(definition.default) });
    case 'enum':
      return databases.createEnumAttribute({
        ...base,
        elements: definition.elements,
        ...fallback(definition.default),
      });
    case 'integer':
      return databases.createIntegerAttribute({
        ...base,
        ...(definition.min === undefined ? {} : { min: definition.min }),
        ...(definition.max === undefined ? {} : { max: definition.max }),
        ...fallback(definition.default),
      });
    case 'float':
      return databases.createFloatAttribute({
        ...base,
        ...(definition.min === undefined ? {} : { min: definition.min }),
        ...(definition.max === undefined ? {} : { max: definition.max }),
        ...fallback(definition.default),
      });
    case 'boolean':
      return databases.createBooleanAttribute({ ...base, ...fallback(definition.default) });
    case 'datetime':
      return databases.createDatetimeAttribute({ ...base, ...fallback(definition.default) });
  }
}

/** Creates a collection with attributes and indexes; returns its id. */
export async function createCollection(
  databases: Databases,
  databaseId: string,
  spec: {
    id?: string;
    permissions?: string[];
    documentSecurity?: boolean;
    attributes: AttributeDefinition[];
    indexes?: IndexDefinition[];
  },
): Promise<string> {
  const collection = await databases.createCollection({
    databaseId,
    collectionId: spec.id ?? uniqueTestId('col'),
    name: 'Test collection',
    permissions: spec.permissions ?? [],
    documentSecurity: spec.documentSecurity ?? false,
  });
  const ids = { databaseId, collectionId: collection.$id };
  for (const attribute of spec.attributes) await createAttribute(databases, ids, attribute);
  for (const index of spec.indexes ?? []) {
    await databases.createIndex({
      ...ids,
      key: index.key,
      type: index.type as never,
      attributes: index.attributes,
      ...(index.orders ? { orders: index.orders as never[] } : {}),
    });
  }
  return collection.$id;
}

/** The AppwriteException a call rejects with (fails the test if it resolves). */
export async function caught<T>(call: Promise<T>): Promise<AppwriteException> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppwriteException) return error;
    if (error && typeof error === 'object' && 'type' in error) return error as AppwriteException;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A raw HTTP request to the backend (for status codes and malformed input the SDKs cannot send). */
export async function raw(
  method: string,
  path: string,
  options: {
    key?: boolean;
    body?: string;
    headers?: Record<string, string>;
    project?: string;
  } = {},
  connection: BackendConnection = backend(),
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {
    'x-appwrite-project': options.project ?? connection.projectId,
    'content-type': 'application/json',
    ...options.headers,
  };
  if (options.key !== false) headers['x-appwrite-key'] = connection.apiKey;
  const response = await fetch(`${connection.endpoint}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** A `Databases` service for a client. */
export function databasesFor(client: Client): Databases {
  return new Databases(client);
}

/**
 * Every document of a collection, read in pages of 1,000 with `cursorAfter` (a single list answers
 * at most a page, and its `total` stops counting at 5,000). For a collection nothing writes to
 * meanwhile.
 */
export async function allDocuments(
  databases: Databases,
  databaseId: string,
  collectionId: string,
): Promise<Models.DefaultDocument[]> {
  const out: Models.DefaultDocument[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: Models.DocumentList<Models.DefaultDocument> = await databases.listDocuments({
      databaseId,
      collectionId,
      queries: [Query.limit(1000), ...(cursor ? [Query.cursorAfter(cursor)] : [])],
    });
    out.push(...page.documents);
    if (page.documents.length < 1000) return out;
    cursor = page.documents.at(-1)!.$id;
  }
}
