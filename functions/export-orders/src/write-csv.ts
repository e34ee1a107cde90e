import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { Databases, Query, type Client } from 'node-appwrite';
import {
  EXPORT_COLUMNS,
  EXPORT_ORDER_FIELDS,
  exportRow,
  type ExportFilter,
  type ExportOrderDocument,
} from '../../../domain/exports.ts';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';

/** Orders per read: small enough that the count moves several times a second, and little memory. */
export const PAGE_SIZE = 1000;

/** The queries of an export's filter (node-appwrite `Query` strings). */
export function filterQueries(filter: ExportFilter): string[] {
  const queries: string[] = [];
  if (filter.statuses.length > 0) queries.push(Query.equal('status', filter.statuses));
  if (filter.createdFrom) queries.push(Query.greaterThanEqual('$createdAt', filter.createdFrom));
  if (filter.createdBefore) queries.push(Query.lessThan('$createdAt', filter.createdBefore));
  if (filter.assignee === 'none') queries.push(Query.isNull('assigneeId'));
  else if (filter.assignee !== 'any') queries.push(Query.equal('assigneeId', filter.assignee));
  return queries;
}

/**
 * The matching orders, oldest first, page by page with `cursorAfter` (`$createdAt` never
 * changes, so the cursor is safe). The next page is requested before this one is handed over.
 */
async function* orderPages(
  client: Client,
  filter: ExportFilter,
): AsyncGenerator<ExportOrderDocument[]> {
  const databases = new Databases(client);
  const base = [
    ...filterQueries(filter),
    Query.select(['$id', '$createdAt', ...EXPORT_ORDER_FIELDS]),
    Query.orderAsc('$createdAt'),
    Query.limit(PAGE_SIZE),
  ];
  const read = (cursor: string | null) =>
    databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: cursor === null ? base : [...base, Query.cursorAfter(cursor)],
      total: false,
    });
  let next: ReturnType<typeof read> | null = read(null);
  try {
    while (next) {
      const { documents }: { documents: unknown[] } = await next;
      next =
        documents.length === PAGE_SIZE
          ? read((documents[documents.length - 1] as { $id: string }).$id)
          : null;
      yield documents as unknown as ExportOrderDocument[];
    }
  } finally {
    next?.catch(() => {});
  }
}

/**
 * Streams the orders matching `filter` as CSV (csv-stringify: header row, RFC 4180 quoting, a
 * UTF-8 byte order mark so spreadsheets read accents) into the file at `path`, one page in
 * memory at a time. `onRows` hears the running count after each page. Returns the row count.
 */
export async function writeOrdersCsv(
  client: Client,
  filter: ExportFilter,
  path: string,
  onRows: (rowCount: number) => void,
): Promise<number> {
  const file = createWriteStream(path);
  const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS], bom: true });
  csv.pipe(file);
  let rows = 0;
  try {
    for await (const page of orderPages(client, filter)) {
      for (const doc of page) if (!csv.write(exportRow(doc))) await once(csv, 'drain');
      rows += page.length;
      onRows(rows);
    }
  } catch (error) {
    csv.destroy();
    file.destroy();
    throw error;
  }
  csv.end();
  await finished(file);
  return rows;
}
