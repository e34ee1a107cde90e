/**
 * Benchmarks the local backend's Databases service through node-appwrite, on a throwaway backend:
 * documents created per second (single `createDocument` calls with some concurrency, and bulk
 * `createDocuments`), then list latency of 5,000 orders filtered by status and ordered by
 * `$createdAt` desc at the final size.
 *
 *   npm run bench:backend -- [--docs 100000] [--single 2000] [--concurrency 8] [--batch 100]
 *                            [--bulk-concurrency 3] [--runs 30]
 */
import { parseArgs } from 'node:util';
import { Client, Databases, Query, type Models } from 'node-appwrite';
import { LocalBackend } from './lib/local-backend.ts';
import { DEMO_ACCOUNTS, DEMO_PRODUCTS } from './lib/demo-data.ts';
import { generateOrder, orderTimes, type GeneratedOrder } from './lib/order-generator.ts';
import { Random } from './lib/random.ts';
import { schema, type AttributeSpec, type CollectionSpec } from './schema.ts';
import { percentile } from './lib/stats.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '100000' },
    single: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    batch: { type: 'string', default: '100' },
    'bulk-concurrency': { type: 'string', default: '3' },
    runs: { type: 'string', default: '30' },
  },
});
const TOTAL = Number(args.docs);
const SINGLE = Math.min(Number(args.single), TOTAL);
const CONCURRENCY = Number(args.concurrency);
const BATCH = Number(args.batch);
const BULK_CONCURRENCY = Number(args['bulk-concurrency']);
const RUNS = Number(args.runs);
const DATABASE = 'bench';

const orders = schema.collections.find((collection) => collection.id === 'orders')!;

async function createAttribute(
  databases: Databases,
  collectionId: string,
  spec: AttributeSpec,
): Promise<void> {
  const base = { databaseId: DATABASE, collectionId, key: spec.key, required: spec.required };
  const fallback = (value: unknown) =>
    value === undefined || value === null ? {} : { xdefault: value as never };
  switch (spec.type) {
    case 'string':
      await databases.createStringAttribute({
        ...base,
        size: spec.size,
        ...fallback(spec.default),
      });
      return;
    case 'email':
      await databases.createEmailAttribute({ ...base, ...fallback(spec.default) });
      return;
    case 'enum':
      await databases.createEnumAttribute({
        ...base,
        elements: [...spec.elements],
        ...fallback(spec.default),
      });
      return;
    case 'integer':
      await databases.createIntegerAttribute({
        ...base,
        ...(spec.min === undefined ? {} : { min: spec.min }),
        ...(spec.max === undefined ? {} : { max: spec.max }),
        ...fallback(spec.default),
      });
      return;
    case 'float':
      await databases.createFloatAttribute({ ...base, ...fallback(spec.default) });
      return;
    case 'boolean':
      await databases.createBooleanAttribute({ ...base, ...fallback(spec.default) });
      return;
    case 'datetime':
      await databases.createDatetimeAttribute({ ...base, ...fallback(spec.default) });
      return;
  }
}

async function createCollection(databases: Databases, spec: CollectionSpec): Promise<void> {
  await databases.createCollection({
    databaseId: DATABASE,
    collectionId: spec.id,
    name: spec.name,
    permissions: spec.permissions,
    documentSecurity: spec.documentSecurity,
  });
  for (const attribute of spec.attributes) await createAttribute(databases, spec.id, attribute);
  for (const index of spec.indexes) {
    await databases.createIndex({
      databaseId: DATABASE,
      collectionId: spec.id,
      key: index.key,
      type: index.type as never,
      attributes: index.attributes,
    });
  }
}

function rate(count: number, ms: number): string {
  return `${Math.round(count / (ms / 1000)).toLocaleString('en-US')} docs/s (${count.toLocaleString('en-US')} in ${(ms / 1000).toFixed(1)} s)`;
}

