import { useCallback, useEffect } from 'react';
import { List, type RowComponentProps } from 'react-window';
import { benchTableRendered } from '../../lib/bench.ts';
import { useNow } from '../../lib/use-now.ts';
import type { FirstScreen } from '../../../store/index.ts';
import { COLUMNS } from './columns.ts';
import { OrderRow } from './order-row.tsx';
import { ROW_HEIGHT } from './orders-table.tsx';
import { formatTableQuery, type TableQuery } from './table-query.ts';
import { TableHead } from './table-head.tsx';

type RowProps = {
  orders: FirstScreen['orders'];
  now: number;
  onOpen: (id: string, index: number) => void;
};

function Row({ index, style, orders, now, onOpen }: RowComponentProps<RowProps>) {
  const order = orders[index];
  if (order)
    return (
      <OrderRow
        order={order}
        index={index}
        style={style}
        active={false}
        now={now}
        onOpen={onOpen}
      />
    );
  return (
    <div style={style} className="trow trow--skeleton" role="row" aria-rowindex={index + 2}>
      {COLUMNS.map((column) => (
        <div
          key={column.key}
          className={column.className ? `td ${column.className}` : 'td'}
          role="cell"
        >
          <span />
        </div>
      ))}
    </div>
  );
}

/**
 * A returning visit's orders table painted from the first screen kept with the persisted
 * snapshot (`store/sync/first-screen.ts`), while the snapshot itself is read and decoded: the
 * rows of the last visit's view as they were then (the header says "Resyncing"), its row count,
 * and placeholder rows past the first screen, with "Loading…" in its corner. Another sort or
 * filter is not made from it: the page shows the loading state until every order is there.
 */
export function FirstScreenTable({
  screen,
  query,
  onQuery,
  onOpen,
}: {
  screen: FirstScreen;
  query: TableQuery;
  onQuery: (next: TableQuery) => void;
  onOpen: (id: string) => void;
}) {
  const now = useNow();
  const open = useCallback((id: string) => onOpen(id), [onOpen]);
  useEffect(() => benchTableRendered(screen.rows), [screen.rows]);
  return (
    <div
      className="table"
      role="table"
      aria-label="Orders"
      aria-rowcount={screen.rows + 1}
      aria-busy="true"
      data-testid="orders-table"
      data-row-count={screen.rows}
      data-query={formatTableQuery(query)}
      data-first-screen="true"
    >
      <TableHead query={query} onQuery={onQuery} />
      <span className="table__pending" role="status" data-testid="table-pending">
        Loading…
      </span>
      <List
        className="table__body"
        rowComponent={Row}
        rowCount={screen.rows}
        rowHeight={ROW_HEIGHT}
        rowProps={{ orders: screen.orders, now, onOpen: open }}
        overscanCount={2}
        tabIndex={0}
        aria-label="Order rows"
        role="rowgroup"
      />
    </div>
  );
}
