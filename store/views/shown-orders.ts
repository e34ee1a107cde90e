import type { Order } from '../../domain/order.ts';
import type { RecordDiff } from '../records/changes.ts';
import type { EntityTable } from '../records/entity-table.ts';

/** Our optimistic orders by id: what each order would be once our action in flight succeeds. */
export type OptimisticOrders = Readonly<Record<string, Order>>;

/**
 * What the desk shows for an order with an action of ours in flight: the optimistic record until
 * the backend's version reaches its `rev` (the echo of our own change, or someone else's change
 * that beat it), then the backend's; nothing once the backend has no such order.
 */
export function visibleOrder(confirmed: Order | undefined, optimistic: Order): Order | undefined {
  if (confirmed === undefined) return undefined;
  return confirmed.rev >= optimistic.rev ? confirmed : optimistic;
}

function isEmpty(optimistic: OptimisticOrders): boolean {
  for (const _ in optimistic) return false;
  return true;
}

/**
 * The orders the desk shows: the confirmed table with our optimistic records laid over it (the
 * same table when there are none; otherwise the chunks of those few orders are copied).
 */
export function showOrders(
  confirmed: EntityTable<Order>,
  optimistic: OptimisticOrders,
): EntityTable<Order> {
  if (isEmpty(optimistic)) return confirmed;
  const draft = confirmed.edit();
  let changed = false;
  for (const id in optimistic) {
    const held = confirmed.get(id);
    const shown = visibleOrder(held, optimistic[id]!);
    if (shown !== held && shown !== undefined) {
      draft.set(shown);
      changed = true;
    }
  }
  return changed ? draft.commit() : confirmed;
}

/**
 * The shown orders after a change of the confirmed orders (`diffs`) and/or of our optimistic
 * records, with the diffs of what is shown (for the board, the views and the metrics). Without
 * optimistic records before or after, both are the confirmed ones as they are.
 */
export function nextShownOrders(
  before: { shown: EntityTable<Order>; optimistic: OptimisticOrders },
  after: { confirmed: EntityTable<Order>; optimistic: OptimisticOrders },
  diffs: readonly RecordDiff<Order>[],
): { shown: EntityTable<Order>; diffs: readonly RecordDiff<Order>[] } {
  if (isEmpty(before.optimistic) && isEmpty(after.optimistic))
    return { shown: after.confirmed, diffs };
  const shown = showOrders(after.confirmed, after.optimistic);
  const ids = new Set<string>();
  for (const diff of diffs) ids.add((diff.before ?? diff.after)!.id);
  for (const id in before.optimistic) ids.add(id);
  for (const id in after.optimistic) ids.add(id);
  const shownDiffs: RecordDiff<Order>[] = [];
  for (const id of ids) {
    const was = before.shown.get(id);
    const is = shown.get(id);
    if (was !== is) shownDiffs.push({ before: was, after: is });
  }
  return { shown, diffs: shownDiffs };
}
