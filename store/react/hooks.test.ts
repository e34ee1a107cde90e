// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DocumentMeta } from '../../domain/schema.ts';
import { createDeskStore } from '../create-store.ts';
import {
  DeskStoreProvider,
  useBoardColumn,
  useConnection,
  useMetrics,
  useNotes,
  useOrder,
  useOrderDetail,
  useOrderTableRows,
  useViewers,
} from './hooks.ts';
import { createHarness } from '../sync/testing/harness.ts';
import { Prng } from '../sync/testing/prng.ts';
import { makeOrder, orderDocument } from '../sync/testing/orders.ts';

const NOW = Date.UTC(2026, 2, 10, 12);
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('hooks', () => {
  it('read the store of the provider', () => {
    const store = createDeskStore({ now: () => NOW });
    const rng = new Prng(1);
    store.getState().loadSnapshot({
      orders: [
        makeOrder(rng, { id: 'a', number: 7, createdAt: NOW - 1000, status: 'paid' }),
        makeOrder(rng, { id: 'b', number: 8, createdAt: NOW - 500, status: 'ready' }),
      ],
    });
    function Probe() {
      const order = useOrder('a');
      const paid = useBoardColumn('paid');
      const metrics = useMetrics();
      const connection = useConnection();
      const rows = useOrderTableRows({ sort: 'createdAt', dir: 'desc' });
      return createElement(
        'p',
        null,
        `#${order?.number} paid:${paid.size} inProgress:${metrics.inProgress} ${connection.status} rows:${rows.slice().join(',')}`,
      );
    }
    const container = document.createElement('div');
    const root = createRoot(container);
    act(() => root.render(createElement(DeskStoreProvider, { store }, createElement(Probe))));
    expect(container.innerHTML).toBe('<p>#7 paid:1 inProgress:2 connecting rows:b,a</p>');
    act(() =>
      store.getState().applyRemote([
        {
          collection: 'orders',
          kind: 'upsert',
          record: { ...store.getState().orders.get('a')!, number: 70, rev: 99 },
        },
      ]),
    );
    expect(container.innerHTML).toBe('<p>#70 paid:1 inProgress:2 connecting rows:b,a</p>');
    act(() => root.unmount());
    expect(Object.values(store.getState().orderViews).every((view) => view.refs <= 1)).toBe(true);
  });

  it('need a provider', () => {
    function Orphan() {
      useOrder('a');
      return null;
    }
    expect(() => renderToString(createElement(Orphan))).toThrow(/DeskStoreProvider/);
  });
});

describe('hooks of a drawer', () => {
  it('load the order’s detail while mounted and show it: loading, then the whole order, its notes and viewers', async () => {
    const h = createHarness();
    h.server.seed('orders', [
      orderDocument(
        makeOrder(h.rng, { id: 'o1', number: 7, createdAt: h.clock.now - 60_000, status: 'paid' }),
      ),
    ]);
    h.server.seed('notes', [
      {
        $id: 'n1',
        $createdAt: new Date(h.clock.now - 1000).toISOString(),
        $updatedAt: new Date(h.clock.now - 1000).toISOString(),
        orderId: 'o1',
        authorId: 'u-ben',
        authorName: 'Ben',
        body: 'Oat milk',
        deleted: false,
      } as DocumentMeta,
    ]);
    h.server.seed('presence', [
      {
        $id: 'p-ben',
        $createdAt: new Date(h.clock.now).toISOString(),
        $updatedAt: new Date(h.clock.now).toISOString(),
        userId: 'u-ben',
        status: 'viewing',
        metadata: { orderId: 'o1', name: 'Ben' },
      } as DocumentMeta,
    ]);
    await h.startLive();
    function Drawer() {
      const detail = useOrderDetail('o1');
      const notes = useNotes('o1');
      const viewers = useViewers('o1');
      return createElement(
        'p',
        null,
        `${detail.status === 'ready' ? `#${detail.order.number} whole` : detail.status} notes:${notes === null ? 'loading' : notes.items.map((n) => n.body).join(',')} viewers:${viewers.map((v) => v.name).join(',')}`,
      );
    }
    const container = document.createElement('div');
    const root = createRoot(container);
    act(() =>
      root.render(createElement(DeskStoreProvider, { store: h.store }, createElement(Drawer))),
    );
    // The snapshot holds a list copy: the whole order is read first.
    expect(container.innerHTML).toBe('<p>loading notes:loading viewers:Ben</p>');
    await act(() => h.drain());
    expect(container.innerHTML).toBe('<p>#7 whole notes:Oat milk viewers:Ben</p>');
    act(() => root.unmount());
    expect(h.store.getState().details.o1).toBeUndefined();
  });
});
