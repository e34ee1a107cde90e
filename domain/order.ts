import { COLLECTIONS } from './ids.ts';
import {
  documentDataFrom,
  entity,
  field,
  parseJson,
  recordFromDocument,
  type DocumentDataOf,
  type DocumentMeta,
  type RecordOf,
} from './schema.ts';
import { LIMITS } from './validation.ts';

export { formatTime, parseTime, type DocumentMeta } from './schema.ts';

/** Every order status (docs/product.md §5.1). */
export const ORDER_STATUSES = [
  'pending_payment',
  'payment_failed',
  'paid',
  'preparing',
  'ready',
  'fulfilled',
  'canceled',
  'refunded',
] as const;

/** Where an order is in its life. */
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The statuses a person filters the orders table or an export by, in the order both show them:
 * the workflow, then how an order ended (orders never paid are left out).
 */
export const CHOOSABLE_STATUSES: readonly OrderStatus[] = [
  'paid',
  'preparing',
  'ready',
  'fulfilled',
  'canceled',
  'refunded',
  'payment_failed',
];

/** Statuses in which the desk works an order. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['paid', 'preparing', 'ready'];

/** Payment status, mirroring Stripe's PaymentIntent. */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'processing',
  'requires_action',
  'succeeded',
  'failed',
  'canceled',
] as const;

/** A payment status of {@link PAYMENT_STATUSES}. */
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** What the screens call each order status (the table, the board, the filters, exports). */
export const STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending_payment: 'Awaiting payment',
  payment_failed: 'Payment failed',
  paid: 'Paid',
  preparing: 'Preparing',
  ready: 'Ready',
  fulfilled: 'Done',
  canceled: 'Canceled',
  refunded: 'Refunded',
};

/** A payment status in words (Stripe's PaymentIntent statuses, as a seller reads them). */
export const PAYMENT_STATUS_LABELS: Readonly<Record<PaymentStatus, string>> = {
  requires_payment_method: 'Not paid',
  processing: 'Processing',
  requires_action: 'Awaiting card check',
  succeeded: 'Paid',
  failed: 'Failed',
  canceled: 'Canceled',
};

/** One order line; prices are copied from the catalog when the order is made. */
export interface OrderItem {
  productId: string;
  name: string;
  unitPriceCents: number;
  qty: number;
}

/** The longest {@link itemsSummary} stored with an order (characters, the ellipsis included). */
export const ITEMS_SUMMARY_MAX = 512;

/**
 * The `orders` collection (docs/product.md §4). Fields marked `list` are what the desk's lists and
 * metrics read (board cards, table rows, their sorts, filters and search, the header): the
 * store's snapshot reads only these.
 */
export const ORDER_SCHEMA = entity(
  COLLECTIONS.orders,
  'Orders',
  {
    number: field.integer({ required: true, min: 1, list: true }),
    status: field.enum(ORDER_STATUSES, { required: true, list: true }),
    customerName: field.text(LIMITS.nameMax, { required: true, list: true }),
    customerEmail: field.email({ required: true, list: true }),
    customerId: field.text(36),
    items: field.json(16_384, [] as OrderItem[], { required: true, shared: true }),
    itemsSummary: field.text(ITEMS_SUMMARY_MAX, { list: true, fallback: '' }),
    subtotalCents: field.integer({ required: true, min: 0 }),
    totalCents: field.integer({ required: true, min: 0, list: true }),
    currency: field.text(3, { required: true, list: true, shared: true }),
    paymentIntentId: field.text(255),
    paymentStatus: field.enum(PAYMENT_STATUSES, { required: true }),
    cardBrand: field.text(32, { shared: true }),
    cardLast4: field.text(4),
    failureCode: field.text(64, { shared: true }),
    refundedCents: field.integer({ min: 0, default: 0, list: true }),
    assigneeId: field.text(36, { list: true, shared: true }),
    assigneeName: field.text(128, { list: true, shared: true }),
    paidAt: field.datetime({ list: true }),
    startedAt: field.datetime(),
    readyAt: field.datetime({ list: true }),
    fulfilledAt: field.datetime({ list: true }),
    canceledAt: field.datetime(),
    noteCount: field.integer({ min: 0, default: 0 }),
    attachmentCount: field.integer({ min: 0, default: 0 }),
    rev: field.integer({ required: true, min: 0, list: true }),
    updatedById: field.text(36, { shared: true }),
    updatedByName: field.text(128, { shared: true }),
  },
  [
    { key: 'number_unique', type: 'unique', attributes: ['number'] },
    { key: 'status_created', type: 'key', attributes: ['status', '$createdAt'] },
    { key: 'created', type: 'key', attributes: ['$createdAt'] },
    { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
    { key: 'assignee', type: 'key', attributes: ['assigneeId'] },
    { key: 'email', type: 'key', attributes: ['customerEmail'] },
    { key: 'payment_intent', type: 'key', attributes: ['paymentIntentId'] },
    { key: 'customer_search', type: 'fulltext', attributes: ['customerName'] },
  ],
);

/**
 * An order as the app holds it: system fields renamed, timestamps as epoch milliseconds,
 * `items` parsed. Optional values are `null`, never missing.
 */
export type Order = RecordOf<typeof ORDER_SCHEMA> & {
  /**
   * Set on a list copy: only the fields marked `list` in {@link ORDER_SCHEMA} were loaded (the
   * store's snapshot); the others hold placeholders. The drawer reads the whole order.
   */
  partial?: true;
};

/** The attributes of an `orders` document as stored (dates as ISO strings, items as JSON). */
export type OrderDocumentData = DocumentDataOf<typeof ORDER_SCHEMA>;

/** An `orders` document as the SDK returns it. */
export type OrderDocument = DocumentMeta & OrderDocumentData;

/** Converts an `orders` document from the backend into an {@link Order}. */
export function orderFromDocument(doc: OrderDocument): Order {
  return recordFromDocument(ORDER_SCHEMA, doc);
}

/** Converts an {@link Order} (or part of one) into `orders` document attributes. */
export function orderToDocumentData(order: Partial<Order>): Partial<OrderDocumentData> {
  return documentDataFrom(ORDER_SCHEMA, order);
}

/** `#1042`. */
export function formatOrderNumber(number: number): string {
  return `#${number}`;
}

/**
 * A short summary of the items, e.g. `2× Latte, 1× Croissant`, cut to {@link ITEMS_SUMMARY_MAX}
 * characters with `…`. Written with the order as `itemsSummary`: the desk's lists read it instead
 * of the items themselves.
 */
export function itemsSummary(items: readonly OrderItem[]): string {
  const text = items.map((item) => `${item.qty}× ${item.name}`).join(', ');
  if (text.length <= ITEMS_SUMMARY_MAX) return text;
  const characters = Array.from(text);
  return characters.length <= ITEMS_SUMMARY_MAX
    ? text
    : `${characters.slice(0, ITEMS_SUMMARY_MAX - 1).join('')}…`;
}

/** {@link itemsSummary} of an order's stored `items` (JSON text); '' when they do not parse. */
export function itemsSummaryOfStored(items: unknown): string {
  return itemsSummary(parseJson(items, []) as OrderItem[]);
}
