import { useMemo } from 'react';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatCount } from '../../lib/format.ts';
import { useDesk } from '../desk-data/context.tsx';
import type { OrderListSpec } from '../desk-data/types.ts';
import { startOfDay } from '../header-metrics/compute.ts';
import { useNow } from '../header-metrics/use-now.ts';
import { BoardColumn } from './board-column.tsx';

const PAID: OrderListSpec = { statuses: ['paid'], sort: 'paidAt', dir: 'asc' };
const PREPARING: OrderListSpec = { statuses: ['preparing'], sort: 'paidAt', dir: 'asc' };
const READY: OrderListSpec = { statuses: ['ready'], sort: 'readyAt', dir: 'asc' };

/** `/`: Paid · Preparing · Ready · Done today, live. */
export function BoardPage() {
  const desk = useDesk();
  const load = desk.useLoadState();
  const today = startOfDay(useNow());
  const done = useMemo<OrderListSpec>(
    () => ({ statuses: ['fulfilled'], fulfilledSince: today, sort: 'fulfilledAt', dir: 'desc' }),
    [today],
  );
  if (load.status === 'error')
    return (
      <ErrorState
        title="The board didn’t load"
        message={load.error.message}
        onRetry={() => location.reload()}
      />
    );
  if (load.status === 'loading')
    return (
      <LoadingState
        label={load.loaded ? `Loading orders… ${formatCount(load.loaded)}` : 'Loading orders…'}
      />
    );
  return (
    <div className="page">
      <h1 className="sr-only">Board</h1>
      <div className="board">
        <BoardColumn
          title="Paid"
          color="var(--st-paid)"
          spec={PAID}
          empty="No new orders. New ones appear here."
        />
        <BoardColumn
          title="Preparing"
          color="var(--st-preparing)"
          spec={PREPARING}
          empty="Nothing in preparation."
        />
        <BoardColumn
          title="Ready"
          color="var(--st-ready)"
          spec={READY}
          empty="Nothing waiting for pick-up."
        />
        <BoardColumn
          title="Done today"
          color="var(--st-fulfilled)"
          spec={done}
          empty="Nothing handed over yet today."
        />
      </div>
    </div>
  );
}
