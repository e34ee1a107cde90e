import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { EntityTable } from '../records/entity-table.ts';
import { advanceOrder, makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import {
  buildOrderIndex,
  ORDER_SORT_KEYS,
  orderViewDef,
  sortValueOf,
  type OrderViewSpec,
} from './order-views.ts';
import { compareEntries } from './sorted-index.ts';
import {
  buildSortColumn,
  narrowestSource,
  rebuildSortColumns,
  viewCovers,
  selectFromIndex,
  catchUpSortColumn,
  misplacedSlot,
  catchUpSortColumns,
  type SortColumns,
} from './sort-columns.ts';

const NOW = Date.UTC(2026, 2, 10, 12);

function orders(count: number, seed = 3): Order[] {
  const rng = new Prng(seed);
  return Array.from({ length: count }, (_, i) =>
    makeOrder(rng, {
      number: 1000 + (i % 50 === 0 ? 7 : i),
      createdAt: NOW - rng.int(0, 3) * 60_000,
      status: rng.pick(['paid', 'preparing', 'ready', 'fulfilled', 'canceled'] as const),
    }),
  );
}

describe('sort columns', () => {
  it('give every view, in either direction and with any filter, the rows a full sort gives', () => {
    const table = EntityTable.from(orders(2600));
    const specs: OrderViewSpec[] = [];
    for (const sort of ORDER_SORT_KEYS)
      for (const dir of ['asc', 'desc'] as const) {
        specs.push({ sort, dir });
        specs.push({ sort, dir, statuses: ['paid', 'ready'], text: 'a' });
        specs.push({ sort, dir, statuses: ['fulfilled'] });
        specs.push({ sort, dir, statuses: ['preparing', 'canceled'], assignee: 'u-ben' });
        specs.push({ sort, dir, assignee: 'none', createdFrom: NOW - 120_000 });
      }
    for (const spec of specs) {
      const column = buildSortColumn(spec.sort, table);
      const def = orderViewDef(spec);
      const full = buildOrderIndex(def, table).toArray();
      expect(selectFromIndex(column, def, table).toArray(), JSON.stringify(spec)).toEqual(full);
      // Without a filter, the pointers are copied (nulls moved after the rest when descending).
      if (Object.keys(spec).length === 2)
        expect(selectFromIndex(column, def, table, true).toArray(), JSON.stringify(spec)).toEqual(
          full,
        );
    }
  });

  it('are caught up with the changes since their version like a rebuild', () => {
    const rng = new Prng(9);
    const all = orders(400);
    const table = EntityTable.from(all);
    // rebuilt per key over the table: the stale index given for assigneeName is not kept
    const columns = rebuildSortColumns(
      {
        items: { index: buildSortColumn('items', table), at: table },
        assigneeName: { index: buildSortColumn('number', table), at: table },
      },
      table,
    );
    const next = [...all];
    const draft = table.edit();
    for (let i = 0; i < 60; i++) {
      const at = rng.int(0, next.length - 1);
      next[at] = advanceOrder(rng, next[at]!, NOW);
      draft.set(next[at]);
    }
    draft.delete(next.pop()!.id);
    const nextTable = draft.commit();
    for (const key of ['items', 'assigneeName'] as const) {
      const caught = catchUpSortColumn(columns[key]!, key, nextTable)!;
      expect(caught.at).toBe(nextTable);
      expect(caught.index.toArray()).toEqual(buildSortColumn(key, nextTable).toArray());
      expect(misplacedSlot(caught)).toBeNull();
      expect(catchUpSortColumn(caught, key, nextTable)).toBe(caught);
      // Another table of the same orders (a snapshot loaded): not a later version, build again.
      expect(catchUpSortColumn(caught, key, EntityTable.from(next))).toBeNull();
    }
  });

  it('are caught up together, each from its own version of the orders', () => {
    const t1 = EntityTable.from(orders(50));
    const d2 = t1.edit();
    d2.delete(t1.toArray()[0]!.id);
    const t2 = d2.commit();
    const d3 = t2.edit();
    d3.delete(t2.toArray()[0]!.id);
    const t3 = d3.commit();
    const columns: SortColumns = {
      items: { index: buildSortColumn('items', t2), at: t2 },
      number: { index: buildSortColumn('number', t1), at: t1 },
      status: { index: buildSortColumn('status', t3), at: t3 },
      totalCents: { index: buildSortColumn('totalCents', t1), at: EntityTable.from(orders(5)) },
    };
    const caught = catchUpSortColumns(columns, t3);
    expect(Object.keys(caught).sort()).toEqual(['items', 'number', 'status']);
    expect(caught.status).toBe(columns.status);
    for (const key of ['items', 'number'] as const) {
      expect(caught[key]!.at).toBe(t3);
      expect(caught[key]!.index.toArray()).toEqual(buildSortColumn(key, t3).toArray());
    }
    expect(catchUpSortColumns(caught, t3)).toBe(caught);
  });

  it('equal a stable sort of the orders by key, number and id, built and after changes', () => {
    const rng = new Prng(17);
    // Repeated numbers (ties broken by id), repeated and missing keys, names with accents.
    const all = orders(3000, 5).map((o) =>
      rng.chance(0.3)
        ? { ...o, customerName: rng.pick(['Émile', 'emile', 'Zoë', 'Ana']), number: rng.int(1, 40) }
        : o,
    );
    let table = EntityTable.from(all);
    const reference = (key: (typeof ORDER_SORT_KEYS)[number], t: EntityTable<Order>) =>
      t
        .toArray()
        .map((o) => ({ id: o.id, key: sortValueOf(o, key), tie: o.number }))
        .sort((a, b) => compareEntries(a, b, 1))
        .map((e) => e.id);
    let columns = rebuildSortColumns(
      Object.fromEntries(
        ORDER_SORT_KEYS.map((key) => [key, { index: buildSortColumn(key, table), at: table }]),
      ),
      table,
    );
    for (const key of ORDER_SORT_KEYS)
      expect(columns[key]!.index.toArray(), key).toEqual(reference(key, table));
    const ids = all.map((o) => o.id);
    for (let round = 0; round < 10; round++) {
      const draft = table.edit();
      for (let k = 0; k < 80; k++) {
        const roll = rng.next();
        if (roll < 0.1) {
          const created = makeOrder(rng, {
            number: rng.int(1, 5000),
            createdAt: NOW,
            status: 'paid',
          });
          ids.push(created.id);
          draft.set(created);
          continue;
        }
        const id = rng.pick(ids);
        const before = draft.get(id);
        if (before === undefined) continue;
        if (roll < 0.2) {
          draft.delete(id);
          continue;
        }
        const after =
          roll < 0.5
            ? { ...before, customerName: rng.pick(['Ana', 'Zoë', 'Bo']), rev: before.rev + 1 }
            : advanceOrder(rng, before, NOW + round);
        draft.set(after);
      }
      table = draft.commit();
      const next = table;
      columns = Object.fromEntries(
        ORDER_SORT_KEYS.map((key) => [key, catchUpSortColumn(columns[key]!, key, next)!]),
      );
      for (const key of ORDER_SORT_KEYS)
        expect(columns[key]!.index.toArray(), `${key} round ${round}`).toEqual(
          reference(key, table),
        );
    }
  });

  it('narrow a search from the view of the previous keystroke', () => {
    const table = EntityTable.from(orders(300));
    const base: OrderViewSpec = { sort: 'customerName', dir: 'desc', statuses: ['paid'] };
    const column = buildSortColumn('customerName', table);
    const wide = {
      spec: { ...base, text: 'a' },
      index: buildOrderIndex(orderViewDef({ ...base, text: 'a' }), table),
    };
    const unfiltered = { spec: base, index: buildOrderIndex(orderViewDef(base), table) };
    const other = { spec: { ...base, dir: 'asc' as const }, index: column };
    const target: OrderViewSpec = { ...base, text: 'an' };
    const source = narrowestSource(target, [wide, unfiltered, other]);
    expect(source).toBe(wide.index);
    expect(selectFromIndex(source!, orderViewDef(target), table).toArray()).toEqual(
      buildOrderIndex(orderViewDef(target), table).toArray(),
    );
    expect(narrowestSource({ ...base, text: 'b' }, [wide])).toBeNull();
    expect(narrowestSource({ ...base, text: 'b' }, [unfiltered, other])).toBe(unfiltered.index);
    expect(narrowestSource({ ...target, statuses: ['ready'] }, [wide, unfiltered])).toBeNull();
  });

  it('narrow a filter from a wider view, in either direction', () => {
    const base: OrderViewSpec = { sort: 'createdAt', dir: 'desc' };
    expect(
      viewCovers({ ...base, statuses: ['paid', 'ready'] }, { ...base, statuses: ['ready'] }),
    ).toBe(true);
    expect(viewCovers({ ...base, statuses: ['paid'] }, { ...base, statuses: ['ready'] })).toBe(
      false,
    );
    expect(viewCovers({ ...base, statuses: ['paid'] }, base)).toBe(false);
    expect(viewCovers({ ...base, createdFrom: NOW - 60_000 }, { ...base, createdFrom: NOW })).toBe(
      true,
    );
    expect(viewCovers({ ...base, createdTo: NOW }, { ...base, createdTo: NOW + 1 })).toBe(false);
    expect(viewCovers({ ...base, assignee: 'u1' }, { ...base, assignee: 'none' })).toBe(false);
    expect(viewCovers(base, { ...base, dir: 'asc', assignee: 'none' })).toBe(true);
    expect(viewCovers(base, { ...base, sort: 'number' })).toBe(false);
    // A name needle inside a longer one; a number needle only extended at its end.
    expect(viewCovers({ ...base, text: 'an' }, { ...base, text: 'jane' })).toBe(true);
    expect(viewCovers({ ...base, text: '04' }, { ...base, text: '104' })).toBe(false);
    expect(viewCovers({ ...base, text: '#10' }, { ...base, text: '104' })).toBe(true);
  });

  it('give any covered view the rows of a full sort when narrowed from its source', () => {
    const rng = new Prng(21);
    const table = EntityTable.from(orders(500));
    const statusSets = [[], ['paid'], ['paid', 'ready'], ['paid', 'ready', 'fulfilled']] as const;
    const texts = ['', 'a', 'an', 'ana', '10', '100', 'e', 'ex', 'example'];
    const random = (): OrderViewSpec => ({
      sort: rng.pick(['createdAt', 'customerName', 'assigneeName'] as const),
      dir: rng.pick(['asc', 'desc'] as const),
      statuses: [...rng.pick(statusSets)],
      assignee: rng.pick([null, 'none']),
      createdFrom: rng.pick([null, NOW - 2 * 60_000, NOW - 60_000]),
      text: rng.pick(texts),
    });
    const views = Array.from({ length: 60 }, () => {
      const spec = random();
      return { spec, index: buildOrderIndex(orderViewDef(spec), table) };
    });
    let narrowed = 0;
    for (let i = 0; i < 300; i++) {
      const target = random();
      const source = narrowestSource(target, views);
      if (source === null) continue;
      narrowed++;
      expect(
        selectFromIndex(source, orderViewDef(target), table).toArray(),
        JSON.stringify(target),
      ).toEqual(buildOrderIndex(orderViewDef(target), table).toArray());
    }
    expect(narrowed).toBeGreaterThan(50);
  });
});
