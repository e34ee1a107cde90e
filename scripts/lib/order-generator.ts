import {
  itemsSummary,
  type OrderDocumentData,
  type OrderItem,
  type OrderStatus,
  type PaymentStatus,
} from '../../domain/order.ts';
import { itemsTotalCents } from '../../domain/money.ts';
import {
  DEMO_CURRENCY,
  FIRST_NAMES,
  LAST_NAMES,
  type DemoAccount,
  type DemoProduct,
} from './demo-data.ts';
import type { Random } from './random.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A generated order ready for `createDocuments` (API keys may set the system timestamps). */
export type GeneratedOrder = OrderDocumentData & {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
};

/** Relative order volume per hour of the day (a café: morning and lunch peaks). */
const HOURLY_PROFILE = [0, 0, 0, 0, 0, 0, 1, 4, 9, 8, 6, 7, 10, 9, 6, 5, 5, 4, 3, 2, 1, 1, 0, 0];

/** Picks `count` creation times over the 30 days before `now` following {@link HOURLY_PROFILE}, sorted ascending. */
export function orderTimes(count: number, now: number, random: Random, days = 30): number[] {
  const start = now - days * DAY;
  const weightTotal = HOURLY_PROFILE.reduce((sum, weight) => sum + weight, 0);
  const times: number[] = [];
  while (times.length < count) {
    const day = Math.floor(random.next() * days);
    let roll = random.next() * weightTotal;
    let hour = 0;
    while (roll >= HOURLY_PROFILE[hour]!) roll -= HOURLY_PROFILE[hour++]!;
    const dayStart = new Date(start + day * DAY);
    dayStart.setHours(0, 0, 0, 0);
    const time = dayStart.getTime() + hour * 60 * MINUTE + Math.floor(random.next() * 60 * MINUTE);
    if (time > start && time <= now) times.push(time);
  }
  return times.sort((a, b) => a - b);
}

/** The status of an order created `ageMs` ago, with realistic proportions. */
export function statusForAge(ageMs: number, random: Random): OrderStatus {
  if (ageMs < 10 * MINUTE)
    return random.weighted({
      pending_payment: 8,
      payment_failed: 2,
      paid: 50,
      preparing: 25,
      ready: 15,
    });
  if (ageMs < 30 * MINUTE)
    return random.weighted({
      pending_payment: 3,
      paid: 15,
      preparing: 30,
      ready: 25,
      fulfilled: 25,
      canceled: 2,
    });
  if (ageMs < 60 * MINUTE)
    return random.weighted({ paid: 5, preparing: 15, ready: 20, fulfilled: 55, canceled: 5 });
  return random.weighted({ fulfilled: 91, canceled: 6, refunded: 3 });
}

function items(products: readonly DemoProduct[], random: Random): OrderItem[] {
  const lines = random.weighted({ 1: 40, 2: 35, 3: 18, 4: 7 });
  const chosen = new Set<DemoProduct>();
  while (chosen.size < Number(lines)) chosen.add(random.pick(products));
  return [...chosen].map((product) => ({
    productId: product.id,
    name: product.name,
    unitPriceCents: product.priceCents,
    qty: Number(random.weighted({ 1: 75, 2: 20, 3: 5 })),
  }));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Generates one demo order created at `createdAt`, consistent with the state machine:
 * timestamps in order, `rev` = number of changes, an assignee once claimed.
 */
export function generateOrder(input: {
  number: number;
  createdAt: number;
  now: number;
  products: readonly DemoProduct[];
  staff: readonly DemoAccount[];
  random: Random;
}): GeneratedOrder {
  const { random, createdAt } = input;
  const status = statusForAge(input.now - createdAt, random);
  const lines = items(input.products, random);
  const total = itemsTotalCents(lines);
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const clamp = (ms: number) => Math.min(ms, input.now);
  const paid =
    status !== 'pending_payment' &&
    status !== 'payment_failed' &&
    !(status === 'canceled' && random.next() < 0.3);
  const paidAt = paid ? clamp(createdAt + random.int(15_000, 90_000)) : null;
  const reached = (target: OrderStatus) => {
    const order: OrderStatus[] = ['paid', 'preparing', 'ready', 'fulfilled'];
    const effective = status === 'refunded' ? 'fulfilled' : status;
    return order.indexOf(effective) >= order.indexOf(target) && order.includes(effective);
  };
  const startedAt =
    paidAt !== null && reached('preparing') ? clamp(paidAt + random.int(20_000, 5 * MINUTE)) : null;
  const readyAt =
    startedAt !== null && reached('ready')
      ? clamp(startedAt + random.int(2 * MINUTE, 12 * MINUTE))
      : null;
  const fulfilledAt =
    readyAt !== null && reached('fulfilled')
      ? clamp(readyAt + random.int(MINUTE, 10 * MINUTE))
      : null;
  const canceledAt =
    status === 'canceled' ? clamp((paidAt ?? createdAt) + random.int(MINUTE, 30 * MINUTE)) : null;
  const claimed = startedAt !== null || (status === 'paid' && random.next() < 0.3);
  const assignee = claimed ? random.pick(input.staff) : null;
  const refundedCents = status === 'refunded' ? total : 0;
  const changes = [
    paidAt,
    claimed ? 1 : null,
    startedAt,
    readyAt,
    fulfilledAt,
    canceledAt,
    status === 'refunded' ? 1 : null,
  ].filter((x) => x !== null).length;
  const updatedAt =
    Math.max(
      createdAt,
      paidAt ?? 0,
      startedAt ?? 0,
      readyAt ?? 0,
      fulfilledAt ?? 0,
      canceledAt ?? 0,
    ) + (status === 'refunded' ? MINUTE : 0);
  const paymentStatus: PaymentStatus =
    status === 'pending_payment'
      ? 'requires_payment_method'
      : status === 'payment_failed'
        ? 'failed'
        : paidAt
          ? 'succeeded'
          : 'canceled';
  return {
    $id: `order-${input.number}`,
    $createdAt: new Date(createdAt).toISOString(),
    $updatedAt: new Date(clamp(updatedAt)).toISOString(),
    number: input.number,
    status,
    customerName: `${first} ${last}`,
    customerEmail: `${first}.${last}${input.number % 97}@example.com`.toLowerCase(),
    customerId: null,
    items: JSON.stringify(lines),
    itemsSummary: itemsSummary(lines),
    subtotalCents: total,
    totalCents: total,
    currency: DEMO_CURRENCY,
    // Not paid through Stripe: no PaymentIntent, so a cancel or refund has nothing to refund there.
    paymentIntentId: null,
    paymentStatus,
    cardBrand: paidAt ? random.weighted({ visa: 55, mastercard: 35, amex: 10 }) : null,
    cardLast4: paidAt ? String(random.int(1000, 9999)) : null,
    failureCode: status === 'payment_failed' ? 'card_declined' : null,
    refundedCents,
    assigneeId: assignee?.id ?? null,
    assigneeName: assignee?.name ?? null,
    paidAt: iso(paidAt),
    startedAt: iso(startedAt),
    readyAt: iso(readyAt),
    fulfilledAt: iso(fulfilledAt),
    canceledAt: iso(canceledAt),
    noteCount: 0,
    attachmentCount: 0,
    rev: changes,
    updatedById: assignee?.id ?? null,
    updatedByName: assignee?.name ?? null,
  };
}
