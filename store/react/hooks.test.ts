// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createDeskStore } from '../index.ts';
import {
  DeskStoreProvider,
  useBoardColumn,
  useConnection,
  useMetrics,
  useOrder,
  useOrderTableRows,
} from './hooks.ts';
import { Prng } from '../sync/testing/prng.ts';
import { makeOrder } from '../sync/testing/orders.ts';

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
        `#${order?.number} paid:${paid.size} inProgress:${metrics.inProgress} ${connection.status} rows:${rows?.slice().join(',')}`,
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
