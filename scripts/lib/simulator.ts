import { Databases, ID, Presences, Query, type Client } from 'node-appwrite';
import type { OrderDocumentData } from '../../domain/order.ts';
import { AppError } from '../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import { decideOrderAction, type OrderAction } from '../../domain/order-machine.ts';
import { orderFromDocument, type Order, type OrderDocument } from '../../domain/order.ts';
import { DEMO_ACCOUNTS, DEMO_PRODUCTS, SIMULATED_STAFF, type DemoAccount } from './demo-data.ts';
import { KeepAliveClient } from '../../functions/_shared/keep-alive-client.ts';
import { isAppwriteError, readOrder } from '../../functions/_shared/appwrite.ts';
import {
  commitOperations,
  heldChangeOperations,
  LANDING_TIMEOUT_MS,
  newOrderOperations,
  takenError,
  type PlannedChange,
  type StagedWrite,
} from '../../functions/_shared/order-writes.ts';
import { CheckoutCustomers } from './checkout-customers.ts';
import { generateOrder } from './order-generator.ts';
import { Random } from './random.ts';
import { TransactionBatcher } from './transaction-batcher.ts';

/** Kinds of simulated events. */
export type SimulatedEvent = 'new-order' | 'claim' | 'advance' | 'note';

/** Counters of a simulation run. */
export interface SimulationStats {
  events: number;
  byKind: Record<SimulatedEvent, number>;
  errors: number;
  /**
   * Changes decided on an order that had changed meanwhile (someone else moved its `rev` on): it
   * is read again and the change decided again on what it is now.
   */
  conflicts: number;
  seconds: number;
}

const NEXT_ACTION: Partial<Record<Order['status'], OrderAction>> = {
  paid: 'start',
  preparing: 'ready',
  ready: 'fulfil',
};
const MIX: Record<SimulatedEvent, number> = { 'new-order': 25, claim: 15, advance: 50, note: 10 };
/** In the demo, the share of new orders the simulated staff leave unclaimed for the person. */
export const LEFT_FOR_PEOPLE = 0.3;
/** In checkout mode, the share of customers whose first card is declined (they retry with 4242). */
export const DECLINED_FIRST = 0.1;
/** How long the simulator waits for the webhook to mark a checkout's order paid. */
const PAID_WITHIN_MS = 60_000;
/** How long such an order waits for a person before the simulated staff may take it. */
export const PEOPLE_GRACE_MS = 5 * 60_000;
/** How old the demo's list of opened orders may be when an order is picked. */
const PRESENCE_MAX_AGE_MS = 250;

/**
 * How the simulator behaves:
 * - `full` (`npm run simulate`, benchmarks, tests): the demo accounts' staff act on every open
 *   order at the full rate;
 * - `demo` (`npm start`): it shares the desk with a person — its staff are their own accounts
 *   ({@link SIMULATED_STAFF}, never the accounts a person signs in with); it never touches an
 *   order someone has open (their presence names it) or holds (assigned to anyone but its own
 *   staff); and it leaves {@link LEFT_FOR_PEOPLE} of new orders unclaimed for the person (for
 *   {@link PEOPLE_GRACE_MS} after payment, so that they do not pile up while nobody is there).
 */
export type SimulatorMode = 'full' | 'demo';

/** Whether the demo leaves the order with this id to people (the same answer on every run). */
export function leftForPeople(orderId: string): boolean {
  // FNV-1a over the id, then murmur3's finalizer: ids that differ in their last digits only
  // (ID.unique() within one second) land far apart.
  let hash = 2166136261;
  for (let i = 0; i < orderId.length; i++) hash = Math.imul(hash ^ orderId.charCodeAt(i), 16777619);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 4294967296 < LEFT_FOR_PEOPLE;
}
const NOTES = [
  'Extra hot, please.',
  'Customer waiting at the counter.',
  'Oat milk instead of dairy.',
  'No sugar.',
  'Pick-up in 5 minutes.',
  'Allergic to nuts — check the pastry.',
];

