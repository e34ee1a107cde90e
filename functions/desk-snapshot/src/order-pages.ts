import { Databases, Query, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import type { Order } from '../../../domain/order.ts';
import type { DocumentMeta } from '../../../domain/schema.ts';
import {
  ALWAYS_LOADED,
  HISTORY_DAYS,
  MAX_ORDERS,
  windowStart,
} from '../../../store/sync/desk-window.ts';
import { listOrderFromDocument, ORDER_LIST_SELECT } from '../../../store/sync/documents.ts';
import { cursorPages } from '../../../store/sync/pager.ts';
import type { DocumentPage, SnapshotPort } from '../../../store/sync/ports.ts';

const ORDERS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.orders } as const;

/** The watermark of a snapshot whose newest change is `newest` (epoch ms; 0 without orders). */
export function watermarkOf(newest: Pick<DocumentMeta, '$updatedAt'> | undefined): number {
  if (newest === undefined) return 0;
  const ms = Date.parse(newest.$updatedAt);
  if (!Number.isFinite(ms)) throw new TypeError(`Not a time: ${newest.$updatedAt}`);
  return ms;
}

/**
 * The latest `$updatedAt` of any order (epoch ms; 0 when there are none). Read before the orders
 * are paged through: a change landing while they are read is stamped at or after it, and the
 * desk catches up from the watermark less its margin, so the snapshot plus that catch-up miss
 * nothing (the margin covers a transaction stamped a moment before it became visible).
 */
export async function readWatermark(client: Client): Promise<number> {
  const { documents } = await new Databases(client).listDocuments({
    ...ORDERS,
    queries: [Query.orderDesc('$updatedAt'), Query.limit(1), Query.select(['$id', '$updatedAt'])],
    total: false,
  });
  return watermarkOf(documents[0]);
}

/**
 * The orders a desk holds, as list copies (`listOrderFromDocument` of what `ORDER_LIST_SELECT`
 * reads): those created in the desk's window (the last `HISTORY_DAYS` at `now`, the newest
 * `MAX_ORDERS` of them) and the open and unpaid ones of any age, as a desk's first load reads
 * them, in the desk's pages (`cursorPages`: in an order that never changes for a document, the
 * next page requested before this one is converted, a deleted cursor passed over).
 */
export async function readListOrders(client: Client, now = Date.now()): Promise<Order[]> {
  const since = new Date(windowStart(now, HISTORY_DAYS)).toISOString();
  const orders: Order[] = [];
  await readPages(
    client,
    [Query.greaterThanEqual('$createdAt', since), Query.orderDesc('$createdAt')],
    MAX_ORDERS,
    orders,
  );
  await readPages(
    client,
    [
      Query.equal('status', [...ALWAYS_LOADED]),
      Query.lessThan('$createdAt', since),
      Query.orderAsc('$createdAt'),
    ],
    Infinity,
    orders,
  );
  return orders;
}

/** Reads the orders `queries` match, at most `max`, into `out` (the desk's own paging). */
async function readPages(
  client: Client,
  queries: readonly string[],
  max: number,
  out: Order[],
): Promise<void> {
  const databases = new Databases(client);
  const port: SnapshotPort = {
    list: async (_collection, pageQueries) =>
      (await databases.listDocuments({
        ...ORDERS,
        queries: [...pageQueries],
        total: false,
      })) as unknown as DocumentPage,
  };
  const pages = cursorPages(port, 'orders', [...queries, Query.select([...ORDER_LIST_SELECT])], {
    max,
  });
  for await (const documents of pages)
    for (const document of documents) out.push(listOrderFromDocument(document));
}
