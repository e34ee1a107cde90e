import { describe, expect, it } from 'vitest';
import { itemsSummary, type Order } from '../../domain/order.ts';
import { Prng } from '../sync/testing/prng.ts';
import { advanceOrder, cancelOrder, makeOrder } from '../sync/testing/orders.ts';
import { EntityTable } from '../records/entity-table.ts';
import {
  applyOrderDiffs,
  boardDefs,
  buildOrderIndex,
  entryOf,
  foldText,
  normalizeViewSpec,
  numberPrefixTest,
  ORDER_SORT_KEYS,
  orderViewDef,
  orderViewKey,
  orderViewPredicate,
  orderViewSpecOf,
  searchTextOf,
  sortValueOf,
  type OrderDiff,
  type OrderIndexDef,
  type OrderViewSpec,
} from './order-views.ts';
import { compareEntries } from './sorted-index.ts';

const NOW = Date.UTC(2026, 2, 10, 12);

function orders(count: number, seed = 1): Order[] {
  const rng = new Prng(seed);
  return Array.from({ length: count }, (_, i) =>
    makeOrder(rng, {
      number: 1000 + i,
      createdAt: NOW - rng.int(0, 5 * 24 * 3600_000),
      status: rng.pick(['paid', 'preparing', 'ready', 'fulfilled', 'canceled'] as const),
    }),
  );
}

/** The reference: filter and sort everything. */
function expected(def: OrderIndexDef, all: Iterable<Order>): string[] {
  const sign = def.direction === 'asc' ? 1 : -1;
  return [...all]
    .filter((order) => def.member(order))
    .map((order) => entryOf(def, order))
    .sort((a, b) => compareEntries(a, b, sign))
    .map((e) => e.id);
}

describe('order view specs', () => {
  it('gives equal keys to equal views', () => {
    const a: OrderViewSpec = {
      sort: 'status',
      dir: 'asc',
      statuses: ['ready', 'paid'],
      text: ' ana ',
    };
    const b: OrderViewSpec = {
      sort: 'status',
      dir: 'asc',
      statuses: ['paid', 'ready', 'paid'],
      text: 'ana',
      assignee: null,
    };
    expect(orderViewKey(a)).toBe(orderViewKey(b));
    expect(orderViewKey(a)).not.toBe(orderViewKey({ ...a, dir: 'desc' }));
    expect(orderViewSpecOf(orderViewKey(b))).toEqual({
      sort: 'status',
      dir: 'asc',
      statuses: ['paid', 'ready'],
      text: 'ana',
    });
    const full: OrderViewSpec = {
      sort: 'number',
      dir: 'desc',
      assignee: 'none',
      createdFrom: 5,
      createdTo: 9,
    };
    expect(orderViewSpecOf(orderViewKey(full))).toEqual(full);
  });

  it('filters by status, assignee, created range and text', () => {
    const [order] = orders(1);
    const o: Order = {
      ...order!,
      number: 1042,
      status: 'paid',
      assigneeId: null,
      customerName: 'Chloé Dubois',
      customerEmail: 'chloe@example.test',
      createdAt: NOW,
    };
    const match = (spec: Partial<OrderViewSpec>) =>
      orderViewPredicate({ sort: 'number', dir: 'asc', ...spec })(o);
    expect(match({})).toBe(true);
    expect(match({ statuses: ['paid'] })).toBe(true);
    expect(match({ statuses: ['ready'] })).toBe(false);
    expect(match({ assignee: 'none' })).toBe(true);
    expect(match({ assignee: 'u-ana' })).toBe(false);
    expect(match({ createdFrom: NOW, createdTo: NOW + 1 })).toBe(true);
    expect(match({ createdTo: NOW })).toBe(false);
    expect(match({ text: '#104' })).toBe(true);
    expect(match({ text: '1042' })).toBe(true);
    expect(match({ text: '2104' })).toBe(false);
    expect(match({ text: 'chloe' })).toBe(true);
    expect(match({ text: 'DUBOIS' })).toBe(true);
    expect(match({ text: '@example' })).toBe(true);
    expect(match({ text: 'zed' })).toBe(false);
    // A needle never spans the name and the email.
    expect(searchTextOf(o)).toContain('chloe dubois');
    expect(match({ text: 'duboischloe' })).toBe(false);
    expect(match({ text: 'dubois\u0000chloe' })).toBe(false);
  });

  it('sorts text without case or accents, status in workflow order', () => {
    expect(foldText('Émile ÇA')).toBe('emile ca');
    const [base] = orders(1);
    expect(sortValueOf({ ...base!, status: 'paid' }, 'status')).toBeLessThan(
      sortValueOf({ ...base!, status: 'fulfilled' }, 'status') as number,
    );
    expect(sortValueOf({ ...base!, assigneeName: null }, 'assigneeName')).toBeNull();
  });
});

