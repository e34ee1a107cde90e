import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useMemo,
  useState,
  type KeyboardEvent,
} from 'react';
import { createPortal } from 'react-dom';
import { List, useListRef, type RowComponentProps } from 'react-window';
import { EmptyState } from '../../components/states.tsx';
import { benchTableRendered } from '../../lib/bench.ts';
import { formatCount } from '../../lib/format.ts';
import {
  browserSlices,
  useOrders,
  type EntityTable,
  type SortedIndex,
} from '../../../store/index.ts';
import type { Order } from '../../../domain/order.ts';
import { useNow } from '../../lib/use-now.ts';
import { activeIndex, moveActive, type RowKey } from './active-row.ts';
import { OrderRow } from './order-row.tsx';
import { RowSlotElements, RowSlots, type RowIds } from './row-slots.ts';
import { RowStream } from './row-stream.ts';
import { formatTableQuery, type TableQuery } from './table-query.ts';
import { TableHead } from './table-head.tsx';

/** Row height in px (matches `--row-h`). */
export const ROW_HEIGHT = 36;

function scrollByRows(element: HTMLElement, rows: number): void {
  element.scrollTop += rows * ROW_HEIGHT;
}

/**
 * How far the row `anchor` (at `index` in `before`) moved in `after`: looked for where orders
 * added at the top would put it, else searched for (0 when it is gone).
 */
function shiftOf(anchor: string, index: number, before: SortedIndex, after: SortedIndex): number {
  const added = after.size - before.size;
  for (let shift = 0; shift <= added; shift++) if (after.at(index + shift) === anchor) return shift;
  const now = after.toArray().indexOf(anchor);
  return now < 0 ? 0 : now - index;
}

/** The table's row slots: their keys and their elements. */
type Slots = { keys: RowSlots; elements: RowSlotElements };

type RowProps = {
  ids: RowIds;
  orders: EntityTable<Order>;
  activeId: string | null;
  now: number;
  onOpen: (id: string, index: number) => void;
  slots: Slots;
};

/** The element id of the row in `slot` (the rows' order on screen is given with `aria-owns`). */
const slotRowId = (slot: number) => `orders-row-${slot}`;

/** A row, rendered into its slot's element (see {@link RowSlots}). */
function Row({
  index,
  style,
  ids,
  orders,
  activeId,
  now,
  onOpen,
  slots,
}: RowComponentProps<RowProps>) {
  const id = ids.at(index)!;
  const slot = slots.keys.slotAt(index)!;
  return createPortal(
    <OrderRow
      order={orders.get(id)}
      index={index}
      rowId={slotRowId(slot)}
      style={style}
      active={id === activeId}
      now={now}
      onOpen={onOpen}
    />,
    slots.elements.element(slot),
  );
}

/** Gives the rows' element ids in their order on screen to the list (`aria-owns`), if changed. */
function ownRows(list: HTMLElement | null | undefined, slots: RowSlots): void {
  const owns = slots.inOrder().map(slotRowId).join(' ');
  if (list && list.getAttribute('aria-owns') !== owns) list.setAttribute('aria-owns', owns);
}

/**
 * The virtualized orders table: sortable headers, rows that flash on change, keyboard
 * navigation (↑/↓, Home/End, PgUp/PgDn, Enter opens), and a "N new orders" pill when rows
 * arrive above a reader scrolled away from the top (the view stays where it is meanwhile).
 */
