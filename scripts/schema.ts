import { BUCKETS, COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../domain/ids.ts';
import { ORDER_STATUSES, PAYMENT_STATUSES } from '../domain/order.ts';
import { LIMITS } from '../domain/validation.ts';

/** One attribute of a collection, as Appwrite's attribute endpoints take it. */
export type AttributeSpec =
  | { type: 'string'; key: string; size: number; required: boolean; default?: string | null }
  | { type: 'email'; key: string; required: boolean; default?: string | null }
  | {
      type: 'enum';
      key: string;
      elements: readonly string[];
      required: boolean;
      default?: string | null;
    }
  | {
      type: 'integer' | 'float';
      key: string;
      required: boolean;
      min?: number;
      max?: number;
      default?: number | null;
    }
  | { type: 'boolean'; key: string; required: boolean; default?: boolean | null }
  | { type: 'datetime'; key: string; required: boolean; default?: string | null };

/** An index of a collection. */
export interface IndexSpec {
  key: string;
  type: 'key' | 'unique' | 'fulltext';
  attributes: string[];
  orders?: ('asc' | 'desc')[];
}

/** A collection: permissions, attributes and indexes. */
export interface CollectionSpec {
  id: string;
  name: string;
  permissions: string[];
  documentSecurity: boolean;
  attributes: AttributeSpec[];
  indexes: IndexSpec[];
}

/** A storage bucket. */
export interface BucketSpec {
  id: string;
  name: string;
  permissions: string[];
  fileSecurity: boolean;
  maximumFileSize: number;
  allowedFileExtensions: string[];
}

/**
 * An Appwrite Function built from `functions/<id>/src/main.ts` (bundled with its imports into
 * one `main.js`) and deployed as a code archive.
 */
export interface FunctionSpec {
  id: string;
  name: string;
  /** An Appwrite Node runtime id supported by Appwrite 1.9. */
  runtime: string;
  /** Roles that may execute it through the API (API keys always may). */
  execute: string[];
  /** Events that trigger it. */
  events: string[];
  /** Cron schedule (UTC), or ''. */
  schedule: string;
  /** Seconds. */
  timeout: number;
  /** Scopes of the short-lived API key each execution gets. */
  scopes: string[];
  /** Plain (non-secret) variables. */
  variables: Record<string, string>;
  /**
   * What of Stripe provisioning gives it (scripts/lib/stripe-provisioning.ts): `api` the SDK's
   * settings (`STRIPE_SECRET_KEY` or `STRIPE_API_URL`); `webhook` those and the signing secret of
   * the webhook endpoint registered for the function's URL.
   */
  stripe?: 'api' | 'webhook';
}

/** Everything `npm run provision` creates. */
export interface SchemaSpec {
  database: { id: string; name: string };
  team: { id: string; name: string };
  collections: CollectionSpec[];
  buckets: BucketSpec[];
  functions: FunctionSpec[];
}

const desk = `team:${DESK_TEAM_ID}`;
const managers = [`team:${DESK_TEAM_ID}/manager`, `team:${DESK_TEAM_ID}/owner`];

const read = (role: string) => `read("${role}")`;
const create = (role: string) => `create("${role}")`;
const update = (role: string) => `update("${role}")`;
const del = (role: string) => `delete("${role}")`;

const str = (key: string, size: number, required = false): AttributeSpec => ({
  type: 'string',
  key,
  size,
  required,
});
const int = (
  key: string,
  required: boolean,
  extra: { min?: number; max?: number; default?: number } = {},
): AttributeSpec => ({
  type: 'integer',
  key,
  required,
  ...extra,
});
const date = (key: string, required = false): AttributeSpec => ({
  type: 'datetime',
  key,
  required,
});
const bool = (key: string, required: boolean, fallback?: boolean): AttributeSpec =>
  fallback === undefined
    ? { type: 'boolean', key, required }
    : { type: 'boolean', key, required, default: fallback };

/** The Livedesk schema (docs/product.md §4), applied by `scripts/provision.ts`. */
export const schema: SchemaSpec = {
  database: { id: DATABASE_ID, name: 'Livedesk' },
  team: { id: DESK_TEAM_ID, name: 'Desk' },
  collections: [
    {
      id: COLLECTIONS.products,
      name: 'Products',
      permissions: [
        read('any'),
        ...managers.flatMap((role) => [create(role), update(role), del(role)]),
      ],
      documentSecurity: false,
      attributes: [
        str('name', LIMITS.nameMax, true),
        str('description', LIMITS.descriptionMax),
        int('priceCents', true, { min: 0, max: LIMITS.priceMaxCents }),
        str('currency', 3, true),
        bool('active', false, true),
        str('imageFileId', 36),
        int('sortOrder', false, { default: 0 }),
      ],
      indexes: [{ key: 'active_sort', type: 'key', attributes: ['active', 'sortOrder'] }],
    },
    {
      id: COLLECTIONS.orders,
      name: 'Orders',
      permissions: [read(desk)],
      documentSecurity: true,
      attributes: [
        int('number', true, { min: 1 }),
        { type: 'enum', key: 'status', elements: ORDER_STATUSES, required: true },
        str('customerName', LIMITS.nameMax, true),
        { type: 'email', key: 'customerEmail', required: true },
        str('customerId', 36),
        str('items', 16_384, true),
        int('subtotalCents', true, { min: 0 }),
        int('totalCents', true, { min: 0 }),
        str('currency', 3, true),
        str('paymentIntentId', 255),
        { type: 'enum', key: 'paymentStatus', elements: PAYMENT_STATUSES, required: true },
        str('cardBrand', 32),
        str('cardLast4', 4),
        str('failureCode', 64),
        int('refundedCents', false, { min: 0, default: 0 }),
        str('assigneeId', 36),
        str('assigneeName', 128),
        date('paidAt'),
        date('startedAt'),
        date('readyAt'),
        date('fulfilledAt'),
        date('canceledAt'),
        int('noteCount', false, { min: 0, default: 0 }),
        int('attachmentCount', false, { min: 0, default: 0 }),
        int('rev', true, { min: 0 }),
        str('updatedById', 36),
        str('updatedByName', 128),
      ],
      indexes: [
        { key: 'number_unique', type: 'unique', attributes: ['number'] },
        { key: 'status_created', type: 'key', attributes: ['status', '$createdAt'] },
        { key: 'created', type: 'key', attributes: ['$createdAt'] },
        { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
        { key: 'assignee', type: 'key', attributes: ['assigneeId'] },
        { key: 'email', type: 'key', attributes: ['customerEmail'] },
        { key: 'payment_intent', type: 'key', attributes: ['paymentIntentId'] },
        { key: 'customer_search', type: 'fulltext', attributes: ['customerName'] },
      ],
    },
    {
      id: COLLECTIONS.notes,
      name: 'Notes',
      permissions: [read(desk), create(desk)],
      documentSecurity: true,
      attributes: [
        str('orderId', 36, true),
        str('authorId', 36, true),
        str('authorName', 128, true),
        str('body', LIMITS.noteMax, true),
        bool('deleted', false, false),
      ],
      indexes: [
        { key: 'order', type: 'key', attributes: ['orderId', '$createdAt'] },
        { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
      ],
    },
    {
      id: COLLECTIONS.activity,
      name: 'Activity',
      permissions: [read(desk)],
      documentSecurity: false,
      attributes: [
        str('orderId', 36, true),
        {
          type: 'enum',
          key: 'kind',
          elements: [
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
          ],
          required: true,
        },
        str('actorId', 36),
        str('actorName', 128),
        str('data', 4_096),
        date('at', true),
      ],
      indexes: [
        { key: 'order', type: 'key', attributes: ['orderId', 'at'] },
        { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
      ],
    },
    {
      id: COLLECTIONS.attachments,
      name: 'Attachments',
      permissions: [read(desk), create(desk)],
      documentSecurity: true,
      attributes: [
        str('orderId', 36, true),
        str('fileId', 36, true),
        str('name', 255, true),
        int('sizeBytes', true, { min: 0 }),
        str('mimeType', 255, true),
        str('uploadedBy', 36, true),
        bool('deleted', false, false),
      ],
      indexes: [
        { key: 'order', type: 'key', attributes: ['orderId'] },
        { key: 'updated', type: 'key', attributes: ['$updatedAt'] },
      ],
    },
    {
      id: COLLECTIONS.exports,
      name: 'Exports',
      permissions: managers.flatMap((role) => [read(role), create(role)]),
      documentSecurity: false,
      attributes: [
        str('requestedBy', 36, true),
        str('filter', 4_096),
        {
          type: 'enum',
          key: 'status',
          elements: ['queued', 'running', 'done', 'failed'],
          required: true,
        },
        int('rowCount', false, { min: 0, default: 0 }),
        str('fileId', 36),
        str('error', 1_024),
      ],
      indexes: [{ key: 'updated', type: 'key', attributes: ['$updatedAt'] }],
    },
    {
      id: COLLECTIONS.stripeEvents,
      name: 'Stripe events',
      permissions: [],
      documentSecurity: false,
      attributes: [str('type', 128, true), str('orderId', 36), date('processedAt', true)],
      indexes: [],
    },
    {
      // One document, `order-number`: the last order number `checkout` gave out.
      id: COLLECTIONS.counters,
      name: 'Counters',
      permissions: [],
      documentSecurity: false,
      attributes: [int('value', true, { min: 0 })],
      indexes: [],
    },
  ],
  buckets: [
    {
      id: BUCKETS.attachments,
      name: 'Attachments',
      permissions: [read(desk), create(desk)],
      fileSecurity: false,
      maximumFileSize: LIMITS.attachmentMaxBytes,
      allowedFileExtensions: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'pdf', 'txt'],
    },
    {
      id: BUCKETS.productImages,
      name: 'Product images',
      permissions: [
        read('any'),
        ...managers.flatMap((role) => [create(role), update(role), del(role)]),
      ],
      fileSecurity: false,
      maximumFileSize: LIMITS.productImageMaxBytes,
      allowedFileExtensions: ['jpg', 'jpeg', 'png', 'gif', 'webp'],
    },
    {
      id: BUCKETS.exports,
      name: 'Exports',
      permissions: managers.map(read),
      fileSecurity: false,
      maximumFileSize: 100 * 1024 * 1024,
      allowedFileExtensions: ['csv'],
    },
  ],
  functions: [
    {
      id: FUNCTIONS.orderAction,
      name: 'Order action',
      runtime: 'node-22',
      // Every signed-in user may call it; the function itself checks the desk role.
      execute: ['users'],
      events: [],
      schedule: '',
      timeout: 15,
      scopes: ['documents.read', 'documents.write', 'teams.read', 'users.read'],
      variables: {},
      stripe: 'api',
    },
    {
      id: FUNCTIONS.expirePending,
      name: 'Expire pending orders',
      runtime: 'node-22',
      execute: [],
      events: [],
      schedule: '* * * * *',
      timeout: 60,
      scopes: ['documents.read', 'documents.write'],
      variables: {},
    },
    {
      id: FUNCTIONS.onNote,
      name: 'Count notes',
      runtime: 'node-22',
      execute: [],
      events: [`databases.${DATABASE_ID}.collections.${COLLECTIONS.notes}.documents.*.create`],
      schedule: '',
      timeout: 15,
      scopes: ['documents.read', 'documents.write'],
      variables: {},
    },
    {
      id: FUNCTIONS.checkout,
      name: 'Checkout',
      runtime: 'node-22',
      // Customers have an anonymous session; the function prices the cart itself.
      execute: ['users'],
      events: [],
      schedule: '',
      timeout: 15,
      scopes: ['documents.read', 'documents.write'],
      variables: {},
      stripe: 'api',
    },
    {
      id: FUNCTIONS.stripeWebhook,
      name: 'Stripe webhook',
      runtime: 'node-22',
      // Stripe calls its URL without Appwrite credentials; the function checks the signature.
      execute: ['any'],
      events: [],
      schedule: '',
      timeout: 15,
      scopes: ['documents.read', 'documents.write'],
      variables: {},
      stripe: 'webhook',
    },
  ],
};