describe('search and sort keys', () => {
  it('tests number prefixes as the decimal form would, without making it', () => {
    const numbers = [
      0,
      1,
      7,
      10,
      104,
      1042,
      2104,
      99_999,
      100_000,
      123_456_789,
      2 ** 52,
      -5,
      1.5,
      NaN,
    ];
    const prefixes = [
      '0',
      '00',
      '007',
      '1',
      '10',
      '104',
      '1042',
      '10420',
      '2',
      '9',
      '99999',
      '1234567890123456',
    ];
    for (const prefix of prefixes) {
      const test = numberPrefixTest(prefix);
      for (const n of numbers) expect(test(n), `${n} ${prefix}`).toBe(String(n).startsWith(prefix));
    }
  });

  it('folds an items summary as normalizing it whole would, with or without its ellipsis', () => {
    const names = ['Latte', 'Crème Brûlée', 'ΑΣ', 'Σ', 'İstanbul', 'Straße', 'ﬁne', 'é', '가', 'Ǆ'];
    const normalized = (text: string) =>
      text
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '');
    for (const a of names)
      for (const b of names) {
        const summary = itemsSummary([
          { productId: 'p1', name: a, unitPriceCents: 100, qty: 2 },
          { productId: 'p2', name: b, unitPriceCents: 100, qty: 1 },
        ]);
        expect(foldText(summary)).toBe(normalized(summary));
        expect(foldText(`${summary}…`)).toBe(normalized(`${summary}…`));
      }
    expect(foldText('2× Latte, 1× Crème…')).toBe('2× latte, 1× creme…');
  });

  it('drops a search text without a needle: the view is the one without it', () => {
    expect(orderViewKey({ sort: 'createdAt', dir: 'desc', text: ' # ' })).toBe(
      orderViewKey({ sort: 'createdAt', dir: 'desc' }),
    );
    expect(normalizeViewSpec({ sort: 'createdAt', dir: 'desc', text: '#1' }).text).toBe('#1');
  });
});

describe('applyOrderDiffs', () => {
  it('keeps every view and board column equal to a full rebuild under random changes', () => {
    const rng = new Prng(3);
    const all = orders(2000, 3);
    let table = EntityTable.from(all);
    const defs: OrderIndexDef[] = [
      ...ORDER_SORT_KEYS.flatMap((sort) => [
        orderViewDef({ sort, dir: 'asc' }),
        orderViewDef({ sort, dir: 'desc', statuses: ['paid', 'ready'] }),
      ]),
      orderViewDef({ sort: 'customerName', dir: 'asc', text: 'an' }),
      orderViewDef({ sort: 'totalCents', dir: 'desc', assignee: 'u-ben' }),
      ...Object.values(boardDefs(NOW - 24 * 3600_000)),
    ];
    let indexes = defs.map((def) => buildOrderIndex(def, table));
    const ids = all.map((o) => o.id);
    for (let round = 0; round < 25; round++) {
      const draft = table.edit();
      const first = new Map<string, Order | undefined>();
      for (let k = rng.int(1, 150); k > 0; k--) {
        const id = rng.chance(0.05) ? rng.id() : rng.pick(ids);
        const current = draft.get(id);
        if (!first.has(id)) first.set(id, current);
        const roll = rng.next();
        if (current === undefined) {
          draft.set(
            makeOrder(rng, { id, number: rng.int(1, 99999), createdAt: NOW, status: 'paid' }),
          );
          ids.push(id);
        } else if (roll < 0.05) draft.delete(id);
        else if (roll < 0.15) draft.set(cancelOrder(current, NOW));
        else if (roll < 0.25)
          draft.set({
            ...current,
            customerName: rng.pick(['Ana X', 'Zoe', 'Émile']),
            rev: current.rev + 1,
          });
        else draft.set(advanceOrder(rng, current, NOW + round * 1000));
      }
      const next = draft.commit();
      const diffs: OrderDiff[] = [...first].map(([id, before]) => ({
        before,
        after: next.get(id),
      }));
      indexes = indexes.map((index, i) => applyOrderDiffs(index, defs[i]!, diffs));
      table = next;
      indexes.forEach((index, i) =>
        expect(index.toArray()).toEqual(expected(defs[i]!, table.values())),
      );
    }
  }, 60_000);

  it('returns the same index when no change moves an order in it', () => {
    const all = orders(200);
    const table = EntityTable.from(all);
    const def = orderViewDef({ sort: 'createdAt', dir: 'desc' });
    const index = buildOrderIndex(def, table);
    const target = all[0]!;
    const diffs = [{ before: target, after: { ...target, noteCount: 5, rev: target.rev + 1 } }];
    expect(applyOrderDiffs(index, def, diffs)).toBe(index);
  });
});

describe('board', () => {
  it('puts working orders oldest payment first and done orders of the day latest first', () => {
    const rng = new Prng(5);
    const dayStart = NOW - 6 * 3600_000;
    const mk = (
      number: number,
      status: Order['status'],
      paidAt: number,
      fulfilledAt: number | null = null,
    ) => ({
      ...makeOrder(rng, { id: `o${number}`, number, createdAt: paidAt - 1000, status }),
      paidAt,
      fulfilledAt,
    });
    const table = EntityTable.from([
      mk(1, 'paid', NOW - 5000),
      mk(2, 'paid', NOW - 9000),
      mk(3, 'ready', NOW - 1000),
      mk(4, 'fulfilled', NOW - 90000, NOW - 100),
      mk(5, 'fulfilled', NOW - 90000, NOW - 50),
      mk(6, 'fulfilled', NOW - 48 * 3600_000, dayStart - 1),
    ]);
    const defs = boardDefs(dayStart);
    expect(buildOrderIndex(defs.paid, table).toArray()).toEqual(['o2', 'o1']);
    expect(buildOrderIndex(defs.ready, table).toArray()).toEqual(['o3']);
    expect(buildOrderIndex(defs.preparing, table).size).toBe(0);
    expect(buildOrderIndex(defs.done, table).toArray()).toEqual(['o5', 'o4']);
  });
});
