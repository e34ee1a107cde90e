import type { Note } from '../../domain/entities.ts';
import { AppError } from '../../domain/errors.ts';
import { decideOrderAction, decideRefund, type OrderAction } from '../../domain/order-machine.ts';
import type { Order } from '../../domain/order.ts';
import type { DeskRole } from '../../domain/roles.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import {
  validateDescription,
  validateEmail,
  validateName,
  validateNoteBody,
  validatePriceCents,
} from '../../domain/validation.ts';
import { toAppError } from '../appwrite/errors.ts';
import type { RemoteChange, SyncedCollection } from '../records/changes.ts';
import { alreadyOnTheTeam } from '../records/people.ts';
import type { DeskSlice, DeskState } from '../state.ts';
import { recordFromDocument } from '../sync/documents.ts';
import type { DeskChange } from '../transactions.ts';
import type { OptimisticOrders } from '../views/shown-orders.ts';
import { presenceIdFor } from './presence.ts';
import type { UploadState } from './upload-state.ts';
import { retryRateLimited } from './rate-limit.ts';
import type { DeskTransport } from './transport.ts';

/**
 * What a write acts on: an order (its workflow action), an order's notes, a product (`new` for
 * one being created), a team membership (`new` for an invitation).
 */
export type MutationTarget =
  | `order:${string}`
  | `notes:${string}`
  | `product:${string}`
  | `member:${string}`
  | `attachment:${string}`
  | `export:${string}`;

/** A write that failed (or was refused before it was sent), for the view to show. */
export interface MutationFailure {
  /** What was tried, e.g. `claim`, `save`, `remove`. */
  action: string;
  error: AppError;
  at: number;
}

/** What the mutations part owns: our writes in flight and how the last ones ended. */
export interface MutationsState {
  /** Our optimistic orders (an action of ours in flight on each), laid over the records. */
  optimistic: OptimisticOrders;
  /** Notes we sent that the backend has not confirmed yet, by note id (shown at once). */
  pendingNotes: Readonly<Record<string, Note>>;
  /** The write in flight per target, by what it does. */
  running: Readonly<Partial<Record<MutationTarget, string>>>;
  /** The last failed write per target (cleared by the next one, or dismissed). */
  failures: Readonly<Partial<Record<MutationTarget, MutationFailure>>>;
  /** Our uploads (attachments, product images) until attached or dismissed, by file id. */
  uploads: Readonly<Record<string, UploadState>>;
}

/** How a write ended. Writes never throw. */
export type MutationResult = { ok: true } | { ok: false; error: AppError };

/** How a workflow action ended: with the order as shown after it, or the error. */
export type OrderActionResult = { ok: true; order: Order } | { ok: false; error: AppError };

/** A product's fields as the catalog form edits them. */
export interface ProductDraft {
  name: string;
  description: string;
  priceCents: number;
}

/** The mutations part's actions: every write a view makes goes through one of these. */
export interface MutationsActions {
  /**
   * Runs a workflow action: decided locally first (a refusal returns at once, no network),
   * shown optimistically, sent, then confirmed by the backend's record or rolled back with the
   * failure kept. Actions on one order run one after another.
   */
  performOrderAction(orderId: string, action: OrderAction): Promise<OrderActionResult>;
  /**
   * Refunds `amountCents` of a card-paid order (all that is left when omitted; managers and
   * owners): decided locally first (`decideRefund`), shown optimistically, sent to `order-action`
   * as `refund`, confirmed or rolled back like {@link performOrderAction} (running as `refund`).
   */
  refundOrder(orderId: string, amountCents?: number): Promise<OrderActionResult>;
  /** Adds a note by the signed-in member (shown at once as pending until the backend has it). */
  addNote(orderId: string, body: string): Promise<MutationResult>;
  /** Creates a product (`productId` null) or edits one. */
  saveProduct(productId: string | null, draft: ProductDraft): Promise<MutationResult>;
  setProductActive(productId: string, active: boolean): Promise<MutationResult>;
  changeMemberRole(membershipId: string, role: DeskRole): Promise<MutationResult>;
  removeMember(membershipId: string): Promise<MutationResult>;
  /** Invites someone to the desk team by email. */
  inviteMember(invite: { email: string; name: string; role: DeskRole }): Promise<MutationResult>;
  /** Tells the team this member is viewing `orderId`; returns the end of it. */
  viewOrder(orderId: string): () => void;
  /** Forgets a failure once the person has read it. */
  dismissFailure(target: MutationTarget): void;
}