/**
 * Live demo traffic written with an API key: new paid orders, claims, status changes and
 * notes at a target rate. Transitions come from the domain's state machine, and every change is
 * written as the functions write it (functions/_shared/order-writes.ts): the order, its activity
 * record `<orderId>.r<rev>` and its note committed together, so that the repairer
 * (`repair-orders`) never finds anything to mend on simulated orders. Cheaper than the functions:
 * a change is decided on the order as the simulator last wrote or read it, with no read before
 * and none after (`commitHeldOrderChange`: a stale one is refused at commit, then read and
 * decided again), and the changes due in the same turn share one transaction
 * ({@link TransactionBatcher}; `batch: false` for one transaction each).
 */
export class Simulator {
  private readonly client: KeepAliveClient;
  private readonly databases: Databases;
  private readonly random: Random;
  private readonly open = new Map<string, Order>();
  private readonly busy = new Set<string>();
  private nextNumber = 0;
  private inFlight = 0;
  /** Attempts that ended without a change (no error): replaced by others. */
  private wasted = 0;
  private readonly stats: SimulationStats = {
    events: 0,
    byKind: { 'new-order': 0, claim: 0, advance: 0, note: 0 },
    errors: 0,
    conflicts: 0,
    seconds: 0,
  };
  private readonly mode: SimulatorMode;
  private readonly batcher: TransactionBatcher | null;
  private readonly staff: readonly DemoAccount[];
  private readonly staffIds: ReadonlySet<string>;
  private readonly presences: Presences;
  /** Checkout mode: new orders come from customers through checkout, Stripe and the webhook. */
  private readonly customers: CheckoutCustomers | null;
  /** Orders someone has open (demo mode), and when that was read. */
  private opened: { ids: ReadonlySet<string>; at: number } = { ids: new Set(), at: 0 };
  private openedReading: Promise<void> | null = null;
  private stopped = false;

  /**
   * `client`'s settings are used over a keep-alive transport (see {@link KeepAliveClient}).
   * `options.checkout`: new orders are placed the way customers place them — an anonymous
   * session, the `checkout` function, a card confirmed at Stripe (the local double, or Stripe
   * with `VITE_STRIPE_PUBLISHABLE_KEY`), and the `stripe-webhook` function marking them paid —
   * instead of being written with the API key. `options.batch` (default true): the changes due in
   * the same turn of the event loop share one transaction.
   */
  constructor(
    client: Client,
    seed = Date.now(),
    mode: SimulatorMode = 'full',
    options: { checkout?: boolean; batch?: boolean } = {},
  ) {
    this.client = KeepAliveClient.from(client);
    this.batcher =
      options.batch === false
        ? null
        : new TransactionBatcher((operations) => commitOperations(this.client, operations));
    this.databases = new Databases(this.client);
    this.presences = new Presences(this.client);
    this.random = new Random(seed);
    this.mode = mode;
    this.staff =
      mode === 'demo'
        ? SIMULATED_STAFF
        : DEMO_ACCOUNTS.filter((account) => account.role !== 'owner');
    this.staffIds = new Set(this.staff.map((member) => member.id));
    this.customers = options.checkout
      ? new CheckoutCustomers({
          endpoint: client.config.endpoint,
          projectId: client.config.project,
          apiKey: client.config.key,
        })
      : null;
  }

  /**
   * Whether this simulator may act on `order`: always in `full` mode; in `demo` mode only when
   * nobody but its own staff holds it, nobody has it open, and it is not a new order left for
   * people.
   */
  private mayTouch(order: Order, now = Date.now()): boolean {
    if (this.mode === 'full') return true;
    if (order.assigneeId !== null)
      return this.staffIds.has(order.assigneeId) && !this.opened.ids.has(order.id);
    const waiting = now - (order.paidAt ?? order.createdAt);
    if (leftForPeople(order.id) && waiting < PEOPLE_GRACE_MS) return false;
    return !this.opened.ids.has(order.id);
  }

