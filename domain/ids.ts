/** Identifiers of the backend resources Livedesk provisions (see scripts/schema.ts). */
export const DATABASE_ID = 'livedesk';

/** Collection ids inside {@link DATABASE_ID}. */
export const COLLECTIONS = {
  products: 'products',
  orders: 'orders',
  notes: 'notes',
  activity: 'activity',
  attachments: 'attachments',
  exports: 'exports',
  stripeEvents: 'stripe_events',
  counters: 'counters',
} as const;

/** The document of {@link COLLECTIONS}.counters holding the last order number given out. */
export const ORDER_NUMBER_COUNTER_ID = 'order-number';

/** The document of {@link COLLECTIONS}.counters holding where `repair-orders` got to (ms). */
export const REPAIR_CURSOR_ID = 'repair-cursor';

/**
 * The document of {@link COLLECTIONS}.counters holding until when (ms) a `desk-snapshot` run
 * writes the snapshot file (0: nobody does), so that two runs never upload it at once.
 */
export const DESK_SNAPSHOT_LEASE_ID = 'desk-snapshot-lease';

/** A collection id of {@link COLLECTIONS}. */
export type CollectionId = (typeof COLLECTIONS)[keyof typeof COLLECTIONS];

/** Storage bucket ids. */
export const BUCKETS = {
  attachments: 'attachments',
  productImages: 'product-images',
  exports: 'exports',
  /** Server-kept snapshots of the desk's orders, written by `desk-snapshot`, read by the desk. */
  snapshots: 'snapshots',
} as const;

/** The file of {@link BUCKETS}.snapshots holding the snapshot of every order (its list copy). */
export const DESK_SNAPSHOT_FILE_ID = 'orders';

/** The one team of a shop; its membership roles are {@link DeskRole}s. */
export const DESK_TEAM_ID = 'desk';

/** Appwrite Function ids. */
export const FUNCTIONS = {
  orderAction: 'order-action',
  expirePending: 'expire-pending',
  noteAction: 'note-action',
  productAction: 'product-action',
  repairOrders: 'repair-orders',
  checkout: 'checkout',
  stripeWebhook: 'stripe-webhook',
  attachmentAction: 'attachment-action',
  exportOrders: 'export-orders',
  /** Writes the snapshot of every order to {@link DESK_SNAPSHOT_FILE_ID} (every 15 minutes). */
  deskSnapshot: 'desk-snapshot',
  /** Deletes the uploads no record names, an hour after they were last touched (every hour). */
  sweepUploads: 'sweep-uploads',
} as const;