/** What the mutations need from their surroundings. */
export interface MutationsContext {
  now(): number;
  transport(): DeskTransport | null;
  commit(change: DeskChange): void;
  /** Reads an order again after a conflict (null when the store has no sync). */
  refresh(orderId: string): Promise<void> | null;
}

/** Errors after which the order is read again, so the drawer shows who changed it. */
const REFRESH_AFTER = new Set(['ORDER_CONFLICT', 'INVALID_TRANSITION', 'NOT_FOUND']);

function without<K extends string, V>(
  map: Readonly<Partial<Record<K, V>>>,
  key: K,
): Partial<Record<K, V>> {
  if (map[key] === undefined) return map;
  const { [key]: _gone, ...rest } = map;
  return rest as Partial<Record<K, V>>;
}

/** The change of one backend document answering a write. */
function answer(collection: SyncedCollection, doc: DocumentMeta): RemoteChange[] {
  const record = recordFromDocument(collection, doc);
  return record === null ? [] : [{ collection, kind: 'upsert', record } as RemoteChange];
}

/** The mutations part: its state and the writes. */
export function createMutationsSlice(
  context: MutationsContext,
): DeskSlice<MutationsState & MutationsActions> {
  /** The last action per order: actions on one order run one after another. */
  const chains = new Map<string, Promise<unknown>>();

  return (_set, get) => {
    const failed = (
      s: DeskState,
      target: MutationTarget,
      action: string,
      error: AppError,
    ): Partial<MutationsState> => ({
      running: without(s.running, target),
      failures: { ...s.failures, [target]: { action, error, at: context.now() } },
    });

    /** Refuses a write before it is sent: nothing changes but the failure. */
    const refuse = (target: MutationTarget, action: string, error: AppError) => {
      context.commit({ mutations: { failures: failed(get(), target, action, error).failures! } });
      return { ok: false as const, error };
    };

    /**
     * Sends a write, and after a 429 shows the product's `RATE_LIMITED` message on `target` while
     * it waits and sends it again by itself (store/mutations/rate-limit.ts); a later answer
     * clears the message.
     */
    const sendRetrying = async <T>(
      target: MutationTarget,
      action: string,
      doing: string | undefined,
      send: () => Promise<T>,
    ): Promise<T> => {
      let limited = false;
      const answer = await retryRateLimited(
        send,
        (thrown) => toAppError(thrown, doing),
        (error) => {
          limited = true;
          const s = get();
          context.commit({
            mutations: {
              failures: { ...s.failures, [target]: { action, error, at: context.now() } },
            },
          });
        },
      );
      if (limited) context.commit({ mutations: { failures: without(get().failures, target) } });
      return answer;
    };

    const needTransport = (target: MutationTarget, action: string) => {
      const transport = context.transport();
      if (!transport)
        refuse(target, action, new AppError('SERVER_ERROR', 'Saving is not available.'));
      return transport;
    };

    /**
     * Runs a write against `target`: marks it running, sends it, then applies the backend's
     * answer (`remote`) and clears the mark in one commit, or keeps the failure.
     */
    const write = async (
      target: MutationTarget,
      action: string,
      send: (transport: DeskTransport) => Promise<readonly RemoteChange[]>,
    ): Promise<MutationResult> => {
      const transport = needTransport(target, action);
      if (!transport) return { ok: false, error: get().failures[target]!.error };
      const s = get();
      context.commit({
        mutations: {
          running: { ...s.running, [target]: action },
          failures: without(s.failures, target),
        },
      });
      try {
        const remote = await sendRetrying(target, action, undefined, () => send(transport));
        context.commit({ remote, mutations: { running: without(get().running, target) } });
        return { ok: true };
      } catch (thrown) {
        const error = toAppError(thrown);
        context.commit({ mutations: failed(get(), target, action, error) });
        return { ok: false, error };
      }
    };

    const runOrderAction = async (
      orderId: string,
      action: OrderAction | 'refund',
      amountCents?: number,
    ): Promise<OrderActionResult> => {
      const target: MutationTarget = `order:${orderId}`;
      const s = get();
      if (!s.actor)
        return refuse(target, action, new AppError('AUTH_REQUIRED', 'Sign in to work on orders.'));
      const order = s.shownOrders.get(orderId);
      if (!order)
        return refuse(
          target,
          action,
          new AppError('NOT_FOUND', 'This order is no longer on the desk.'),
        );
      const now = context.now();
      const decision =
        action === 'refund'
          ? decideRefund(order, { expectedRev: order.rev, amountCents }, s.actor)
          : decideOrderAction(order, { action, expectedRev: order.rev }, s.actor, now);
      if (decision instanceof AppError) return refuse(target, action, decision);
      const transport = needTransport(target, action);
      if (!transport) return { ok: false, error: get().failures[target]!.error };
      const optimistic = Object.freeze({ ...order, ...decision.patch, updatedAt: now });
      context.commit({
        mutations: {
          optimistic: { ...s.optimistic, [orderId]: optimistic },
          running: { ...s.running, [target]: action },
          failures: without(s.failures, target),
        },
      });
      const settled = () => {
        const { [orderId]: _settled, ...optimistic } = get().optimistic;
        return { optimistic, running: without(get().running, target) };
      };
      try {
        const doc = await sendRetrying(target, action, action, () =>
          transport.performOrderAction(
            action === 'refund'
              ? {
                  orderId,
                  action,
                  expectedRev: order.rev,
                  ...(amountCents === undefined ? {} : { amountCents }),
                }
              : { orderId, action, expectedRev: order.rev },
          ),
        );
        const remote = answer('orders', doc);
        // Without our optimistic record the desk shows the confirmed one; the answer is
        // reconciled with it like any remote change (a duplicate once the echo is in).
        context.commit({ remote, mutations: settled() });
        const shown = get().shownOrders.get(orderId);
        return { ok: true, order: shown ?? (remote[0]!.record as Order) };
      } catch (thrown) {
        const error = toAppError(thrown, action);
        context.commit({
          mutations: { ...settled(), failures: failed(get(), target, action, error).failures! },
        });
        if (REFRESH_AFTER.has(error.code)) void context.refresh(orderId)?.catch(() => {});
        return { ok: false, error };
      }
    };

    /** Runs `run` after the actions already queued on `orderId` (one after another). */
    const chained = (
      orderId: string,
      run: () => Promise<OrderActionResult>,
    ): Promise<OrderActionResult> => {
      const previous = (chains.get(orderId) ?? Promise.resolve()).catch(() => undefined);
      const result = previous.then(run);
      chains.set(orderId, result);
      void result.finally(() => {
        if (chains.get(orderId) === result) chains.delete(orderId);
      });
      return result;
    };

    return {
      optimistic: {},
      pendingNotes: {},
      running: {},
      failures: {},
      uploads: {},

      performOrderAction(orderId, action) {
        return chained(orderId, () => runOrderAction(orderId, action));
      },

      refundOrder(orderId, amountCents) {
        return chained(orderId, () => runOrderAction(orderId, 'refund', amountCents));
      },

      async addNote(orderId, body) {
        const target: MutationTarget = `notes:${orderId}`;
        const actor = get().actor;
        if (!actor)
          return refuse(target, 'add', new AppError('AUTH_REQUIRED', 'Sign in to add notes.'));
        const problem = validateNoteBody(body);
        if (problem)
          return refuse(
            target,
            'add',
            new AppError('VALIDATION', problem.message, { field: problem.field }),
          );
        const transport = needTransport(target, 'add');
        if (!transport) return { ok: false, error: get().failures[target]!.error };
        const now = context.now();
        const note: Note = Object.freeze({
          id: transport.newId(),
          createdAt: now,
          updatedAt: now,
          orderId,
          authorId: actor.id,
          authorName: actor.name,
          body,
          deleted: false,
        });
        const s = get();
        context.commit({
          mutations: {
            pendingNotes: { ...s.pendingNotes, [note.id]: note },
            failures: without(s.failures, target),
          },
        });
        const sent = () => without(get().pendingNotes, note.id) as MutationsState['pendingNotes'];
        try {
          const doc = await sendRetrying(target, 'add', 'add notes', () =>
            transport.createNote({
              id: note.id,
              orderId,
              body: note.body,
              authorId: actor.id,
              authorName: actor.name,
            }),
          );
          // The backend's note replaces the pending one in the same commit: no flicker.
          context.commit({ remote: answer('notes', doc), mutations: { pendingNotes: sent() } });
          return { ok: true };
        } catch (thrown) {
          const error = toAppError(thrown, 'add notes');
          context.commit({
            mutations: {
              pendingNotes: sent(),
              failures: failed(get(), target, 'add', error).failures!,
            },
          });
          return { ok: false, error };
        }
      },

      saveProduct(productId, draft) {
        const target: MutationTarget = `product:${productId ?? 'new'}`;
        const problem =
          validateName(draft.name) ??
          validateDescription(draft.description) ??
          validatePriceCents(draft.priceCents);
        if (problem)
          return Promise.resolve(
            refuse(
              target,
              'save',
              new AppError('VALIDATION', problem.message, { field: problem.field }),
            ),
          );
        // Stored exactly as typed: a blank name was refused above, other spaces are the person's.
        const fields = {
          name: draft.name,
          description: draft.description,
          priceCents: draft.priceCents,
        };
        return write(target, 'save', async (transport) => {
          if (productId)
            return answer('products', await transport.updateProduct(productId, fields));
          const products = get().productList;
          const doc = await transport.createProduct(transport.newId(), {
            ...fields,
            // The shop has one currency; the first product's, or euros for the first one.
            currency: products[0]?.currency ?? 'eur',
            active: true,
            sortOrder: products.length + 1,
          });
          return answer('products', doc);
        });
      },

      setProductActive(productId, active) {
        return write(`product:${productId}`, active ? 'activate' : 'deactivate', async (t) =>
          answer('products', await t.updateProduct(productId, { active })),
        );
      },

      changeMemberRole(membershipId, role) {
        return write(`member:${membershipId}`, 'change role', async (t) =>
          answer('members', await t.updateMemberRoles(membershipId, [role])),
        );
      },

      removeMember(membershipId) {
        return write(`member:${membershipId}`, 'remove', async (t) => {
          const held = get().members.get(membershipId);
          await t.removeMember(membershipId);
          return held ? [{ collection: 'members', kind: 'delete', record: held }] : [];
        });
      },

      inviteMember(invite) {
        const target: MutationTarget = 'member:new';
        const problem =
          validateEmail(invite.email) ??
          (invite.name !== '' ? validateName(invite.name) : null) ??
          alreadyOnTheTeam(get().members.values(), invite.email);
        if (problem)
          return Promise.resolve(
            refuse(
              target,
              'invite',
              new AppError('VALIDATION', problem.message, { field: problem.field }),
            ),
          );
        return write(target, 'invite', async (t) =>
          answer(
            'members',
            await t.inviteMember({
              email: invite.email,
              name: invite.name || null,
              roles: [invite.role],
            }),
          ),
        );
      },

      viewOrder(orderId) {
        const actor = get().actor;
        const transport = context.transport();
        if (!actor || !transport) return () => {};
        const announce = (viewing: string | null) =>
          void transport
            .announcePresence({
              presenceId: presenceIdFor(actor.id, orderId),
              userId: actor.id,
              status: viewing ? 'viewing' : 'online',
              name: actor.name,
              orderId: viewing,
            })
            .catch(() => {
              // Presence is a courtesy: the desk works without it.
            });
        announce(orderId);
        let ended = false;
        return () => {
          if (ended) return;
          ended = true;
          announce(null);
        };
      },

      dismissFailure(target) {
        const failures = without(get().failures, target);
        if (failures !== get().failures) context.commit({ mutations: { failures } });
      },
    };
  };
}
