import { AppError } from '../../../domain/errors.ts';
import {
  decideOrderAction,
  decideRefund,
  type Actor,
  type OrderActionRequest,
  type RefundRequest,
} from '../../../domain/order-machine.ts';
import {
  orderFromDocument,
  orderToDocumentData,
  type OrderDocument,
} from '../../../domain/order.ts';
import type { DocumentMeta } from '../../../domain/schema.ts';
import type { DeskTransport, PresenceAnnouncement } from '../../mutations/transport.ts';
import type { ManualClock, ModelServer } from './model-server.ts';
import type { Prng } from './prng.ts';

/**
 * The store's writes over the model server, for tests: `order-action` decides with the same
 * domain rule as the real function; notes, products, memberships and presences are written as
 * the backend would write them (their realtime events follow like any write's). With `hold`,
 * answers wait for {@link release} so a test can look at the pending state; `failWith` makes the
 * next call fail with that error instead.
 */
export class ModelTransport implements DeskTransport {
  readonly #server: ModelServer;
  readonly #clock: ManualClock;
  readonly #rng: Prng;
  actor: Actor;
  hold = false;
  failWith: unknown = null;
  /** Every call, in order: the method and its argument. */
  calls: { method: string; input: unknown }[] = [];
  /** Presences announced, in order. */
  presences: PresenceAnnouncement[] = [];
  #held: (() => void)[] = [];

  constructor(server: ModelServer, clock: ManualClock, rng: Prng, actor: Actor) {
    this.#server = server;
    this.#clock = clock;
    this.#rng = rng;
    this.actor = actor;
  }

  /** Lets held calls answer. */
  release(): void {
    for (const resume of this.#held.splice(0)) resume();
  }

  /** The requests of `performOrderAction` so far. */
  get orderActions(): (OrderActionRequest | RefundRequest)[] {
    return this.calls
      .filter((call) => call.method === 'performOrderAction')
      .map((call) => call.input as OrderActionRequest | RefundRequest);
  }

  async #enter(method: string, input: unknown): Promise<void> {
    this.calls.push({ method, input });
    if (this.hold) await new Promise<void>((resolve) => this.#held.push(resolve));
    const failure = this.failWith;
    this.failWith = null;
    if (failure) throw failure;
  }

  /** Writes a document, makes it visible at once and answers it. */
  #write(
    collection: string,
    kind: 'create' | 'update' | 'delete',
    id: string,
    data?: Record<string, unknown>,
  ): DocumentMeta {
    this.#server.write(collection, kind, id, data);
    this.#server.commitDue(true);
    return structuredClone(this.#server.get(collection, id)) as DocumentMeta;
  }

  newId(): string {
    return this.#rng.id();
  }

  async performOrderAction(request: OrderActionRequest | RefundRequest): Promise<DocumentMeta> {
    await this.#enter('performOrderAction', request);
    const doc = this.#server.get('orders', request.orderId);
    if (!doc) throw new AppError('NOT_FOUND', 'This order does not exist.');
    const order = orderFromDocument(doc as unknown as OrderDocument);
    const decision =
      request.action === 'refund'
        ? decideRefund(order, request, this.actor)
        : decideOrderAction(order, request, this.actor, this.#clock.now);
    if (decision instanceof AppError) throw decision;
    return this.#write('orders', 'update', request.orderId, {
      ...orderToDocumentData(decision.patch),
    });
  }

  async createNote(note: Parameters<DeskTransport['createNote']>[0]): Promise<DocumentMeta> {
    await this.#enter('createNote', note);
    const { id, ...data } = note;
    return this.#write('notes', 'create', id, { ...data, deleted: false });
  }

  async createProduct(
    id: string,
    product: Parameters<DeskTransport['createProduct']>[1],
  ): Promise<DocumentMeta> {
    await this.#enter('createProduct', { id, ...product });
    return this.#write('products', 'create', id, { ...product, imageFileId: null });
  }

  async updateProduct(
    id: string,
    changes: Parameters<DeskTransport['updateProduct']>[1],
  ): Promise<DocumentMeta> {
    await this.#enter('updateProduct', { id, ...changes });
    if (!this.#server.get('products', id))
      throw new AppError('NOT_FOUND', 'We couldn’t find that. It may have been removed.');
    return this.#write('products', 'update', id, changes);
  }

  async updateMemberRoles(membershipId: string, roles: string[]): Promise<DocumentMeta> {
    await this.#enter('updateMemberRoles', { membershipId, roles });
    return this.#write('members', 'update', membershipId, { roles });
  }

  async removeMember(membershipId: string): Promise<void> {
    await this.#enter('removeMember', { membershipId });
    this.#write('members', 'delete', membershipId);
  }

  async inviteMember(invite: Parameters<DeskTransport['inviteMember']>[0]): Promise<DocumentMeta> {
    await this.#enter('inviteMember', invite);
    return this.#write('members', 'create', this.#rng.id(), {
      teamId: 'desk',
      userId: this.#rng.id(),
      userName: invite.name ?? '',
      userEmail: invite.email,
      roles: invite.roles,
      confirm: false,
    });
  }

  async announcePresence(presence: PresenceAnnouncement): Promise<void> {
    await this.#enter('announcePresence', presence);
    this.presences.push(presence);
    this.#write(
      'presence',
      this.#server.get('presence', presence.presenceId) ? 'update' : 'create',
      presence.presenceId,
      {
        userId: presence.userId,
        status: presence.status,
        metadata: { orderId: presence.orderId, name: presence.name },
      },
    );
  }
}
