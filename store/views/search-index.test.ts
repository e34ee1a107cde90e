import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type Order } from '../../domain/order.ts';
import { createDeskStore } from '../create-store.ts';
import type { RemoteChange } from '../records/changes.ts';
import { EntityTable } from '../records/entity-table.ts';
import { viewProblems } from '../sync/testing/consistency.ts';
import { advanceOrder, makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import {
  buildOrderIndex,
  orderViewDef,
  textSearchOf,
  type OrderSortKey,
  type OrderViewSpec,
} from './order-views.ts';
import { matchingSlots } from './search-index.ts';
import { drain, ManualSlices } from './sliced.ts';

const NOW = Date.UTC(2026, 2, 10, 12);
const NAMES = ['Ana Silva', 'Anabel Ng', 'Zoë Núñez', 'Émile Berg', 'Jo', 'Ïda Ångström', 'Björn'];
const EMAILS = ['ana@example.test', 'an.ab@x.io', 'zoe1042@example.test', 'EMILE@Mail.Test', 'j@o'];
const NEEDLES = [
  'a',
  'an',
  'ana',
  'ne',
  'ez',
  'emile',
  'ex',
  '@',
  '10',
  '104',
  '#1',
  '0',
  'zz',
  'ö',
];
const SORTS: readonly OrderSortKey[] = ['createdAt', 'customerName', 'customerEmail', 'number'];

/**
 * A desk under random renames (a new name or email, in place in most sort columns, a move in
 * the name and email columns), moves (a workflow step: `updatedAt`), new and deleted orders,
 * and, between them, searches typed a letter at a time or started afresh: each search must
 * give the rows of a full scan of the orders shown.
 */
function run(seed: number, slices: ManualSlices | null) {
  const rng = new Prng(seed);
  const store = createDeskStore({ now: () => NOW, ...(slices ? { slices } : {}) });
  let number = 1;
  const order = () =>
    makeOrder(rng, {
      number: rng.chance(0.05) ? rng.int(1, number) : number++,
      createdAt: NOW - rng.int(0, 9) * 60_000,
      status: rng.pick(['paid', 'preparing', 'ready', 'fulfilled', 'canceled'] as const),
    });
  const named = (o: Order): Order =>
    rng.chance(0.5) ? { ...o, customerName: rng.pick(NAMES), customerEmail: rng.pick(EMAILS) } : o;
  const current = new Map<string, Order>();
  for (let i = 0; i < 700; i++) {
    const o = named(order());
    current.set(o.id, o);
  }
  store.getState().loadSnapshot({ orders: [...current.values()] });
  let shown: { release(): void } | null = null;
  let typed = '';
  let previous: OrderViewSpec = { sort: 'createdAt', dir: 'desc' };
  let searches = 0;
  for (let round = 0; round < 60; round++) {
    const changes: RemoteChange[] = [];
    for (let k = rng.int(0, 25); k > 0; k--) {
      const ids = [...current.keys()];
      const held = current.get(rng.pick(ids))!;
      const roll = rng.next();
      let next: Order | null = null;
      if (roll < 0.35) {
        next = {
          ...held,
          customerName: rng.chance(0.7) ? rng.pick(NAMES) : held.customerName,
          customerEmail: rng.chance(0.7) ? rng.pick(EMAILS) : held.customerEmail,
          rev: held.rev + 1,
          updatedAt: held.updatedAt + 1,
        };
      } else if (roll < 0.6) next = advanceOrder(rng, held, NOW + round);
      else if (roll < 0.8) {
        next = named(order());
      } else {
        current.delete(held.id);
        changes.push({ collection: 'orders', kind: 'delete', record: held });
      }
      if (next !== null) {
        current.set(next.id, next);
        changes.push({ collection: 'orders', kind: 'upsert', record: next });
      }
    }
    store.getState().applyRemote(changes, { eventsAt: NOW });
    if (rng.chance(0.1)) store.getState().prepareSearch();
    // Type one more letter of the needle, or start another search.
    const needle = rng.pick(NEEDLES);
    const more = typed !== '' && needle.startsWith(typed) && needle.length > typed.length;
    const spec: OrderViewSpec =
      more && rng.chance(0.8)
        ? { ...previous, text: (typed = needle.slice(0, typed.length + 1)) }
        : {
            sort: rng.pick(SORTS),
            dir: rng.pick(['asc', 'desc'] as const),
            text: (typed = needle.slice(0, rng.int(1, needle.length))),
            ...(rng.chance(0.3) ? { statuses: [rng.pick(ORDER_STATUSES)] } : {}),
          };
    previous = spec;
    const handle = store.getState().acquireOrderView(spec);
    shown?.release();
    shown = handle;
    // Changes while the view is made in slices, then the rest of its slices.
    while (slices !== null && slices.pending > 0) {
      if (rng.chance(0.3)) {
        const held = current.get(rng.pick([...current.keys()]))!;
        const renamed = {
          ...held,
          customerName: rng.pick(NAMES),
          rev: held.rev + 1,
          updatedAt: held.updatedAt + 1,
        };
        current.set(renamed.id, renamed);
        store.getState().applyRemote([{ collection: 'orders', kind: 'upsert', record: renamed }], {
          eventsAt: NOW,
        });
      }
      slices.runNext();
    }
    const state = store.getState();
    const rows = state.orderViews[handle.key]!.index.toArray();
    expect(rows, `seed ${seed} round ${round} ${JSON.stringify(spec)}`).toEqual(
      buildOrderIndex(orderViewDef(spec), state.shownOrders).toArray(),
    );
    searches++;
  }
  expect(viewProblems(store.getState(), NOW)).toEqual([]);
  return searches;
}

describe('search', () => {
  it('gives the rows of a full scan after renames, moves, new and deleted orders', () => {
    let searches = 0;
    for (let seed = 1; seed <= 40; seed++) searches += run(seed, null);
    expect(searches).toBe(40 * 60);
  });

  it('does so with views made in slices and renames between the slices', () => {
    for (let seed = 1; seed <= 20; seed++) run(seed, new ManualSlices({ tick: 8 }));
  });

  it('matches numbers by prefix and text in the name or the email, never across them', () => {
    const rng = new Prng(4);
    const orders = [
      {
        ...makeOrder(rng, { number: 1042, createdAt: NOW, status: 'paid' }),
        customerName: 'Chloé Dubois',
        customerEmail: 'c@x.io',
      },
      {
        ...makeOrder(rng, { number: 2104, createdAt: NOW, status: 'paid' }),
        customerName: 'Ben',
        customerEmail: 'ben104@x.io',
      },
      {
        ...makeOrder(rng, { number: 7, createdAt: NOW, status: 'paid' }),
        customerName: 'Ana',
        customerEmail: 'silva@x.io',
      },
    ];
    const table = EntityTable.from(orders);
    const numbers = (text: string) => {
      const matched = drain(
        matchingSlots(table, textSearchOf({ sort: 'number', dir: 'asc', text })!),
      );
      return orders.filter((o) => matched[table.slotOf(o.id)!] === 1).map((o) => o.number);
    };
    expect(numbers('#104')).toEqual([1042, 2104]);
    expect(numbers('chloe')).toEqual([1042]);
    expect(numbers('DUBOIS')).toEqual([1042]);
    expect(numbers('anasilva')).toEqual([]);
    expect(numbers('ana\u0000silva')).toEqual([]);
    expect(numbers('7')).toEqual([7]);
    expect(numbers('07')).toEqual([]);
  });
});