  /** Demo mode: reads which orders people have open (their presences), when older than 250 ms. */
  private async readOpened(): Promise<void> {
    if (this.mode === 'full' || Date.now() - this.opened.at < PRESENCE_MAX_AGE_MS) return;
    this.openedReading ??= (async () => {
      const ids = new Set<string>();
      const { presences } = await this.presences.list({ queries: [Query.limit(1000)] });
      for (const presence of presences) {
        const orderId = (presence.metadata as { orderId?: unknown } | null)?.orderId;
        if (typeof orderId === 'string') ids.add(orderId);
      }
      this.opened = { ids, at: Date.now() };
    })().finally(() => {
      this.openedReading = null;
    });
    await this.openedReading;
  }

  /** Loads open orders and the highest order number (and, in checkout mode, the catalog). */
  async prepare(): Promise<void> {
    await this.customers?.prepare();
    let cursor: string | null = null;
    for (;;) {
      const queries = [
        Query.equal('status', ['paid', 'preparing', 'ready']),
        Query.orderAsc('$createdAt'),
        Query.limit(5000),
      ];
      if (cursor) queries.push(Query.cursorAfter(cursor));
      const page = await this.databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        queries,
      });
      for (const document of page.documents)
        this.open.set(document.$id, orderFromDocument(document as unknown as OrderDocument));
      if (page.documents.length < 5000) break;
      cursor = page.documents.at(-1)!.$id;
    }
    const last = await this.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.orderDesc('number'), Query.limit(1)],
    });
    this.nextNumber =
      Math.max(((last.documents[0] as unknown as { number?: number }) ?? {}).number ?? 1000, 1000) +
      1;
  }

  /**
   * Runs at `rate` events per second for `durationSeconds`, calling `onSecond` with running
   * stats. An attempt that ends without a change (a conflict, an order that can no longer move)
   * is replaced by another, so that `rate` counts changes made (at most twice as many attempts),
   * with at most `maxInFlight` attempts at a time.
   */
  async run(
    rate: number,
    durationSeconds: number,
    onSecond: (stats: SimulationStats, inFlight: number) => void = () => {},
    maxInFlight = 512,
  ): Promise<SimulationStats> {
    const started = Date.now();
    const deadline = started + durationSeconds * 1000;
    let issued = 0;
    const wastedBefore = this.wasted;
    let lastReport = started;
    while (Date.now() < deadline && !this.stopped) {
      const due = Math.floor(((Date.now() - started) / 1000) * rate);
      while (
        issued - (this.wasted - wastedBefore) < due &&
        issued < 2 * due &&
        this.inFlight < maxInFlight
      ) {
        issued++;
        void this.one();
      }
      if (Date.now() - lastReport >= 1000) {
        lastReport = Date.now();
        this.stats.seconds = (lastReport - started) / 1000;
        onSecond({ ...this.stats }, this.inFlight);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    this.stats.seconds = (Date.now() - started) / 1000;
    return { ...this.stats };
  }

  /**
   * Ends a {@link run} early: it issues nothing more, resolves once what is in flight is done,
   * and says nothing of what fails meanwhile (the backend may be stopping too).
   */
  stop(): void {
    this.stopped = true;
  }

  /** Commits `operations` in a transaction (shared with others due now, unless `batch` is off). */
  private commit(operations: readonly StagedWrite[]): Promise<boolean> {
    return this.batcher
      ? this.batcher.commit(operations)
      : commitOperations(this.client, operations);
  }

  /** How many transactions carried the changes, and how many changes they held. */
  get transactions(): { transactions: number; parts: number; split: number } | null {
    return this.batcher ? { ...this.batcher.counts } : null;
  }

  private async one(): Promise<void> {
    this.inFlight++;
    const kind = this.open.size < 5 ? 'new-order' : this.random.weighted(MIX);
    try {
      const done =
        kind === 'new-order'
          ? await this.newOrder()
          : kind === 'note'
            ? await this.note()
            : await this.transition(kind);
      if (done) {
        this.stats.events++;
        this.stats.byKind[kind]++;
      } else {
        this.wasted++;
      }
    } catch (error) {
      this.stats.errors++;
      if (this.stats.errors <= 5 && !this.stopped)
        console.error(
          `[simulate] ${kind} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
    } finally {
      this.inFlight--;
    }
  }

  private async newOrder(): Promise<boolean> {
    if (this.customers) return this.newOrderThroughCheckout(this.customers);
    const now = Date.now();
    const number = this.nextNumber++;
    const generated = generateOrder({
      number,
      createdAt: now - 20_000,
      now,
      products: DEMO_PRODUCTS,
      staff: this.staff,
      random: new Random(number),
    });
    const { $id: _id, $createdAt: _created, $updatedAt: _updated, ...data } = generated;
    const at = new Date(now).toISOString();
    const orderData = {
      ...data,
      status: 'paid',
      paymentStatus: 'succeeded',
      paidAt: at,
      startedAt: null,
      readyAt: null,
      fulfilledAt: null,
      canceledAt: null,
      refundedCents: 0,
      failureCode: null,
      assigneeId: null,
      assigneeName: null,
      updatedById: null,
      updatedByName: null,
      cardBrand: data.cardBrand ?? 'visa',
      cardLast4: data.cardLast4 ?? '4242',
      rev: 1,
    } as OrderDocumentData;
    // As the webhook marks an order paid: the order with its record `<orderId>.r1`, together.
    const order = { orderId: ID.unique(), data: orderData, permissions: [] };
    const written = await this.commit(
      newOrderOperations(
        order,
        { kind: 'paid', data: { amountCents: orderData.totalCents } },
        { id: null, name: null },
        now,
      ),
    );
    if (!written) throw takenError(order);
    const orderId = order.orderId;
    // What it wrote is what the backend holds (its timestamps to within the request).
    this.remember({ $id: orderId, $createdAt: at, $updatedAt: at, ...orderData });
    return true;
  }

  /**
   * A customer checks out and pays (some after a declined card); the order counts once the
   * webhook has marked it paid. Its activity records are the functions' own.
   */
  private async newOrderThroughCheckout(customers: CheckoutCustomers): Promise<boolean> {
    const random = new Random(this.random.int(1, 2 ** 31 - 1));
    const declines = random.next() < DECLINED_FIRST ? 1 : 0;
    const { customer, answer } = await customers.placeAndPay(random, declines);
    const paid = await customers.waitForOrder(
      customer,
      answer.orderId,
      (order) => order.status !== 'pending_payment' && order.status !== 'payment_failed',
      PAID_WITHIN_MS,
    );
    this.remember(paid);
    return true;
  }

  /** An order to act on, marked busy (the caller ends that), or null. */
  private async pickOrder(filter: (order: Order) => boolean): Promise<Order | null> {
    await this.readOpened();
    const candidates: Order[] = [];
    for (const order of this.open.values()) {
      if (!this.busy.has(order.id) && filter(order) && this.mayTouch(order)) candidates.push(order);
      if (candidates.length >= 50) break;
    }
    if (candidates.length === 0) return null;
    const order = this.random.pick(candidates);
    this.busy.add(order.id);
    return order;
  }

  private async transition(kind: 'claim' | 'advance'): Promise<boolean> {
    const order =
      kind === 'claim'
        ? await this.pickOrder((o) => o.status === 'paid' && o.assigneeId === null)
        : await this.pickOrder(() => true);
    if (!order) return this.newOrder();
    const holder =
      this.staff.find((member) => member.id === order.assigneeId) ?? this.random.pick(this.staff);
    const actor = { id: holder.id, name: holder.name, role: holder.role };
    let seen: Order = order;
    try {
      // As order-action writes it: the order and its activity record in one transaction,
      // decided on the order as last written or read (read again after a conflict).
      seen = await this.land(order, (now) => {
        seen = now;
        if (!this.mayTouch(now)) throw new AppError('ORDER_CONFLICT', 'Someone else has it now.');
        const action: OrderAction | undefined =
          kind === 'claim' ? 'claim' : NEXT_ACTION[now.status];
        if (!action || (kind === 'claim' && now.assigneeId !== null))
          throw new AppError('INVALID_TRANSITION', 'The order can no longer move this way.');
        const change = decideOrderAction(now, { action, expectedRev: now.rev }, actor, Date.now());
        if (change instanceof AppError) throw change;
        return { change, author: actor };
      });
      this.rememberOrder(seen);
      return true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // It can no longer move this way (or is someone else's now, or gone): forget it as seen.
      if (error.code === 'NOT_FOUND') this.open.delete(order.id);
      else this.rememberOrder(seen);
      return false;
    } finally {
      this.busy.delete(order.id);
    }
  }

  /**
   * Writes what `plan` decides on `order` as the simulator holds it (no read first, none after,
   * as `commitHeldOrderChange` does); when the order had changed meanwhile, reads it, counts a
   * conflict and plans again, with commitUntilLanded's pauses and time limit. Answers the order
   * as written. `plan` may throw an `AppError` to give up.
   */
  private async land(order: Order, plan: (order: Order) => PlannedChange): Promise<Order> {
    const deadline = Date.now() + LANDING_TIMEOUT_MS;
    let held = order;
    for (let attempt = 1; ; attempt++) {
      const { change, author, writes } = plan(held);
      const at = Date.now();
      const committed = await this.commit(
        heldChangeOperations(held.id, change, author, at, writes),
      ).catch((error: unknown) => {
        if (isAppwriteError(error, 404))
          throw new AppError('NOT_FOUND', 'This order does not exist.');
        throw error;
      });
      if (committed) return Object.freeze({ ...held, ...change.patch, updatedAt: at });
      this.stats.conflicts++;
      if (Date.now() >= deadline)
        throw new AppError('ORDER_CONFLICT', 'This order kept changing; nothing was saved.');
      const ceiling = Math.min(200, 5 * 2 ** Math.min(attempt, 6));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
      held = orderFromDocument(await readOrder(this.client, held.id));
    }
  }

  private remember(document: OrderDocument): void {
    this.rememberOrder(orderFromDocument(document));
  }

  private rememberOrder(order: Order): void {
    if (order.status === 'paid' || order.status === 'preparing' || order.status === 'ready')
      this.open.set(order.id, order);
    else this.open.delete(order.id);
  }

  private async note(): Promise<boolean> {
    const order = await this.pickOrder(() => true);
    if (!order) return this.newOrder();
    const author = this.random.pick(this.staff);
    const noteId = ID.unique();
    const body = this.random.pick(NOTES);
    try {
      // As note-action writes it: the note, the order's count and rev and the activity together.
      const written = await this.land(order, (now) => ({
        change: {
          patch: {
            noteCount: now.noteCount + 1,
            rev: now.rev + 1,
            updatedById: author.id,
            updatedByName: author.name,
          },
          activity: {
            kind: 'note',
            data: { action: 'added', noteId, excerpt: body.slice(0, 140) },
          },
        },
        author,
        writes: [
          {
            action: 'create',
            collectionId: COLLECTIONS.notes,
            documentId: noteId,
            data: { orderId: order.id, authorId: author.id, authorName: author.name, body },
          },
        ],
      }));
      this.rememberOrder(written);
      return true;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
      this.open.delete(order.id);
      return false;
    } finally {
      this.busy.delete(order.id);
    }
  }
}
