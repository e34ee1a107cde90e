import { AppwriteException, Databases, Query, Teams, Users, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID } from '../../domain/ids.ts';
import { orderFromDocument, type OrderDocument } from '../../domain/order.ts';
import {
  DEMO_ACCOUNTS,
  DEMO_CURRENCY,
  DEMO_PASSWORD,
  DEMO_PRODUCTS,
  SIMULATED_STAFF,
  type DemoAccount,
} from './demo-data.ts';
import { generateOrder, orderTimes, type GeneratedOrder } from './order-generator.ts';
import { ProgressBar } from './progress.ts';
import { activityIdFor } from '../../functions/_shared/appwrite.ts';
import { Random } from './random.ts';

/** Documents per `createDocuments` call (Appwrite 1.9 accepts at most 100). */
const BATCH = 100;
/** `createDocuments` calls in flight at once. */
const CONCURRENCY = 4;

function isNotFound(error: unknown): boolean {
  return error instanceof AppwriteException && error.code === 404;
}

/** Seeds demo data through `node-appwrite`: catalog, staff accounts and orders. */
export class Seeder {
  private readonly databases: Databases;
  private readonly users: Users;
  private readonly teams: Teams;
  private readonly log: (line: string) => void;

  constructor(client: Client, log: (line: string) => void = () => {}) {
    this.databases = new Databases(client);
    this.users = new Users(client);
    this.teams = new Teams(client);
    this.log = log;
  }

  /** Creates the demo products that are missing. */
  async ensureCatalog(): Promise<number> {
    let created = 0;
    for (const product of DEMO_PRODUCTS) {
      try {
        await this.databases.getDocument({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.products,
          documentId: product.id,
        });
      } catch (error) {
        if (!isNotFound(error)) throw error;
        const { id, ...data } = product;
        await this.databases.createDocument({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.products,
          documentId: id,
          data: { ...data, currency: DEMO_CURRENCY, active: true },
        });
        created++;
      }
    }
    return created;
  }

  /** Creates the demo accounts that are missing and gives each its desk role. */
  async ensureAccounts(): Promise<void> {
    await this.ensureMembers(DEMO_ACCOUNTS, DEMO_PASSWORD);
  }

  /** Creates the demo traffic's own staff ({@link SIMULATED_STAFF}; no password) in the desk team. */
  async ensureSimulatedStaff(): Promise<void> {
    await this.ensureMembers(SIMULATED_STAFF, undefined);
  }

  private async ensureMembers(
    accounts: readonly DemoAccount[],
    password: string | undefined,
  ): Promise<void> {
    const memberships = await this.teams.listMemberships({
      teamId: DESK_TEAM_ID,
      queries: [Query.limit(5000)],
    });
    for (const account of accounts) {
      try {
        await this.users.get({ userId: account.id });
      } catch (error) {
        if (!isNotFound(error)) throw error;
        await this.users.create({
          userId: account.id,
          email: account.email,
          ...(password === undefined ? {} : { password }),
          name: account.name,
        });
      }
      const membership = memberships.memberships.find((m) => m.userId === account.id);
      if (!membership) {
        await this.teams.createMembership({
          teamId: DESK_TEAM_ID,
          roles: [account.role],
          userId: account.id,
        });
      } else if (membership.roles.join() !== account.role) {
        await this.teams.updateMembership({
          teamId: DESK_TEAM_ID,
          membershipId: membership.$id,
          roles: [account.role],
        });
      }
    }
  }

