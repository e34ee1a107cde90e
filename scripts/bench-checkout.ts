import { performance } from 'node:perf_hooks';
import { Client, Databases, Functions, ID, Query, Teams, Users } from 'node-appwrite';
import { LocalBackend } from './lib/local-backend.ts';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../domain/ids.ts';
import type { OrderDocument } from '../domain/order.ts';
import { CheckoutCustomers, type PaidCheckout } from './lib/checkout-customers.ts';
import { DEMO_CURRENCY, DEMO_PRODUCTS } from './lib/demo-data.ts';
import { runBrowserCheckoutBench } from './lib/bench-checkout-browser.ts';
import { numberArg, parseArgs } from './lib/env.ts';
import { Provisioner } from './lib/provisioner.ts';
import { Random } from './lib/random.ts';
import { schema } from './schema.ts';
import { percentile } from './lib/stats.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

/**
 * `npm run bench:checkout -- [--orders 60] [--warmup 5] [--concurrent 50]`
 *
 * Card payments end to end against a throwaway local backend with its Stripe double, provisioned
 * as `npm run provision` does (the checkout and stripe-webhook functions, the webhook endpoint),
 * with a staff member's realtime socket standing for the desk. Two phases:
 *
 * 1. one customer at a time (`--orders`, after `--warmup`): the `checkout` function's round trip
 *    from the customer's SDK call to its answer and its own execution time, then the payment
 *    (confirmed at the double as Stripe.js does) → the order `paid` on the desk's socket (the
 *    webhook's delivery, its execution, the write and realtime);
 * 2. `--concurrent` customers checking out and paying at once through the simulator's checkout
 *    path: every customer has exactly one order, paid, with its own number, and every one of
 *    them reached the desk; how long the last took.
 *
 * Prints p50/p95/max in milliseconds.
 *
 * `--browser`: the same path driven through the product's screens in headless Chromium — the
 * Pay click on /shop → the order's row on a staff desk in another browser context, median and
 * p95 (scripts/lib/bench-checkout-browser.ts).
 */

function summary(label: string, values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(7);
  return `${label.padEnd(40)} p50 ${f(percentile(sorted, 50))}  p95 ${f(percentile(sorted, 95))}  max ${f(sorted.at(-1)!)}  (ms, n=${sorted.length})`;
}

/** A staff member's realtime socket on the orders: when each order was first seen paid. */
class DeskSocket {
  readonly paidAt = new Map<string, number>();
  private readonly ws: WebSocket;
  private readonly waiters = new Set<() => void>();

  private constructor(ws: WebSocket) {
    this.ws = ws;
  }

  static open(endpoint: string, projectId: string, session: string): Promise<DeskSocket> {
    const url = `${endpoint.replace(/^http/, 'ws')}/realtime?project=${projectId}`;
    const channel = `databases.${DATABASE_ID}.collections.${COLLECTIONS.orders}.documents`;
    return new Promise((resolve, reject) => {
      const socket = new DeskSocket(new WebSocket(url));
      socket.ws.addEventListener('error', () => reject(new Error('the desk socket failed')));
      socket.ws.addEventListener('message', (message) => {
        const at = performance.now();
        const data = JSON.parse(String(message.data)) as {
          type: string;
          data?: { to?: string; payload?: Partial<OrderDocument>; message?: string };
        };
        if (data.type === 'event') {
          const order = data.data!.payload!;
          if (order.status === 'paid' && order.$id && !socket.paidAt.has(order.$id)) {
            socket.paidAt.set(order.$id, at);
            for (const wake of [...socket.waiters]) wake();
          }
        } else if (data.type === 'connected') {
          socket.ws.send(JSON.stringify({ type: 'authentication', data: { session } }));
          socket.ws.send(
            JSON.stringify({
              type: 'subscribe',
              data: [{ subscriptionId: 'desk', channels: [channel] }],
            }),
          );
        } else if (data.type === 'response' && data.data?.to === 'subscribe') {
          resolve(socket);
        } else if (data.type === 'error') {
          reject(new Error(`desk socket: ${data.data?.message}`));
        }
      });
    });
  }

