import type { OrderActionRequest, RefundRequest } from '../../domain/order-machine.ts';
import type { DocumentMeta } from '../../domain/schema.ts';

/** A note as the store sends it (the author is the caller). */
export interface NoteInput {
  id: string;
  orderId: string;
  body: string;
  authorId: string;
  authorName: string;
}

/** A product's editable fields. */
export interface ProductInput {
  name: string;
  description: string;
  priceCents: number;
  currency: string;
  active: boolean;
  sortOrder: number;
}

/** An invitation to the desk team (the backend sends it; it links to the app's `/join`). */
export interface InviteInput {
  email: string;
  name: string | null;
  roles: string[];
}

/** What this tab tells the others about itself (Appwrite presence, readable by the team). */
export interface PresenceAnnouncement {
  presenceId: string;
  userId: string;
  status: 'viewing' | 'online';
  name: string;
  orderId: string | null;
}

/**
 * Where the store's writes go: the one place that knows how each write reaches the backend.
 * Workflow actions, notes and products run their functions (`order-action`, `note-action`,
 * `product-action`); team changes are SDK calls (store/appwrite/transport.ts). A write resolves with the backend's document (applied by
 * the store like any remote change, so its realtime echo is a duplicate) and rejects with an
 * `AppError` (docs/product.md §8), converted at the SDK boundary.
 */
export interface DeskTransport {
  /** A new unique id for a record this tab creates (shown before the backend confirms it). */
  newId(): string;
  /** Runs a workflow action; resolves with the updated order document. */
  performOrderAction(request: OrderActionRequest | RefundRequest): Promise<DocumentMeta>;
  createNote(note: NoteInput): Promise<DocumentMeta>;
  createProduct(id: string, product: ProductInput): Promise<DocumentMeta>;
  updateProduct(id: string, changes: Partial<ProductInput>): Promise<DocumentMeta>;
  /** Resolves with the updated membership. */
  updateMemberRoles(membershipId: string, roles: string[]): Promise<DocumentMeta>;
  removeMember(membershipId: string): Promise<void>;
  /** Resolves with the new (unconfirmed) membership. */
  inviteMember(invite: InviteInput): Promise<DocumentMeta>;
  /** Tells the team what this tab is looking at (kept by the backend while the socket is up). */
  announcePresence(presence: PresenceAnnouncement): Promise<void>;
}
