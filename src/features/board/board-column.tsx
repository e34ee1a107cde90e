import { useCallback, useMemo } from 'react';
import { List, type RowComponentProps } from 'react-window';
import { EmptyState } from '../../components/states.tsx';
import {
  useBoardColumn,
  type BoardColumn as Column,
  type SortedIndex,
} from '../../../store/index.ts';
import { useNow } from '../../lib/use-now.ts';
import { OrderCard } from './order-card.tsx';

/** Card height plus the gap below it. */
const CARD_ROW = 104;

type RowProps = { ids: SortedIndex; now: number };

function CardRow({ index, style, ids, now, ariaAttributes }: RowComponentProps<RowProps>) {
  return (
    <div style={style} className="card-slot" {...ariaAttributes}>
      <OrderCard id={ids.at(index)!} now={now} />
    </div>
  );
}

/** One board column: a title with a live count and a virtualized list of cards. */
export function BoardColumn({
  title,
  color,
  column,
  empty,
}: {
  title: string;
  color: string;
  column: Column;
  empty: string;
}) {
  const ids = useBoardColumn(column);
  const now = useNow();
  const rowKey = useCallback((index: number, props: RowProps) => props.ids.at(index)!, []);
  // One object while the cards' data is the same (react-window redoes its bounds on a new one).
  const rowProps = useMemo(() => ({ ids, now }), [ids, now]);
  const headingId = `col-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section
      className="column"
      aria-labelledby={headingId}
      data-testid={`column-${headingId.slice(4)}`}
    >
      <header className="column__head">
        <span className="column__dot" style={{ background: color }} aria-hidden="true" />
        <h2 className="column__title" id={headingId}>
          {title}
        </h2>
        <span
          className="column__count"
          aria-label={`${ids.size} orders`}
          data-testid="column-count"
        >
          {ids.size}
        </span>
      </header>
      <div className="column__body">
        {ids.size === 0 ? (
          <EmptyState title={empty} compact />
        ) : (
          <List
            rowComponent={CardRow}
            rowCount={ids.size}
            rowHeight={CARD_ROW}
            rowProps={rowProps}
            rowKey={rowKey}
            overscanCount={4}
            role="list"
            aria-labelledby={headingId}
          />
        )}
      </div>
    </section>
  );
}
