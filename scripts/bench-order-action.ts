import { performance } from 'node:perf_hooks';
import { Client as WebClient, Functions as WebFunctions } from 'appwrite';
import { Client, Databases, ID, Teams, Users } from 'node-appwrite';
import { LocalBackend } from './lib/local-backend.ts';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../domain/ids.ts';
import { numberArg, parseArgs } from './lib/env.ts';
import { Provisioner } from './lib/provisioner.ts';
import { schema } from './schema.ts';
import { percentile } from './lib/stats.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

/**
 * `npm run bench:functions -- [--actions 240] [--warmup 24]`
 *
 * Round trip of `order-action` from the browser SDK (`appwrite` `Functions.createExecution`,
 * synchronous) against the local backend, warm: starts a throwaway backend, provisions it with
 * the provisioner (schema and functions, as `npm run provision` does), signs a staff member in,
 * creates paid orders and walks each through claim → start → ready → fulfil, one action at a
 * time. Prints p50/p95/p99/max of the round trip (request sent → execution answered) and of the
 * execution's own `duration` (time inside the runtime).
 */

const STEPS = ['claim', 'start', 'ready', 'fulfil'] as const;

function summary(label: string, values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  const f = (value: number) => value.toFixed(1).padStart(6);
  return `${label.padEnd(28)} p50 ${f(percentile(sorted, 50))}  p95 ${f(percentile(sorted, 95))}  p99 ${f(percentile(sorted, 99))}  max ${f(sorted.at(-1)!)}  mean ${f(mean)}  (ms, n=${sorted.length})`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const actions = numberArg(args, 'actions', 240, { min: 200, max: 100_000 });
  const warmup = numberArg(args, 'warmup', 24, { min: 4, max: 10_000 });
  const backend = await new LocalBackend().start();
  try {
    const admin = new Client()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setKey(backend.apiKey);
    let started = performance.now();
    const report = await new Provisioner(admin).apply(schema);
    console.log(
      `provisioned ${backend.endpoint}: ${report.changes.length} changes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const users = new Users(admin);
    const user = await users.create({
      userId: ID.unique(),
      email: 'bench-staff@example.test',
      password: 'correct-horse-battery',
      name: 'Bench Staff',
    });
    await new Teams(admin).createMembership({
      teamId: DESK_TEAM_ID,
      roles: ['staff'],
      userId: user.$id,
    });
    const session = await users.createSession({ userId: user.$id });
    const web = new WebClient()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setSession(session.secret);
    const functions = new WebFunctions(web);

    const databases = new Databases(admin);
    const total = warmup + actions;
    const orders: string[] = [];
    for (let i = 0; i < Math.ceil(total / STEPS.length); i++) {
      const order = await databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: ID.unique(),
        data: {
          number: 1000 + i,
          status: 'paid',
          customerName: 'Bench Customer',
          customerEmail: 'customer@example.test',
          items: JSON.stringify([{ productId: 'p1', name: 'Latte', unitPriceCents: 350, qty: 1 }]),
          itemsSummary: '1× Latte',
          subtotalCents: 350,
          totalCents: 350,
          currency: 'eur',
          paymentStatus: 'succeeded',
          rev: 0,
        },
      });
      orders.push(order.$id);
    }

    const roundTrips: number[] = [];
    const durations: number[] = [];
    started = performance.now();
    for (let i = 0; i < total; i++) {
      const orderId = orders[Math.floor(i / STEPS.length)]!;
      const step = i % STEPS.length;
      const sent = performance.now();
      const execution = await functions.createExecution({
        functionId: FUNCTIONS.orderAction,
        body: JSON.stringify({ orderId, action: STEPS[step], expectedRev: step }),
        headers: { 'content-type': 'application/json' },
      });
      const elapsed = performance.now() - sent;
      if (execution.responseStatusCode !== 200)
        throw new Error(
          `action ${i} answered ${execution.responseStatusCode}: ${execution.responseBody}`,
        );
      if (i < warmup) continue;
      roundTrips.push(elapsed);
      durations.push(execution.duration * 1000);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `order-action, browser SDK createExecution (sync), warm, one at a time: ${actions} measured after ${warmup} warm-up actions (${(total / seconds).toFixed(0)} actions/s)`,
    );
    console.log(summary('round trip', roundTrips));
    console.log(summary('execution duration (server)', durations));
  } finally {
    await backend.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
