import { COLLECTIONS } from './ids.ts';
import { ORDER_SCHEMA } from './order.ts';
import {
  entity,
  field,
  recordFromDocument,
  type DocumentMeta,
  type EntitySchema,
  type RecordOf,
} from './schema.ts';
import { LIMITS } from './validation.ts';

/** The `products` collection: the catalog. */
export const PRODUCT_SCHEMA = entity(
  COLLECTIONS.products,
  'Products',
  {
    name: field.text(LIMITS.nameMax, { required: true }),
    description: field.text(LIMITS.descriptionMax, { fallback: '' }),
    priceCents: field.integer({ required: true, min: 0, max: LIMITS.priceMaxCents }),
    currency: field.text(3, { required: true }),
    active: field.boolean({ default: true }),
    imageFileId: field.text(36),
    sortOrder: field.integer({ default: 0 }),
  },
  [{ key: 'active_sort', type: 'key', attributes: ['active', 'sortOrder'] }],
);

/** A catalog product. */
export type Product = RecordOf<typeof PRODUCT_SCHEMA>;

/** The `notes` collection: notes on an order; removal sets `deleted`. */
export const NOTE_SCHEMA = entity(
  COLLECTIONS.notes,
  'Notes',
  {
    orderId: field.text(36, { required: true }),
    authorId: field.text(36, { required: true }),
    authorName: field.text(128, { required: true }),
    body: field.text(LIMITS.noteMax, { required: true }),
    deleted: field.boolean({ default: false }),
  },
  [
    { key: 'order', type: 'key', attributes: ['orderId', '$createdAt'] },
    { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
  ],
);

/** A note on an order; removal sets `deleted`. */
export type Note = RecordOf<typeof NOTE_SCHEMA>;

/** Kinds of activity records. */
export const ACTIVITY_KINDS = [
  'created',
  'paid',
  'payment_failed',
  'claimed',
  'unclaimed',
  'status',
  'note',
  'attachment',
  'refund',
  'canceled',
  // Written by repair-orders: a count set right, or a revision whose record was lost.
  'repaired',
] as const;

/** A kind of {@link ACTIVITY_KINDS}. */
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The `activity` collection: an order's timeline. */
export const ACTIVITY_SCHEMA = entity(
  COLLECTIONS.activity,
  'Activity',
  {
    orderId: field.text(36, { required: true }),
    kind: field.enum(ACTIVITY_KINDS, { required: true }),
    actorId: field.text(36),
    actorName: field.text(128),
    data: field.json(4_096, {} as Record<string, unknown>),
    at: field.datetime({ required: true }),
  },
  [
    { key: 'order', type: 'key', attributes: ['orderId', 'at'] },
    { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
  ],
);

/** One entry of an order's timeline. */
export type Activity = RecordOf<typeof ACTIVITY_SCHEMA>;

/** The `attachments` collection: files attached to an order. */
export const ATTACHMENT_SCHEMA = entity(
  COLLECTIONS.attachments,
  'Attachments',
  {
    orderId: field.text(36, { required: true }),
    fileId: field.text(36, { required: true }),
    name: field.text(255, { required: true }),
    sizeBytes: field.integer({ required: true, min: 0 }),
    mimeType: field.text(255, { required: true }),
    uploadedBy: field.text(36, { required: true }),
    deleted: field.boolean({ default: false }),
  },
  [
    { key: 'order', type: 'key', attributes: ['orderId'] },
    { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
  ],
);

/** A file attached to an order. */
export type Attachment = RecordOf<typeof ATTACHMENT_SCHEMA>;

/** Statuses of a CSV export job. */
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

/** Status of a CSV export job. */
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** The `exports` collection: CSV export jobs. */
export const EXPORT_SCHEMA = entity(
  COLLECTIONS.exports,
  'Exports',
  {
    requestedBy: field.text(36, { required: true }),
    filter: field.json(4_096, {} as Record<string, unknown>),
    status: field.enum(EXPORT_STATUSES, { required: true }),
    rowCount: field.integer({ min: 0, default: 0 }),
    fileId: field.text(36),
    error: field.text(1_024),
  },
  [{ key: 'updated', type: 'key', attributes: ['$updatedAt'] }],
);

/** A CSV export job. */
export type ExportJob = RecordOf<typeof EXPORT_SCHEMA>;

/** The `stripe_events` collection: processed webhook events (`$id` = Stripe's event id). */
export const STRIPE_EVENT_SCHEMA = entity(COLLECTIONS.stripeEvents, 'Stripe events', {
  type: field.text(128, { required: true }),
  orderId: field.text(36),
  processedAt: field.datetime({ required: true }),
});

/** Counters handed out atomically; one document today, `order-number` (the last order number `checkout` gave out). */
export const COUNTER_SCHEMA = entity(COLLECTIONS.counters, 'Counters', {
  value: field.integer({ min: 0, required: true }),
});

/** Every stored entity, in the order they are provisioned. */
export const ENTITY_SCHEMAS: readonly EntitySchema[] = [
  PRODUCT_SCHEMA,
  ORDER_SCHEMA,
  NOTE_SCHEMA,
  ACTIVITY_SCHEMA,
  ATTACHMENT_SCHEMA,
  EXPORT_SCHEMA,
  STRIPE_EVENT_SCHEMA,
  COUNTER_SCHEMA,
];

/** Converts a `products` document. */
export function productFromDocument(doc: DocumentMeta): Product {
  return recordFromDocument(PRODUCT_SCHEMA, doc);
}

/** Converts a `notes` document. */
export function noteFromDocument(doc: DocumentMeta): Note {
  return recordFromDocument(NOTE_SCHEMA, doc);
}

/** Converts an `activity` document. */
export function activityFromDocument(doc: DocumentMeta): Activity {
  return recordFromDocument(ACTIVITY_SCHEMA, doc);
}

/** Converts an `attachments` document. */
export function attachmentFromDocument(doc: DocumentMeta): Attachment {
  return recordFromDocument(ATTACHMENT_SCHEMA, doc);
}

/** Converts an `exports` document. */
export function exportFromDocument(doc: DocumentMeta): ExportJob {
  return recordFromDocument(EXPORT_SCHEMA, doc);
}
