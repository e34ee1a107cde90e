import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Client, Databases, Functions, ID, Query } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS, REPAIR_CURSOR_ID } from '../domain/ids.ts';
import type { OrderDocument } from '../domain/order.ts';
import { commitUntilLanded } from '../functions/_shared/order-writes.ts';
import { LocalBackend } from './lib/local-backend.ts';
import { Provisioner } from './lib/provisioner.ts';
import { Seeder } from './lib/seeder.ts';
import { schema } from './schema.ts';
import { machineLine, recordEntry } from './lib/bench-record.ts';
import { median } from './lib/stats.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

/**
 * `npm run bench:repair`: what one run of `repair-orders` costs on a backend seeded with
 * `--orders` (100,000) orders over 30 days. Each round writes `--changes` notes (note + count +
 * rev + record in one transaction, as note-action does) on recent orders, sets the cursor a
 * minute back and runs the function once (`settleMs: 0`): its execution time, and a run with
 * nothing changed. Prints the figures and appends them to docs/benchmarks.md.
 */

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '100000' },
    changes: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    'no-record': { type: 'boolean', default: false },
  },
});
const ORDERS = Number(args.orders);
const CHANGES = Number(args.changes);
const ROUNDS = Number(args.rounds);

const REPAIRER_INTRO =
  '`npm run bench:repair` (scripts/bench-repair.ts): one run of the `repair-orders` function over a seeded local backend, with nothing changed and with changed orders in its window.';

async function main(): Promise<void> {
  const backend = await new LocalBackend({ projectId: 'livedesk-bench-repair' }).start();
  try {
    const api = new Client()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setKey(backend.apiKey);
    await new Provisioner(api).apply(schema);
    const seeder = new Seeder(api);
    await seeder.ensureCatalog();
    const seeding = Date.now();
    await seeder.seedOrders(ORDERS, { days: 30 });
    console.log(`seeded ${ORDERS} orders in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
    const databases = new Databases(api);
    const functions = new Functions(api);
    const { documents } = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.orderDesc('$createdAt'), Query.limit(2000)],
    });
    const recent = documents as unknown as OrderDocument[];
    const run = async (): Promise<{ ms: number; checked: number; drift: number }> => {
      await databases.upsertDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.counters,
        documentId: REPAIR_CURSOR_ID,
        data: { value: Date.now() - 60_000 },
      });
      const started = Date.now();
      const execution = await functions.createExecution({
        functionId: FUNCTIONS.repairOrders,
        body: JSON.stringify({ settleMs: 0 }),
      });
      const ms = Date.now() - started;
      if (execution.status !== 'completed') throw new Error(execution.errors);
      const answer = JSON.parse(execution.responseBody) as { checked: number; drift: number };
      return { ms, ...answer };
    };
    await run(); // warm the runtime
    const loadBefore = loadavg()[0]!;
    const busy: { ms: number; checked: number; drift: number }[] = [];
    const idle: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await new Promise((done) => setTimeout(done, 61_000 - 0)); // the last round's changes leave the window
      idle.push((await run()).ms);
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < CHANGES) {
            const order = recent[next++ % recent.length]!;
            await commitUntilLanded(api, order.$id, (read) => ({
              change: {
                patch: {
                  noteCount: read.noteCount + 1,
                  rev: read.rev + 1,
                  updatedById: 'bench',
                  updatedByName: 'Bench',
                },
                activity: { kind: 'note', data: { action: 'added' } },
              },
              author: { id: 'bench', name: 'Bench' },
              writes: [
                {
                  action: 'create',
                  collectionId: COLLECTIONS.notes,
                  documentId: ID.unique(),
                  data: { orderId: order.$id, authorId: 'bench', authorName: 'Bench', body: 'x' },
                },
              ],
            }));
          }
        }),
      );
      const result = await run();
      console.log(`round ${round}: idle ${idle.at(-1)} ms; ${JSON.stringify(result)}`);
      if (result.drift !== 0) throw new Error(`drift found: ${result.drift}`);
      busy.push(result);
    }
    const loadAfter = loadavg()[0]!;
    const section = [
      '',
      `### ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${machineLine()} · ${ORDERS.toLocaleString('en-US')} orders`,
      '',
      `\`npm run bench:repair -- --orders ${ORDERS} --changes ${CHANGES} --rounds ${ROUNDS}\`. One run of \`repair-orders\` (execution call → answer), cursor a minute back. Load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; no drift found in any run.`,
      '',
      `| run | ${busy.map((_, i) => `round ${i + 1}`).join(' | ')} | median |`,
      `|${'---|'.repeat(busy.length + 2)}`,
      `| nothing changed in the window | ${idle.map((ms) => `${ms} ms`).join(' | ')} | ${median(idle)} ms |`,
      `| ${CHANGES} notes in the window (orders checked) | ${busy.map((r) => `${r.ms} ms (${r.checked})`).join(' | ')} | ${median(busy.map((r) => r.ms))} ms |`,
      `| per order checked | ${busy.map((r) => `${(r.ms / Math.max(r.checked, 1)).toFixed(2)} ms`).join(' | ')} | ${median(busy.map((r) => r.ms / Math.max(r.checked, 1))).toFixed(2)} ms |`,
      '',
    ].join('\n');
    console.log(section);
    if (!args['no-record']) recordEntry('Repairer', section, REPAIRER_INTRO);
  } finally {
    await backend.stop();
  }
}

await main();