async function main(): Promise<void> {
  const backend = await new LocalBackend().start();
  try {
    const client = new Client()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setKey(backend.apiKey);
    const databases = new Databases(client);
    await databases.create({ databaseId: DATABASE, name: 'Bench' });
    await createCollection(databases, orders);

    const now = Date.now();
    const random = new Random(42);
    const staff = DEMO_ACCOUNTS.filter((account) => account.role !== 'owner');
    const generated: GeneratedOrder[] = orderTimes(TOTAL, now, random).map((createdAt, index) =>
      generateOrder({
        number: 1001 + index,
        createdAt,
        now,
        products: DEMO_PRODUCTS,
        staff,
        random,
      }),
    );
    console.log(`Local backend ${backend.endpoint}, data in ${backend.dataDir}`);
    console.log(
      `Collection "orders" (${orders.attributes.length} attributes, ${orders.indexes.length} indexes)`,
    );

    // Single creates, CONCURRENCY in flight.
    let next = 0;
    let started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < SINGLE) {
          const { $id, ...data } = generated[next++]!;
          await databases.createDocument({
            databaseId: DATABASE,
            collectionId: orders.id,
            documentId: $id,
            data,
          });
        }
      }),
    );
    console.log(
      `createDocument, ${CONCURRENCY} in flight:          ${rate(SINGLE, performance.now() - started)}`,
    );

    // Bulk creates, batches of BATCH, BULK_CONCURRENCY in flight.
    started = performance.now();
    await Promise.all(
      Array.from({ length: BULK_CONCURRENCY }, async () => {
        while (next < TOTAL) {
          const batch = generated.slice(next, next + BATCH);
          next += BATCH;
          await databases.createDocuments({
            databaseId: DATABASE,
            collectionId: orders.id,
            documents: batch,
          });
        }
      }),
    );
    console.log(
      `createDocuments, ${BATCH}/batch, ${BULK_CONCURRENCY} in flight: ${rate(TOTAL - SINGLE, performance.now() - started)}`,
    );

    // Lists of 5,000 filtered by status and ordered by $createdAt desc, on the most common
    // status (generated orders are mostly past `paid` by now), so that pages are full.
    const counts = new Map<string, number>();
    for (const order of generated) counts.set(order.status, (counts.get(order.status) ?? 0) + 1);
    const status = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const queries = [
      Query.equal('status', [status]),
      Query.orderDesc('$createdAt'),
      Query.limit(5000),
    ];
    const first = await databases.listDocuments<Models.DefaultDocument>({
      databaseId: DATABASE,
      collectionId: orders.id,
      queries,
    });
    const url = new URL(
      `${backend.endpoint}/databases/${DATABASE}/collections/${orders.id}/documents`,
    );
    queries.forEach((query, i) => url.searchParams.append(`queries[${i}]`, query));
    const headers = { 'x-appwrite-project': backend.projectId, 'x-appwrite-key': backend.apiKey };
    const raw: number[] = [];
    const sdk: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS; run++) {
      let t = performance.now();
      const response = await fetch(url, { headers });
      bytes = (await response.arrayBuffer()).byteLength;
      raw.push(performance.now() - t);
      t = performance.now();
      await databases.listDocuments({ databaseId: DATABASE, collectionId: orders.id, queries });
      sdk.push(performance.now() - t);
    }
    raw.sort((a, b) => a - b);
    sdk.sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `list 5,000 (status = ${status}, $createdAt desc) at ${TOTAL.toLocaleString('en-US')} documents: ${first.documents.length} returned, total ${first.total}, ${(bytes / 1e6).toFixed(1)} MB`,
    );
    console.log(
      `  HTTP round trip (raw fetch, body read): p50 ${ms(percentile(raw, 50))}, p95 ${ms(percentile(raw, 95))} over ${RUNS} runs`,
    );
    console.log(
      `  through node-appwrite (incl. its JSON parse): p50 ${ms(percentile(sdk, 50))}, p95 ${ms(percentile(sdk, 95))}`,
    );
  } finally {
    await backend.stop();
  }
}

await main();
