import { Query } from 'appwrite';
import type { DocumentMeta } from '../../domain/order.ts';
import type { SyncedCollection } from '../records/changes.ts';
import type { SnapshotPort } from './ports.ts';

/** The backend's maximum page size. */
export const PAGE_SIZE = 5000;

/** Epoch ms as the ISO form Appwrite compares datetimes in. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Options of a paged read. */
export interface PageOptions {
  /** Stop after this many documents (the last page is cut). */
  max?: number;
  pageSize?: number;
  /** A smaller first page (default: `pageSize`), to have something to show sooner. */
  firstPageSize?: number;
}

/** Whether `error` is the backend's answer to a `cursorAfter` naming a document that is gone. */
function isCursorGone(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'general_cursor_not_found';
}

/**
 * Pages through `collection` with `cursorAfter`, for orderings on attributes that never
 * change (`$createdAt`, `$sequence`): Appwrite resumes from the cursor document's *current*
 * values, which is only safe when they cannot have moved. Stops at a short page or at `max`.
 * The next page is requested before this one is handed over, so the server reads it while the
 * caller converts and applies this one. A page's last document deleted meanwhile is no cursor:
 * the read resumes after the last one of the page still there (what follows it is the same).
 */
export async function* cursorPages(
  port: SnapshotPort,
  collection: SyncedCollection,
  queries: readonly string[],
  options: PageOptions = {},
): AsyncGenerator<readonly DocumentMeta[]> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const max = options.max ?? Infinity;
  const request = (cursor: string | null, limit: number) =>
    port.list(collection, [
      ...queries,
      Query.limit(limit),
      ...(cursor === null ? [] : [Query.cursorAfter(cursor)]),
    ]);
  const after = async (page: readonly DocumentMeta[], limit: number) => {
    for (let i = page.length - 1; ; i--) {
      try {
        return await request(page[i]!.$id, limit);
      } catch (error) {
        if (i === 0 || !isCursorGone(error)) throw error;
      }
    }
  };
  let read = 0;
  let limit = Math.min(options.firstPageSize ?? pageSize, pageSize, max);
  let next: ReturnType<typeof request> | null = request(null, limit);
  try {
    while (next) {
      const documents = (await next).documents;
      next = null;
      read += documents.length;
      const more = documents.length === limit && read < max;
      if (more) {
        limit = Math.min(pageSize, max - read);
        next = after(documents, limit);
      }
      if (documents.length) yield documents;
    }
  } finally {
    // Stopped early: the prefetched page is not needed (and must not reject unhandled).
    next?.catch(() => {});
  }
}

/**
 * The queries of one page of a delta read: documents with `$updatedAt` at or after `since`,
 * in (`$updatedAt`, `$id`) order, resuming strictly after `after` (the last document read).
 *
 * Keyset by value, not `cursorAfter`: a document updated while we page moves to the end of an
 * `$updatedAt` ordering, and a cursor on it would jump past every document in between.
 */
export function deltaQueries(
  since: number,
  after: { updatedAt: number; id: string } | null,
  limit: number,
): string[] {
  const order = [Query.orderAsc('$updatedAt'), Query.orderAsc('$id'), Query.limit(limit)];
  if (after === null) return [Query.greaterThanEqual('$updatedAt', isoTime(since)), ...order];
  const at = isoTime(after.updatedAt);
  return [
    Query.or([
      Query.greaterThan('$updatedAt', at),
      Query.and([Query.equal('$updatedAt', at), Query.greaterThan('$id', after.id)]),
    ]),
    ...order,
  ];
}

/** Pages through every document of `collection` changed at or after `since` (see {@link deltaQueries}). */
export async function* deltaPages(
  port: SnapshotPort,
  collection: SyncedCollection,
  since: number,
  extra: readonly string[] = [],
  pageSize = PAGE_SIZE,
): AsyncGenerator<readonly DocumentMeta[]> {
  let after: { updatedAt: number; id: string } | null = null;
  for (;;) {
    const page = await port.list(collection, [...extra, ...deltaQueries(since, after, pageSize)]);
    const documents = page.documents;
    if (documents.length) yield documents;
    if (documents.length < pageSize) return;
    const last = documents[documents.length - 1]!;
    after = { updatedAt: Date.parse(last.$updatedAt), id: last.$id };
  }
}

/**
 * Pages through a list endpoint that pages only by `offset` (the team's memberships, the
 * presences): small sets, read in pages of the backend's maximum (a change between two pages can
 * shift the offsets: a set larger than one page may miss a record until its next read). Stops at
 * a short page or `max`.
 */
export async function* offsetPages(
  port: SnapshotPort,
  collection: SyncedCollection,
  queries: readonly string[],
  options: PageOptions = {},
): AsyncGenerator<readonly DocumentMeta[]> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const max = options.max ?? Infinity;
  let read = 0;
  while (read < max) {
    const limit = Math.min(pageSize, max - read);
    const { documents } = await port.list(collection, [
      ...queries,
      Query.limit(limit),
      Query.offset(read),
    ]);
    read += documents.length;
    if (documents.length) yield documents;
    if (documents.length < limit) return;
  }
}