  /** The highest order number so far (0 when there are none). */
  async maxOrderNumber(): Promise<number> {
    const { documents } = await this.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.orderDesc('number'), Query.limit(1), Query.select(['number'])],
    });
    return (documents[0] as unknown as { number?: number } | undefined)?.number ?? 0;
  }

  /** Whether the backend holds any order. */
  async hasOrders(): Promise<boolean> {
    return (await this.maxOrderNumber()) > 0;
  }

  /**
   * Adds `count` orders over the last `days` (default 30; numbers continue after the highest),
   * handled by `staff` (default: the demo accounts but the owner), with a progress bar.
   */
  async seedOrders(
    count: number,
    options: { seed?: number; now?: number; days?: number; staff?: readonly DemoAccount[] } = {},
  ): Promise<{ orders: number; activities: number; seconds: number }> {
    const startedAt = Date.now();
    const now = options.now ?? Date.now();
    const random = new Random(options.seed ?? 20261122);
    const staff = options.staff ?? DEMO_ACCOUNTS.filter((account) => account.role !== 'owner');
    const firstNumber = Math.max(await this.maxOrderNumber(), 1000) + 1;
    const times = orderTimes(count, now, random, options.days);
    const orders = times.map((createdAt, index) =>
      generateOrder({
        number: firstNumber + index,
        createdAt,
        now,
        products: DEMO_PRODUCTS,
        staff,
        random,
      }),
    );
    const progress = new ProgressBar('orders', count);
    await this.inBatches(COLLECTIONS.orders, orders, (n) => progress.tick(n));
    // Every order's whole history: a person changing an old seeded order meets the invariants
    // repair-orders checks (every revision has its record), not `repaired` entries.
    const activities = orders.flatMap((order) => activitiesFor(order));
    if (activities.length) {
      const activityProgress = new ProgressBar('activity', activities.length);
      await this.inBatches(COLLECTIONS.activity, activities, (n) => activityProgress.tick(n));
    }
    return {
      orders: count,
      activities: activities.length,
      seconds: (Date.now() - startedAt) / 1000,
    };
  }

  private async inBatches(
    collectionId: string,
    documents: readonly object[],
    onDone: (count: number) => void,
  ): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < documents.length) {
        const batch = documents.slice(next, next + BATCH);
        next += BATCH;
        await this.databases.createDocuments({
          databaseId: DATABASE_ID,
          collectionId,
          documents: batch as object[],
        });
        onDone(batch.length);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }

  /** Prints the demo accounts. */
  describeAccounts(): void {
    this.log('Demo accounts (password for all: ' + DEMO_PASSWORD + '):');
    for (const account of DEMO_ACCOUNTS)
      this.log(`  ${account.role.padEnd(8)} ${account.email.padEnd(24)} ${account.name}`);
  }
}

/**
 * Activity records that tell the story of a generated order, one per revision as the functions
 * write them (`<orderId>.r<rev>`: created r0, then each change in turn), so the seeded history
 * keeps the invariants `repair-orders` checks.
 */
export function activitiesFor(generated: GeneratedOrder): object[] {
  const order = orderFromDocument(generated as unknown as OrderDocument);
  const out: object[] = [];
  let rev = 0;
  const add = (kind: string, at: number | null, data: Record<string, unknown>, actor: boolean) => {
    if (at === null) return;
    out.push({
      $id: activityIdFor(order.id, rev++),
      $createdAt: new Date(at).toISOString(),
      $updatedAt: new Date(at).toISOString(),
      orderId: order.id,
      kind,
      actorId: actor ? order.assigneeId : null,
      actorName: actor ? order.assigneeName : null,
      data: JSON.stringify(data),
      at: new Date(at).toISOString(),
    });
  };
  add('created', order.createdAt, { number: order.number }, false);
  add('paid', order.paidAt, { amountCents: order.totalCents }, false);
  // Claimed when paid, or as it was started (the order generator counts one claim).
  if (order.assigneeId !== null)
    add('claimed', order.startedAt ?? order.paidAt, { action: 'claim' }, true);
  add('status', order.startedAt, { from: 'paid', to: 'preparing' }, true);
  add('status', order.readyAt, { from: 'preparing', to: 'ready' }, true);
  add('status', order.fulfilledAt, { from: 'ready', to: 'fulfilled' }, true);
  add('canceled', order.canceledAt, {}, false);
  if (order.status === 'refunded')
    add('refund', order.updatedAt, { amountCents: order.totalCents, full: true }, false);
  return out;
}
