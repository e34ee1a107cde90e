import {
  ACTIVITY_SCHEMA,
  ATTACHMENT_SCHEMA,
  EXPORT_SCHEMA,
  NOTE_SCHEMA,
  PRODUCT_SCHEMA,
  STRIPE_EVENT_SCHEMA,
  COUNTER_SCHEMA,
} from '../domain/entities.ts';
import { BUCKETS, COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../domain/ids.ts';
import { itemsSummaryOfStored, ORDER_SCHEMA } from '../domain/order.ts';
import type { EntitySchema, FieldSpec, IndexSpec } from '../domain/schema.ts';
import { LIMITS } from '../domain/validation.ts';

export type { IndexSpec } from '../domain/schema.ts';

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

/** A collection: permissions, attributes and indexes. */
export interface CollectionSpec {
  id: string;
  name: string;
  permissions: string[];
  documentSecurity: boolean;
  attributes: AttributeSpec[];
  indexes: IndexSpec[];
  /** Attributes filled in for the documents stored before they existed. */
  backfills?: BackfillSpec[];
}

/**
 * An attribute derived from others, written with each new document: provisioning fills it in for
 * every document that holds null for it, from the attributes it `reads`.
 */
export interface BackfillSpec {
  key: string;
  reads: string[];
  value(document: Record<string, unknown>): string;
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

/** The provisioning attribute of an entity's field (JSON is a string attribute of its size). */
export function attributeOf(key: string, spec: FieldSpec): AttributeSpec {
  const required = spec.required;
  switch (spec.type) {
    case 'string':
      return { type: 'string', key, size: spec.size, required, ...defaultOf(spec) };
    case 'json':
      return { type: 'string', key, size: spec.size, required };
    case 'email':
      return { type: 'email', key, required };
    case 'enum':
      return { type: 'enum', key, elements: spec.elements, required, ...defaultOf(spec) };
    case 'integer':
      return {
        type: 'integer',
        key,
        required,
        ...(spec.min === undefined ? {} : { min: spec.min }),
        ...(spec.max === undefined ? {} : { max: spec.max }),
        ...defaultOf(spec),
      };
    case 'boolean':
      return { type: 'boolean', key, required, ...defaultOf(spec) };
    case 'datetime':
      return { type: 'datetime', key, required };
  }
}

function defaultOf<T>(spec: { default?: T }): { default?: T } {
  return 'default' in spec && spec.default !== undefined ? { default: spec.default } : {};
}

/** An entity's collection: its attributes and indexes from the domain, with these permissions. */
function collectionOf(
  schema: EntitySchema,
  access: { permissions: string[]; documentSecurity: boolean },
): CollectionSpec {
  return {
    id: schema.collection,
    name: schema.name,
    ...access,
    attributes: schema.entries.map(([key, spec]) => attributeOf(key, spec)),
    indexes: [...schema.indexes],
  };
}

/** The Livedesk schema (docs/product.md §4), applied by `scripts/provision.ts`. */
export const schema: SchemaSpec = {
  database: { id: DATABASE_ID, name: 'Livedesk' },
  team: { id: DESK_TEAM_ID, name: 'Desk' },
  collections: [
    // Clients read; functions write (docs/product.md §6): no collection grants a client write.
    // Written only by product-action.
    collectionOf(PRODUCT_SCHEMA, { permissions: [read('any')], documentSecurity: false }),
    // Written only by functions; an order also grants its customer read ("user:<id>").
    {
      ...collectionOf(ORDER_SCHEMA, { permissions: [read(desk)], documentSecurity: true }),
      // Orders stored before the desk's lists read a summary instead of the items.
      backfills: [
        {
          key: 'itemsSummary',
          reads: ['items'],
          value: (order) => itemsSummaryOfStored(order.items),
        },
      ],
    },
    // Written only by note-action, with the order's count and activity.
    collectionOf(NOTE_SCHEMA, { permissions: [read(desk)], documentSecurity: false }),
    collectionOf(ACTIVITY_SCHEMA, { permissions: [read(desk)], documentSecurity: false }),
    // Written only by attachment-action, with the order's count and activity.
    collectionOf(ATTACHMENT_SCHEMA, { permissions: [read(desk)], documentSecurity: false }),
    // Written only by export-orders.
    collectionOf(EXPORT_SCHEMA, { permissions: managers.map(read), documentSecurity: false }),
    collectionOf(STRIPE_EVENT_SCHEMA, { permissions: [], documentSecurity: false }),
    collectionOf(COUNTER_SCHEMA, { permissions: [], documentSecurity: false }),
  ],
  buckets: [
    {
      id: BUCKETS.attachments,
      name: 'Attachments',
      permissions: [read(desk), create(desk)],
      // An upload is its uploader's (read/update/delete "user:<id>") until attachment-action
      // attaches it and takes those away: so an uploader can cancel, never delete an attachment.
      fileSecurity: true,
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
    {
      // Written only by desk-snapshot (API key); read by the desk, as its orders are.
      id: BUCKETS.snapshots,
      name: 'Snapshots',
      permissions: [read(desk)],
      fileSecurity: false,
      // About 164 bytes an order (16.3 MB at 100,000): room for 300,000 orders several times over.
      maximumFileSize: 200 * 1000 * 1000,
      allowedFileExtensions: ['snapshot'],
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
      stripe: 'api',
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
    {
      id: FUNCTIONS.attachmentAction,
      name: 'Attachment action',
      runtime: 'node-22',
      // Every signed-in user may call it; the function itself checks the desk role.
      execute: ['users'],
      events: [],
      schedule: '',
      timeout: 15,
      scopes: [
        'documents.read',
        'documents.write',
        'teams.read',
        'users.read',
        'files.read',
        'files.write',
      ],
      variables: {},
    },
    {
      id: FUNCTIONS.exportOrders,
      name: 'Export orders',
      runtime: 'node-22',
      // A manager's call queues an export; its record's create event runs it.
      execute: ['users'],
      events: [`databases.${DATABASE_ID}.collections.${COLLECTIONS.exports}.documents.*.create`],
      schedule: '',
      timeout: 300,
      scopes: [
        'documents.read',
        'documents.write',
        'teams.read',
        'users.read',
        'files.read',
        'files.write',
      ],
      variables: {},
    },
    {
      id: FUNCTIONS.noteAction,
      name: 'Note action',
      runtime: 'node-22',
      // Every signed-in user may call it; the function itself checks the desk role.
      execute: ['users'],
      events: [],
      schedule: '',
      timeout: 15,
      scopes: ['documents.read', 'documents.write', 'teams.read', 'users.read'],
      variables: {},
    },
    {
      id: FUNCTIONS.productAction,
      name: 'Product action',
      runtime: 'node-22',
      // Every signed-in user may call it; the function itself checks for a manager or owner.
      execute: ['users'],
      events: [],
      schedule: '',
      timeout: 15,
      scopes: ['documents.read', 'documents.write', 'teams.read', 'users.read', 'files.read'],
      variables: {},
    },
    {
      id: FUNCTIONS.repairOrders,
      name: 'Repair orders',
      runtime: 'node-22',
      execute: [],
      events: [],
      // Checks the orders changed since its last run (docs/product.md §7.1).
      schedule: '* * * * *',
      timeout: 60,
      scopes: ['documents.read', 'documents.write'],
      variables: {},
    },
    {
      id: FUNCTIONS.deskSnapshot,
      name: 'Desk snapshot',
      runtime: 'node-22',
      execute: [],
      events: [],
      // The snapshot of every order a desk's first visit starts from (functions/README.md).
      schedule: '*/15 * * * *',
      // The lease of a run lasts as long (functions/desk-snapshot/src/lease.ts `LEASE_MS`).
      timeout: 300,
      // documents.write: the run's lease, a `counters` document.
      scopes: ['documents.read', 'documents.write', 'files.read', 'files.write'],
      variables: {},
    },
    {
      id: FUNCTIONS.sweepUploads,
      name: 'Sweep uploads',
      runtime: 'node-22',
      execute: [],
      events: [],
      // Uploads no record names, untouched for an hour (functions/README.md).
      schedule: '41 * * * *',
      timeout: 60,
      scopes: ['documents.read', 'files.read', 'files.write'],
      variables: {},
    },
  ],
};
