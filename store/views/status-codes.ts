import { ORDER_STATUSES, type Order, type OrderStatus } from '../../domain/order.ts';
import { CHUNK_SLOTS, type EntityTable } from '../records/entity-table.ts';

/**
 * The statuses of one chunk of the orders table as small numbers, one byte a slot (0: an empty
 * slot), made on the first filter that reads the chunk and kept with it (weakly: a chunk is
 * never changed, a change copies it). A status filter then reads bytes, not orders.
 */
const byChunk = new WeakMap<readonly (Order | undefined)[], Uint8Array>();

const CODE = new Map<OrderStatus, number>(ORDER_STATUSES.map((status, i) => [status, i + 1]));

/** The status codes of chunk `c` of `orders` (made now when this version of it has none). */
export function statusCodesAt(orders: EntityTable<Order>, c: number): Uint8Array {
  const chunk = orders.chunkAt(c);
  let codes = byChunk.get(chunk);
  if (codes === undefined) {
    codes = new Uint8Array(CHUNK_SLOTS);
    for (let i = 0; i < CHUNK_SLOTS; i++) {
      const order = chunk[i];
      if (order !== undefined) codes[i] = CODE.get(order.status) ?? 0;
    }
    byChunk.set(chunk, codes);
  }
  return codes;
}

/** A lookup by status code: 1 for the codes of `statuses`, 0 for the others (and empty slots). */
export function statusMask(statuses: Iterable<OrderStatus>): Uint8Array {
  const mask = new Uint8Array(ORDER_STATUSES.length + 1);
  for (const status of statuses) mask[CODE.get(status) ?? 0] = 1;
  mask[0] = 0;
  return mask;
}
