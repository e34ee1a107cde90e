import { memo } from 'react';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatCount } from '../../lib/format.ts';
import { useLoadState } from '../../../store/index.ts';
import { BoardColumn } from './board-column.tsx';

/** `/`: Paid · Preparing · Ready · Done today, live. */
export const BoardPage = memo(function BoardPage() {
  const load = useLoadState();
  if (load.status === 'error')
    return (
      <ErrorState
        title="The board didn’t load"
        message={load.error?.message ?? 'Something went wrong.'}
        onRetry={() => location.reload()}
      />
    );
  if (load.status !== 'ready')
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
          column="paid"
          empty="No new orders. New ones appear here."
        />
        <BoardColumn
          title="Preparing"
          color="var(--st-preparing)"
          column="preparing"
          empty="Nothing in preparation."
        />
        <BoardColumn
          title="Ready"
          color="var(--st-ready)"
          column="ready"
          empty="Nothing waiting for pick-up."
        />
        <BoardColumn
          title="Done today"
          color="var(--st-fulfilled)"
          column="done"
          empty="Nothing handed over yet today."
        />
      </div>
    </div>
  );
});
