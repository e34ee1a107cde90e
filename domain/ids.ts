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

/** A collection id of {@link COLLECTIONS}. */
export type CollectionId = (typeof COLLECTIONS)[keyof typeof COLLECTIONS];

/** Storage bucket ids. */
export const BUCKETS = {
  attachments: 'attachments',
  productImages: 'product-images',
  exports: 'exports',
} as const;

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
} as const;