  /** Resolves once every order of `ids` was seen paid (fails after `timeoutMs`). */
  waitForPaid(ids: readonly string[], timeoutMs = 120_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!ids.every((id) => this.paidAt.has(id))) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        const missing = ids.filter((id) => !this.paidAt.has(id));
        reject(
          new Error(`${missing.length} order(s) never reached the desk: ${missing.join(' ')}`),
        );
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.ws.close();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const orders = numberArg(args, 'orders', 60, { min: 50, max: 10_000 });
  const warmup = numberArg(args, 'warmup', 5, { min: 1, max: 1_000 });
  if (args.has('browser')) return runBrowserCheckoutBench({ orders, warmup });
  const concurrent = numberArg(args, 'concurrent', 50, { min: 1, max: 500 });
  const backend = await new LocalBackend().start();
  let desk: DeskSocket | null = null;
  try {
    const admin = new Client()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setKey(backend.apiKey);
    let started = performance.now();
    const report = await new Provisioner(admin, () => {}, { env: {} }).apply(schema);
    console.log(
      `provisioned ${backend.endpoint}: ${report.changes.length} changes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const databases = new Databases(admin);
    for (const { id, ...product } of DEMO_PRODUCTS)
      await databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.products,
        documentId: id,
        data: { ...product, currency: DEMO_CURRENCY, active: true },
      });
    const users = new Users(admin);
    const staff = await users.create({
      userId: ID.unique(),
      email: 'bench-desk@example.test',
      password: 'correct-horse-battery',
      name: 'Bench Desk',
    });
    await new Teams(admin).createMembership({
      teamId: DESK_TEAM_ID,
      roles: ['staff'],
      userId: staff.$id,
    });
    const session = await users.createSession({ userId: staff.$id });
    desk = await DeskSocket.open(backend.endpoint, backend.projectId, session.secret);
    const customers = new CheckoutCustomers(backend, {});
    await customers.prepare();

    // 1. One customer at a time.
    const checkoutMs: number[] = [];
    const executionMs: number[] = [];
    const paidToDeskMs: number[] = [];
    for (let i = 0; i < warmup + orders; i++) {
      const paid = await customers.placeAndPay(new Random(i + 1));
      await desk.waitForPaid([paid.answer.orderId]);
      if (i < warmup) continue;
      checkoutMs.push(paid.checkoutMs);
      paidToDeskMs.push(desk.paidAt.get(paid.answer.orderId)! - paid.confirmedAt);
      const { executions } = await new Functions(admin).listExecutions({
        functionId: FUNCTIONS.checkout,
        queries: [Query.orderDesc('$createdAt'), Query.limit(1)],
      });
      executionMs.push((executions[0]?.duration ?? NaN) * 1000);
    }
    console.log(`one customer at a time: ${orders} orders after ${warmup} warm-up`);
    console.log(summary('checkout round trip (customer SDK)', checkoutMs));
    console.log(summary('checkout execution (server)', executionMs));
    console.log(summary('payment confirmed → paid on the desk', paidToDeskMs));

    // 2. Many customers at once, through the simulator's checkout path.
    started = performance.now();
    const all: PaidCheckout[] = await Promise.all(
      Array.from({ length: concurrent }, (_, i) =>
        customers.placeAndPay(new Random(100_000 + i), i % 10 === 0 ? 1 : 0),
      ),
    );
    const ids = all.map((paid) => paid.answer.orderId);
    await desk.waitForPaid(ids);
    const lastOnDesk = Math.max(...ids.map((id) => desk!.paidAt.get(id)!)) - started;
    const problems: string[] = [];
    for (const paid of all) {
      const { documents } = await databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        queries: [Query.equal('customerId', [paid.customer.userId])],
      });
      const mine = documents as unknown as OrderDocument[];
      if (mine.length !== 1)
        problems.push(`customer ${paid.customer.userId}: ${mine.length} orders`);
      else if (mine[0]!.status !== 'paid' || mine[0]!.$id !== paid.answer.orderId)
        problems.push(`order ${mine[0]!.$id}: ${mine[0]!.status}`);
    }
    const numbers = new Set(all.map((paid) => paid.answer.number));
    if (numbers.size !== concurrent)
      problems.push(`${numbers.size} numbers for ${concurrent} orders`);
    console.log(
      `${concurrent} customers at once (${all.filter((paid) => paid.declines).length} after a declined card): ${problems.length === 0 ? 'every customer has one order, paid, with its own number, and on the desk' : `PROBLEMS: ${problems.join('; ')}`}`,
    );
    console.log(
      summary(
        'checkout round trip, all at once',
        all.map((paid) => paid.checkoutMs),
      ),
    );
    console.log(
      `all ${concurrent} paid on the desk ${lastOnDesk.toFixed(0)} ms after the first click`,
    );
    if (problems.length) process.exitCode = 1;
  } finally {
    desk?.close();
    await backend.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
