import { AppError } from '../../domain/errors.ts';
import { decideOrderAction, type OrderAction } from '../../domain/order-machine.ts';
import { toAppError } from '../appwrite/errors.ts';
import type {
  DeskSlice,
  ErrorInfo,
  MutationsSlice,
  OrderActionError,
  OrderActionResult,
} from '../state.ts';
import { recordFromDocument } from '../sync/documents.ts';
import type { OrderActionGateway } from './transport.ts';

/** What the mutations slice needs from its surroundings. */
export interface MutationsContext {
  now(): number;
  gateway(): OrderActionGateway | null;
  /** Reads an order again after a conflict (null when the store has no sync). */
  refresh(orderId: string): Promise<void> | null;
}

/** Errors after which the order is read again, so the drawer shows who changed it. */
const REFRESH_AFTER = new Set(['ORDER_CONFLICT', 'INVALID_TRANSITION', 'NOT_FOUND']);

function info(error: AppError): ErrorInfo {
  return error.details
    ? { code: error.code, message: error.message, details: error.details }
    : { code: error.code, message: error.message };
}

/** Optimistic workflow actions with rollback, and the errors they leave. */
export function createMutationsSlice(context: MutationsContext): DeskSlice<MutationsSlice> {
  /** The last action per order: actions on one order run one after another. */
  const chains = new Map<string, Promise<unknown>>();

  return (set, get) => {
    const refuse = (orderId: string, action: OrderAction, error: AppError): OrderActionResult => {
      const entry: OrderActionError = { ...info(error), orderId, action, at: context.now() };
      set((draft) => void (draft.orderErrors[orderId] = entry));
      return { ok: false, error: info(error) };
    };

    const run = async (orderId: string, action: OrderAction): Promise<OrderActionResult> => {
      const state = get();
      const actor = state.actor;
      if (!actor)
        return refuse(orderId, action, new AppError('AUTH_REQUIRED', 'Sign in to work on orders.'));
      const order = state.orders.get(orderId);
      if (!order)
        return refuse(
          orderId,
          action,
          new AppError('NOT_FOUND', 'This order is no longer on the desk.'),
        );
      const now = context.now();
      const decision = decideOrderAction(order, { action, expectedRev: order.rev }, actor, now);
      if (decision instanceof AppError) return refuse(orderId, action, decision);
      const gateway = context.gateway();
      if (!gateway)
        return refuse(orderId, action, new AppError('SERVER_ERROR', 'Actions are not available.'));
      const optimistic = Object.freeze({ ...order, ...decision.patch, updatedAt: now });
      state.beginOptimistic(optimistic, action);
      try {
        const doc = await gateway.perform({ orderId, action, expectedRev: order.rev });
        const confirmed = recordFromDocument('orders', doc);
        get().settleOptimistic(orderId, { confirmed });
        return { ok: true, order: get().orders.get(orderId) ?? confirmed };
      } catch (thrown) {
        const error = thrown instanceof AppError ? thrown : toAppError(thrown);
        const entry: OrderActionError = { ...info(error), orderId, action, at: context.now() };
        get().settleOptimistic(orderId, { error: entry });
        if (REFRESH_AFTER.has(error.code)) void context.refresh(orderId)?.catch(() => {});
        return { ok: false, error: info(error) };
      }
    };

    return {
      pendingActions: {},
      orderErrors: {},

      performOrderAction(orderId, action) {
        const previous = (chains.get(orderId) ?? Promise.resolve()).catch(() => undefined);
        const result = previous.then(() => run(orderId, action));
        chains.set(orderId, result);
        void result.finally(() => {
          if (chains.get(orderId) === result) chains.delete(orderId);
        });
        return result;
      },

      dismissOrderError(orderId) {
        if (get().orderErrors[orderId] === undefined) return;
        set((draft) => void delete draft.orderErrors[orderId]);
      },
    };
  };
}
