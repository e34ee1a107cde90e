import type { Order, OrderDocument, OrderStatus } from '../../../domain/order.ts';
import { itemsSummary, orderToDocumentData } from '../../../domain/order.ts';
import type { Prng } from './prng.ts';

const FIRST = ['Ana', 'Ben', 'Chloé', 'Dario', 'Emma', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas'];
const LAST = ['Silva', 'Meyer', 'Dubois', 'Rossi', 'Novak', 'Haddad', 'Berg', 'Lopez', 'Kim'];
const PRODUCTS = [
  { productId: 'p-latte', name: 'Latte', unitPriceCents: 380 },
  { productId: 'p-croissant', name: 'Croissant', unitPriceCents: 250 },
  { productId: 'p-bagel', name: 'Bagel', unitPriceCents: 420 },
  { productId: 'p-tea', name: 'Tea', unitPriceCents: 300 },
];
const STAFF = [
  { id: 'u-ana', name: 'Ana' },
  { id: 'u-ben', name: 'Ben' },
  { id: 'u-cleo', name: 'Cleo' },
];

/** A plausible order created at `createdAt` in `status`, with the timestamps that status implies. */
export function makeOrder(
  rng: Prng,
  fields: { id?: string; number: number; createdAt: number; status: OrderStatus },
): Order {
  const items = Array.from({ length: rng.int(1, 3) }, () => ({
    ...rng.pick(PRODUCTS),
    qty: rng.int(1, 3),
  }));
  const subtotal = items.reduce((sum, item) => sum + item.unitPriceCents * item.qty, 0);
  const { status, createdAt } = fields;
  const first = rng.pick(FIRST);
  const paid = status !== 'pending_payment' && status !== 'payment_failed';
  const paidAt = paid ? createdAt + rng.int(5_000, 60_000) : null;
  const startedAt =
    paidAt !== null && ['preparing', 'ready', 'fulfilled'].includes(status)
      ? paidAt + rng.int(10_000, 300_000)
      : null;
  const readyAt =
    startedAt !== null && ['ready', 'fulfilled'].includes(status)
      ? startedAt + rng.int(60_000, 900_000)
      : null;
  const fulfilledAt =
    readyAt !== null && status === 'fulfilled' ? readyAt + rng.int(10_000, 600_000) : null;
  const assignee = startedAt !== null ? rng.pick(STAFF) : null;
  const updatedAt = Math.max(
    createdAt,
    paidAt ?? 0,
    startedAt ?? 0,
    readyAt ?? 0,
    fulfilledAt ?? 0,
  );
  return {
    id: fields.id ?? rng.id(),
    createdAt,
    updatedAt,
    number: fields.number,
    status,
    customerName: `${first} ${rng.pick(LAST)}`,
    customerEmail: `${first.toLowerCase()}${rng.int(1, 999)}@example.test`,
    customerId: null,
    items,
    itemsSummary: itemsSummary(items),
    subtotalCents: subtotal,
    totalCents: subtotal,
    currency: 'eur',
    paymentIntentId: paid ? `pi_${rng.id()}` : null,
    paymentStatus: paid ? 'succeeded' : status === 'payment_failed' ? 'failed' : 'processing',
    cardBrand: paid ? 'visa' : null,
    cardLast4: paid ? '4242' : null,
    failureCode: null,
    refundedCents: status === 'refunded' ? subtotal : 0,
    assigneeId: assignee?.id ?? null,
    assigneeName: assignee?.name ?? null,
    paidAt,
    startedAt,
    readyAt,
    fulfilledAt,
    canceledAt: status === 'canceled' ? updatedAt : null,
    noteCount: 0,
    attachmentCount: 0,
    rev: 1 + (paid ? 1 : 0) + (startedAt ? 1 : 0) + (readyAt ? 1 : 0) + (fulfilledAt ? 1 : 0),
    updatedById: null,
    updatedByName: null,
  };
}

/** The next version of `order` at `now`: one workflow step, a claim, or a note count bump. */
export function advanceOrder(rng: Prng, order: Order, now: number): Order {
  const base = { ...order, rev: order.rev + 1, updatedAt: Math.max(now, order.updatedAt + 1) };
  const staff = rng.pick(STAFF);
  switch (order.status) {
    case 'pending_payment':
      return { ...base, status: 'paid', paidAt: base.updatedAt, paymentStatus: 'succeeded' };
    case 'paid':
      return {
        ...base,
        status: 'preparing',
        startedAt: base.updatedAt,
        assigneeId: staff.id,
        assigneeName: staff.name,
      };
    case 'preparing':
      return { ...base, status: 'ready', readyAt: base.updatedAt };
    case 'ready':
      return { ...base, status: 'fulfilled', fulfilledAt: base.updatedAt };
    default:
      return { ...base, noteCount: order.noteCount + 1 };
  }
}

/** `order` canceled at `now`. */
export function cancelOrder(order: Order, now: number): Order {
  const at = Math.max(now, order.updatedAt + 1);
  return { ...order, status: 'canceled', canceledAt: at, updatedAt: at, rev: order.rev + 1 };
}

/** The `orders` document of an order (what the backend sends). */
export function orderDocument(order: Order, sequence = 0): OrderDocument {
  const data = orderToDocumentData(order);
  return {
    $id: order.id,
    $createdAt: new Date(order.createdAt).toISOString(),
    $updatedAt: new Date(order.updatedAt).toISOString(),
    $sequence: String(sequence),
    ...data,
  } as OrderDocument;
}
