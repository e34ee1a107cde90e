import { createHash, randomUUID } from 'node:crypto';
import { AppwriteException, Databases, type Client, type Models } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import { AppError, type AppErrorCode } from '../../domain/errors.ts';
import {
  orderFromDocument,
  orderToDocumentData,
  type Order,
  type OrderDocument,
} from '../../domain/order.ts';
import type { OrderChange } from '../../domain/order-machine.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import type { FunctionContext, FunctionOutput, FunctionRequest } from './runtime.ts';

/** The HTTP status each refusal is answered with (the `order-action` wire contract). */
export const STATUS_OF: Partial<Record<AppErrorCode, number>> = {
  AUTH_REQUIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ORDER_CONFLICT: 409,
  INVALID_TRANSITION: 400,
  VALIDATION: 400,
  CART_INVALID: 400,
  SERVER_ERROR: 500,
};

/** Answers an {@link AppError} as `{error: {code, message, details?}}` with its status. */
export function refuse(ctx: FunctionContext, error: AppError): FunctionOutput {
  return ctx.res.json(error.toBody(), STATUS_OF[error.code] ?? 400);
}

/** Logs an unexpected failure with a reference id and answers `SERVER_ERROR` (500) naming it. */
export function serverError(ctx: FunctionContext, cause: unknown): FunctionOutput {
  const ref = randomUUID().slice(0, 8);
  ctx.error(`[ref ${ref}]`, cause instanceof Error ? (cause.stack ?? cause.message) : cause);
  return refuse(ctx, new AppError('SERVER_ERROR', `Something went wrong (ref ${ref}).`, { ref }));
}

/** Answers a failure: an {@link AppError} as a refusal, anything else as `SERVER_ERROR`. */
export function answerFailure(ctx: FunctionContext, error: unknown): FunctionOutput {
  return error instanceof AppError ? refuse(ctx, error) : serverError(ctx, error);
}

/** The caller's user id as Appwrite passes it (`x-appwrite-user-id`), or `AUTH_REQUIRED`. */
export function callerId(req: FunctionRequest, signInMessage: string): string {
  const userId = req.headers['x-appwrite-user-id'] ?? '';
  if (!userId) throw new AppError('AUTH_REQUIRED', signInMessage);
  return userId;
}

/**
 * A server client acting with the execution's short-lived API key (`x-appwrite-key`), over the
 * process's keep-alive connections.
 */
export function functionClient(req: FunctionRequest): Client {
  const endpoint = process.env.APPWRITE_FUNCTION_API_ENDPOINT;
  const project = process.env.APPWRITE_FUNCTION_PROJECT_ID;
  const key = req.headers['x-appwrite-key'];
  if (!endpoint || !project || !key)
    throw new Error(
      'APPWRITE_FUNCTION_API_ENDPOINT, APPWRITE_FUNCTION_PROJECT_ID or x-appwrite-key missing',
    );
  return new KeepAliveClient().setEndpoint(endpoint).setProject(project).setKey(key);
}

/** Whether `error` is Appwrite's answer with `code` (and `type`, when given). */
export function isAppwriteError(error: unknown, code: number, type?: string): boolean {
  return (
    error instanceof AppwriteException && error.code === code && (!type || error.type === type)
  );
}

/** Reads a document of the desk's database, or null when there is none. */
export async function findDocument<T>(
  client: Client,
  collectionId: string,
  documentId: string,
): Promise<T | null> {
  try {
    return (await new Databases(client).getDocument({
      databaseId: DATABASE_ID,
      collectionId,
      documentId,
    })) as unknown as T;
  } catch (error) {
    if (isAppwriteError(error, 404)) return null;
    throw error;
  }
}

/** Reads an order document, or throws `NOT_FOUND`. */
export async function readOrder(client: Client, orderId: string): Promise<OrderDocument> {
  const order = await findDocument<OrderDocument>(client, COLLECTIONS.orders, orderId);
  if (!order) throw new AppError('NOT_FOUND', 'This order does not exist.');
  return order;
}

/**
 * Updates a document only if nobody changed it since `updatedAt`: the request (the one
 * `Databases.updateDocument` makes) carries `X-Appwrite-Timestamp: <updatedAt>`, and Appwrite
 * refuses it with 409 `document_update_conflict` when the document is newer.
 */
export async function updateDocumentIfUnchanged(
  client: Client,
  collectionId: string,
  documentId: string,
  data: object,
  updatedAt: string,
): Promise<Models.Document> {
  const path = `/databases/${DATABASE_ID}/collections/${collectionId}/documents/${documentId}`;
  return (await client.call(
    'patch',
    new URL(client.config.endpoint + path),
    {
      'X-Appwrite-Project': client.config.project,
      'content-type': 'application/json',
      accept: 'application/json',
      'x-appwrite-timestamp': updatedAt,
    },
    { data },
  )) as Models.Document;
}

/**
 * Writes `change` to the order `read` was read as, only if nobody changed it since
 * ({@link updateDocumentIfUnchanged}). Returns the updated document, or `'conflict'`.
 */
export async function updateOrderIfUnchanged(
  client: Client,
  read: OrderDocument,
  change: OrderChange,
): Promise<OrderDocument | 'conflict'> {
  try {
    return (await updateDocumentIfUnchanged(
      client,
      COLLECTIONS.orders,
      read.$id,
      orderToDocumentData(change.patch),
      read.$updatedAt,
    )) as unknown as OrderDocument;
  } catch (error) {
    if (isAppwriteError(error, 409)) return 'conflict';
    throw error;
  }
}

/** The activity id of the change that made an order reach `rev` (one change per rev). */
export function activityIdFor(orderId: string, rev: number): string {
  const plain = `${orderId}.r${rev}`;
  if (plain.length <= 36) return plain;
  return `a${createHash('sha256').update(plain).digest('hex').slice(0, 35)}`;
}

/**
 * Writes the `activity` record of a change. Idempotent (the id is derived from `id`): a repeated
 * write of the same record is not an error.
 */
export async function writeActivity(
  client: Client,
  input: {
    id: string;
    orderId: string;
    kind: OrderChange['activity']['kind'];
    actorId: string | null;
    actorName: string | null;
    data: Record<string, unknown>;
    at: number;
  },
): Promise<Models.Document | null> {
  const data = {
    orderId: input.orderId,
    kind: input.kind,
    actorId: input.actorId,
    actorName: input.actorName,
    data: JSON.stringify(input.data).slice(0, 4096),
    at: new Date(input.at).toISOString(),
  };
  try {
    return await new Databases(client).createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documentId: input.id,
      data,
    });
  } catch (error) {
    if (isAppwriteError(error, 409)) return null;
    throw error;
  }
}

/** The order as the domain sees it. */
export function toOrder(doc: OrderDocument): Order {
  return orderFromDocument(doc);
}