export function OrdersTable({
  ids,
  query,
  onQuery,
  onOpen,
  filtered,
  pending = null,
  busy = false,
}: {
  ids: SortedIndex;
  query: TableQuery;
  onQuery: (next: TableQuery) => void;
  onOpen: (id: string) => void;
  filtered: boolean;
  /** The asked view is still being made: `ids` are the previous rows meanwhile. */
  pending?: 'sorting' | 'filtering' | null;
  /** The rows are not yet those of `query` (`aria-busy`; `data-query` names the query asked). */
  busy?: boolean;
}) {
  const orders = useOrders();
  const listRef = useListRef(null);
  const now = useNow();
  // The highlighted row is an order, not a position: orders arriving above it leave it in place.
  const [activeId, setActiveId] = useState<string | null>(null);
  const lastIndex = useRef(-1);
  const [newCount, setNewCount] = useState(0);
  const shownQuery = useRef(query);
  const previousIds = useRef(ids);

  // Another sort or filter starts again from the top (its rows may come a flush later).
  useLayoutEffect(() => {
    if (shownQuery.current === query) return;
    shownQuery.current = query;
    listRef.current?.element?.scrollTo({ top: 0 });
    setNewCount(0);
    setActiveId(null);
  }, [query, listRef]);

  // Rows inserted above the first visible row: keep the view steady and count them for the pill.
  // (A layout effect: the view is moved back before the browser paints it moved.)
  useLayoutEffect(() => {
    const before = previousIds.current;
    previousIds.current = ids;
    const scroller = listRef.current?.element;
    if (before === ids || !scroller || scroller.scrollTop === 0) return;
    const index = Math.floor(scroller.scrollTop / ROW_HEIGHT);
    const anchor = before.at(index);
    if (anchor === undefined) return;
    const shift = shiftOf(anchor, index, before, ids);
    if (shift <= 0) return;
    scrollByRows(scroller, shift);
    setNewCount((n) => n + shift);
  }, [ids, listRef]);

  // Slots: a row coming in is written into the slot of one gone, none is moved in the page.
  const [slots] = useState<Slots>(() => ({
    keys: new RowSlots(),
    elements: new RowSlotElements(),
  }));
  const rowKey = useCallback(
    (index: number, props: RowProps) => slots.keys.keyOf(index, props.ids, props),
    [slots],
  );
  const slotHost = useCallback((host: HTMLElement | null) => slots.elements.host(host), [slots]);
  useLayoutEffect(() => ownRows(listRef.current?.element, slots.keys));

  // Most of the rows new at once (a sort, a filter, a search): half of them in this frame, the
  // rest in the next one (the table is busy meanwhile), so that one frame does not lay out and
  // paint every row's new text.
  const [stream] = useState(() => new RowStream(slots.keys));
  const [slices] = useState(browserSlices);
  // The list whose rows are all rendered now (a release for an older list is ignored).
  const [released, setReleased] = useState<SortedIndex | null>(null);
  const streamed = useMemo(
    () =>
      stream.rowsFor(
        ids,
        (id) => orders.get(id) !== undefined,
        busy ? null : query,
        released === ids,
      ),
    [stream, ids, released, orders, busy, query],
  );
  useLayoutEffect(() => stream.shown(streamed), [stream, streamed]);
  useEffect(() => {
    if (streamed.heldBack > 0) slices.afterFrame?.(() => setReleased(ids));
  }, [slices, streamed, ids]);

  const onRowsRendered = useCallback(
    (
      visible: { startIndex: number; stopIndex: number },
      all: { startIndex: number; stopIndex: number },
    ) => {
      stream.rendered(all.startIndex, all.stopIndex);
      ownRows(listRef.current?.element, slots.keys);
      if (visible.startIndex === 0) setNewCount(0);
    },
    [listRef, slots, stream],
  );

  const open = useCallback(
    (id: string, index: number) => {
      setActiveId(id);
      lastIndex.current = index;
      onOpen(id);
    },
    [onOpen],
  );

  const move = (key: RowKey, page: number) => {
    const next = moveActive(ids, activeId, key, page, lastIndex.current);
    if (!next) return;
    setActiveId(next.id);
    lastIndex.current = next.index;
    listRef.current?.scrollToRow({ index: next.index, align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(
      1,
      Math.floor((listRef.current?.element?.clientHeight ?? 360) / ROW_HEIGHT) - 1,
    );
    const keys: Record<string, () => void> = {
      ArrowDown: () => move('ArrowDown', page),
      ArrowUp: () => move('ArrowUp', page),
      PageDown: () => move('PageDown', page),
      PageUp: () => move('PageUp', page),
      Home: () => move('Home', page),
      End: () => move('End', page),
      Enter: () => {
        const index = activeIndex(ids, activeId, lastIndex.current);
        if (index >= 0) onOpen(activeId!);
      },
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  // One object while the rows' data is the same: react-window recomputes its row bounds and
  // reads the scroll position (a forced layout) whenever it changes.
  const rowProps = useMemo(
    () => ({ ids: streamed.rows, orders, activeId, now, onOpen: open, slots }),
    [streamed.rows, orders, activeId, now, open, slots],
  );
  useEffect(() => benchTableRendered(ids.size), [ids.size]);
  const queryText = useMemo(() => formatTableQuery(query), [query]);

  return (
    <div
      className="table"
      role="table"
      aria-label="Orders"
      aria-rowcount={ids.size + 1}
      data-testid="orders-table"
      data-row-count={ids.size}
      data-query={queryText}
      aria-busy={busy || streamed.heldBack > 0}
    >
      <TableHead query={query} onQuery={onQuery} />
      {pending !== null && (
        <span className="table__pending" role="status" data-testid="table-pending">
          {pending === 'sorting' ? 'Sorting…' : 'Filtering…'}
        </span>
      )}
      {newCount > 0 && (
        <button
          type="button"
          className="pill"
          data-testid="new-orders-pill"
          onClick={() => {
            listRef.current?.scrollToRow({ index: 0, align: 'start' });
            setNewCount(0);
          }}
        >
          ↑ {formatCount(newCount)} new {newCount === 1 ? 'order' : 'orders'}
        </button>
      )}
      {ids.size === 0 ? (
        <div className="table__empty">
          <EmptyState title={filtered ? 'No orders match these filters' : 'No orders yet'}>
            {filtered
              ? 'Clear a filter or change the search.'
              : 'Orders appear here the moment they are paid.'}
          </EmptyState>
        </div>
      ) : (
        <List
          className="table__body"
          listRef={listRef}
          rowComponent={Row}
          rowCount={ids.size}
          rowHeight={ROW_HEIGHT}
          rowProps={rowProps}
          rowKey={rowKey}
          overscanCount={2}
          onRowsRendered={onRowsRendered}
          tabIndex={0}
          onKeyDown={onKeyDown}
          aria-label="Order rows — use the arrow keys to move and Enter to open"
          role="rowgroup"
        >
          <div ref={slotHost} className="trow-slots" />
        </List>
      )}
    </div>
  );
}
