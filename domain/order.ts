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

/** One order line; prices are copied from the catalog when the order is made. */
export interface OrderItem {
  productId: string;
  name: string;
  unitPriceCents: number;
  qty: number;
}

/**
 * An order as the app holds it: system fields renamed, timestamps as epoch milliseconds,
 * `items` parsed. Optional values are `null`, never missing.
 */
export interface Order {
  id: string;
  createdAt: number;
  updatedAt: number;
  number: number;
  status: OrderStatus;
  customerName: string;
  customerEmail: string;
  customerId: string | null;
  items: OrderItem[];
  subtotalCents: number;
  totalCents: number;
  currency: string;
  paymentIntentId: string | null;
  paymentStatus: PaymentStatus;
  cardBrand: string | null;
  cardLast4: string | null;
  failureCode: string | null;
  refundedCents: number;
  assigneeId: string | null;
  assigneeName: string | null;
  paidAt: number | null;
  startedAt: number | null;
  readyAt: number | null;
  fulfilledAt: number | null;
  canceledAt: number | null;
  noteCount: number;
  attachmentCount: number;
  rev: number;
  updatedById: string | null;
  updatedByName: string | null;
  /**
   * Set on a list copy: only the fields the desk's lists and metrics read were loaded (the
   * store's snapshot, `ORDER_LIST_FIELDS` in store/sync/documents.ts); the others hold
   * placeholders. The drawer reads the whole order.
   */
  partial?: true;
}

/** The attributes of an `orders` document as stored (dates as ISO strings, items as JSON). */
export interface OrderDocumentData {
  number: number;
  status: OrderStatus;
  customerName: string;
  customerEmail: string;
  customerId: string | null;
  items: string;
  subtotalCents: number;
  totalCents: number;
  currency: string;
  paymentIntentId: string | null;
  paymentStatus: PaymentStatus;
  cardBrand: string | null;
  cardLast4: string | null;
  failureCode: string | null;
  refundedCents: number;
  assigneeId: string | null;
  assigneeName: string | null;
  paidAt: string | null;
  startedAt: string | null;
  readyAt: string | null;
  fulfilledAt: string | null;
  canceledAt: string | null;
  noteCount: number;
  attachmentCount: number;
  rev: number;
  updatedById: string | null;
  updatedByName: string | null;
}

/** System fields every Appwrite document carries. */
export interface DocumentMeta {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
  $sequence?: string | number;
  $permissions?: string[];
  $collectionId?: string;
  $databaseId?: string;
}

/** An `orders` document as the SDK returns it. */
export type OrderDocument = DocumentMeta & OrderDocumentData;

/** Parses an ISO date (or null) to epoch milliseconds (or null). */
export function parseTime(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Formats epoch milliseconds (or null) as Appwrite's ISO form, or null. */
export function formatTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function parseItems(json: string): OrderItem[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as OrderItem[]) : [];
  } catch {
    return [];
  }
}

/** Converts an `orders` document from the backend into an {@link Order}. */
export function orderFromDocument(doc: OrderDocument): Order {
  return {
    id: doc.$id,
    createdAt: Date.parse(doc.$createdAt),
    updatedAt: Date.parse(doc.$updatedAt),
    number: doc.number,
    status: doc.status,
    customerName: doc.customerName,
    customerEmail: doc.customerEmail,
    customerId: doc.customerId ?? null,
    items: parseItems(doc.items),
    subtotalCents: doc.subtotalCents,
    totalCents: doc.totalCents,
    currency: doc.currency,
    paymentIntentId: doc.paymentIntentId ?? null,
    paymentStatus: doc.paymentStatus,
    cardBrand: doc.cardBrand ?? null,
    cardLast4: doc.cardLast4 ?? null,
    failureCode: doc.failureCode ?? null,
    refundedCents: doc.refundedCents ?? 0,
    assigneeId: doc.assigneeId ?? null,
    assigneeName: doc.assigneeName ?? null,
    paidAt: parseTime(doc.paidAt),
    startedAt: parseTime(doc.startedAt),
    readyAt: parseTime(doc.readyAt),
    fulfilledAt: parseTime(doc.fulfilledAt),
    canceledAt: parseTime(doc.canceledAt),
    noteCount: doc.noteCount ?? 0,
    attachmentCount: doc.attachmentCount ?? 0,
    rev: doc.rev ?? 0,
    updatedById: doc.updatedById ?? null,
    updatedByName: doc.updatedByName ?? null,
  };
}

/** Converts an {@link Order} (or part of one) into `orders` document attributes. */
export function orderToDocumentData(order: Partial<Order>): Partial<OrderDocumentData> {
  const data: Partial<OrderDocumentData> = {};
  for (const [key, value] of Object.entries(order) as [keyof Order, unknown][]) {
    switch (key) {
      case 'id':
      case 'createdAt':
      case 'updatedAt':
      case 'partial':
        break;
      case 'items':
        data.items = JSON.stringify(value);
        break;
      case 'paidAt':
      case 'startedAt':
      case 'readyAt':
      case 'fulfilledAt':
      case 'canceledAt':
        data[key] = formatTime(value as number | null);
        break;
      default:
        (data as Record<string, unknown>)[key] = value;
    }
  }
  return data;
}

/** `#1042`. */
export function formatOrderNumber(number: number): string {
  return `#${number}`;
}

/** A short summary of the items, e.g. `2× Latte, 1× Croissant`. */
export function itemsSummary(items: readonly OrderItem[]): string {
  return items.map((item) => `${item.qty}× ${item.name}`).join(', ');
}
