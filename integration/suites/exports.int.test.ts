import { Databases as WebDatabases, ID, Storage as WebStorage } from 'appwrite';
import { parse } from 'csv-parse/sync';
import { Databases, Functions } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS } from '../../domain/exports.ts';
import { BUCKETS, COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import { installBrowserGlobals, until } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient, uniqueTestId } from '../support/clients.ts';
import { callFunction, deskPerson, orderData, type Person } from '../support/desk.ts';
import { poll } from '../support/functions.ts';
import { closeAll, listen, realtimeFor } from '../support/realtime.ts';

installBrowserGlobals();

const DAY = 24 * 3600_000;
const MATCHING = 6_000;

const databases = new Databases(serverClient());
const EXPORTS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.exports } as const;

/** Creates orders with the API key, 100 a call. */
async function seed(documents: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < documents.length; i += 100)
    await databases.createDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documents: documents.slice(i, i + 100),
    });
}

function readExport(exportId: string) {
  return databases.getDocument({ ...EXPORTS, documentId: exportId });
}

describe('export-orders (CSV exports of orders)', () => {
  let mia: Person;
  let sam: Person;
  /** The assignee of this file's orders, so other suites' orders never match. */
  const assignee = uniqueTestId('as');
  const expected = new Map<string, { total: string; status: string }>();
  const now = Date.now();

  beforeAllOnTarget(async () => {
    [mia, sam] = await Promise.all([
      deskPerson('Mia Export', 'manager'),
      deskPerson('Sam Export', 'staff'),
    ]);
    const statuses = ['paid', 'preparing', 'ready', 'fulfilled'];
    // The CSV names a status as the desk shows it.
    const SHOWN_AS: Record<string, string> = {
      paid: 'Paid',
      preparing: 'Preparing',
      ready: 'Ready',
      fulfilled: 'Done',
    };
    const docs: Record<string, unknown>[] = [];
    for (let i = 0; i < MATCHING; i++) {
      const data = orderData();
      const totalCents = 100 + (i % 997);
      const status = statuses[i % statuses.length]!;
      docs.push({
        ...data,
        $id: uniqueTestId('ex'),
        $createdAt: new Date(now - ((i * 29 * DAY) / MATCHING + 60_000)).toISOString(),
        status,
        subtotalCents: totalCents,
        totalCents,
        // Quoting: commas, quotes and a line break in a name.
        customerName: i % 500 === 0 ? 'Kiki "K", Jr.\nSecond line' : `Customer ${i}`,
        assigneeId: assignee,
        assigneeName: 'Exporter Ann',
      });
      expected.set(String(data.number), {
        total: `${Math.trunc(totalCents / 100)}.${String(totalCents % 100).padStart(2, '0')}`,
        status: SHOWN_AS[status]!,
      });
    }
    const other = (patch: Record<string, unknown>) => ({
      ...orderData(),
      $id: uniqueTestId('ex'),
      assigneeId: assignee,
      assigneeName: 'Exporter Ann',
      ...patch,
    });
    for (let i = 0; i < 100; i++) {
      docs.push(other({ status: 'canceled', $createdAt: new Date(now - DAY).toISOString() }));
      docs.push(other({ $createdAt: new Date(now - 40 * DAY).toISOString() }));
      docs.push(
        other({ assigneeId: `${assignee}x`, $createdAt: new Date(now - DAY).toISOString() }),
      );
    }
    await seed(docs);
  }, 120_000);

  afterEach(async () => {
    await closeAll();
  });

  const filter = () => ({
    statuses: ['paid', 'preparing', 'ready', 'fulfilled'],
    createdFrom: new Date(now - 30 * DAY).toISOString(),
    createdBefore: new Date(now + DAY).toISOString(),
    assignee,
  });

  it('exports the matching orders into a CSV, with progress over realtime', async () => {
    const exportId = ID.unique();
    const listening = await listen(
      realtimeFor(mia.client),
      `databases.${DATABASE_ID}.collections.${COLLECTIONS.exports}.documents.${exportId}`,
    );
    const started = await callFunction(mia.client, FUNCTIONS.exportOrders, {
      exportId,
      filter: filter(),
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      $id: exportId,
      status: 'queued',
      requestedBy: mia.userId,
    });

    const payloads = () =>
      listening.inbox.map((e) => e.payload as { status: string; rowCount: number });
    await until(
      () => payloads().some((p) => p.status === 'done' || p.status === 'failed'),
      60_000,
      'the export to finish',
    );
    const seen = payloads();
    const done = seen.at(-1)!;
    expect(done).toMatchObject({ status: 'done', rowCount: MATCHING });
    expect(seen.some((p) => p.status === 'running')).toBe(true);
    const counts = seen.map((p) => p.rowCount);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));

    const record = await readExport(exportId);
    expect(record.fileId).toBe(exportId);
    const url = new WebStorage(mia.client).getFileDownload({
      bucketId: BUCKETS.exports,
      fileId: String(record.fileId),
    });
    const response = await fetch(url, { headers: { 'x-appwrite-session': mia.secret } });
    expect(response.status).toBe(200);
    const rows = parse(await response.text(), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(Object.keys(rows[0]!)).toEqual([...EXPORT_COLUMNS]);
    expect(rows).toHaveLength(MATCHING);
    const byNumber = new Map(rows.map((row) => [row.Order!, row]));
    expect(new Set(byNumber.keys())).toEqual(new Set(expected.keys()));
    for (const [number, want] of expected) {
      const row = byNumber.get(number)!;
      expect(row.Total).toBe(want.total);
      expect(row.Status).toBe(want.status);
      expect(row.Assignee).toBe('Exporter Ann');
    }
    expect(rows.filter((row) => row.Customer === 'Kiki "K", Jr.\nSecond line')).toHaveLength(
      MATCHING / 500,
    );
    const created = rows.map((row) => Date.parse(row.Created!));
    expect(created).toEqual([...created].sort((a, b) => a - b));
  }, 120_000);

  it('refuses staff and a bad filter, creating nothing; managers only read exports', async () => {
    const exportId = ID.unique();
    const bySam = await callFunction(sam.client, FUNCTIONS.exportOrders, {
      exportId,
      filter: filter(),
    });
    expect(bySam.status).toBe(403);
    expect(bySam.body.error?.code).toBe('FORBIDDEN');
    const bad = await callFunction(mia.client, FUNCTIONS.exportOrders, {
      exportId,
      filter: { statuses: ['lost'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION', details: { field: 'statuses' } });
    await expect(readExport(exportId)).rejects.toMatchObject({ code: 404 });

    // A done export: the manager reads it and its file, staff neither.
    const done = await callFunction(mia.client, FUNCTIONS.exportOrders, {
      exportId,
      filter: { ...filter(), statuses: ['canceled'] },
    });
    expect(done.status).toBe(200);
    const record = await poll(
      () => readExport(exportId),
      (doc) => doc.status === 'done',
      60_000,
      'the export',
    );
    expect(record.rowCount).toBe(100);
    const staffRead = new WebDatabases(sam.client).getDocument({
      ...EXPORTS,
      documentId: exportId,
    });
    await expect(staffRead).rejects.toMatchObject({ code: expect.any(Number) });
    await expect(
      new WebStorage(sam.client).getFile({ bucketId: BUCKETS.exports, fileId: exportId }),
    ).rejects.toMatchObject({ code: 401 });
    expect(
      await new WebStorage(mia.client).getFile({ bucketId: BUCKETS.exports, fileId: exportId }),
    ).toMatchObject({ name: expect.stringMatching(/^orders-\d{4}-\d{2}-\d{2}-.+\.csv$/) });
    // Exports are started through the function only.
    await expect(
      new WebDatabases(mia.client).createDocument({
        ...EXPORTS,
        documentId: ID.unique(),
        data: { requestedBy: mia.userId, filter: '{}', status: 'queued', rowCount: 0 },
      }),
    ).rejects.toMatchObject({ code: 401 });
  }, 120_000);

  it('marks an export it cannot run failed, saying why', async () => {
    const exportId = ID.unique();
    await databases.createDocument({
      ...EXPORTS,
      documentId: exportId,
      data: {
        requestedBy: mia.userId,
        filter: JSON.stringify({ statuses: ['lost'] }),
        status: 'queued',
        rowCount: 0,
      },
    });
    const record = await poll(
      () => readExport(exportId),
      (doc) => doc.status === 'failed',
      60_000,
      'the export to fail',
    );
    expect(record.error).toMatch(/^The export stopped: Statuses must be some of/);
    expect(record.fileId).toBeNull();
  });

  it('is deployed for signed-in users and triggered by new export records', async () => {
    const fn = await new Functions(serverClient()).get({ functionId: FUNCTIONS.exportOrders });
    expect(fn).toMatchObject({
      execute: ['users'],
      events: [`databases.${DATABASE_ID}.collections.${COLLECTIONS.exports}.documents.*.create`],
    });
  });
});
