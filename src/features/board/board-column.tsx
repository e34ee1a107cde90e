import { useCallback, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { List, useListRef, type RowComponentProps } from 'react-window';
import { EmptyState } from '../../components/states.tsx';
import {
  useBoardColumn,
  type BoardColumn as Column,
  type SortedIndex,
} from '../../../store/index.ts';
import { useNow } from '../../lib/use-now.ts';
import { boardMove, tabbableCard } from './card-keys.ts';
import { OrderCard } from './order-card.tsx';

/** Card height plus the gap below it. */
const CARD_ROW = 104;

type RowProps = { ids: SortedIndex; now: number; tabbable: number | null };

type RowRange = { startIndex: number; stopIndex: number };

function CardRow({
  index,
  style,
  ids,
  now,
  tabbable,
  ariaAttributes,
}: RowComponentProps<RowProps>) {
  return (
    <div style={style} className="card-slot" data-index={index} {...ariaAttributes}>
      <OrderCard id={ids.at(index)!} now={now} tabbable={index === tabbable} />
    </div>
  );
}

/** The card slot an event happened in, if any. */
const slotOf = (event: { target: EventTarget }) =>
  (event.target as HTMLElement).closest<HTMLElement>('.card-slot');

/** Focuses the element `selector` names in `container` once the list has rendered it. */
function focusWhenShown(container: HTMLElement, selector: string, frames = 30): void {
  const element = container.querySelector<HTMLElement>(selector);
  if (element) element.focus();
  else if (frames > 0) requestAnimationFrame(() => focusWhenShown(container, selector, frames - 1));
}

/** Focuses the card nearest `slot`'s height in the column `direction` away (if it has cards). */
function focusBeside(slot: HTMLElement, direction: -1 | 1): void {
  const columns = [...document.querySelectorAll<HTMLElement>('.column')];
  const here = columns.findIndex((column) => column.contains(slot));
  const column = columns[here + direction];
  if (!column) return;
  const top = slot.getBoundingClientRect().top;
  const bounds = column.querySelector('.column__body')?.getBoundingClientRect();
  let best: HTMLElement | null = null;
  let distance = Infinity;
  for (const candidate of column.querySelectorAll<HTMLElement>('.card-slot')) {
    const box = candidate.getBoundingClientRect();
    if (bounds && (box.bottom <= bounds.top || box.top >= bounds.bottom)) continue;
    if (Math.abs(box.top - top) < distance) {
      distance = Math.abs(box.top - top);
      best = candidate;
    }
  }
  best?.querySelector<HTMLElement>('a')?.focus();
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
  // One card of the column is in the Tab order (the others are an arrow key away): the one
  // focused last, or the visible one nearest it.
  const [focused, setFocused] = useState(0);
  const [visible, setVisible] = useState<RowRange | null>(null);
  const tabbable = tabbableCard(focused, visible, ids.size);
  const onRowsRendered = useCallback(
    (rows: RowRange) =>
      setVisible((held) =>
        held?.startIndex === rows.startIndex && held.stopIndex === rows.stopIndex ? held : rows,
      ),
    [],
  );
  // One object while the cards' data is the same (react-window redoes its bounds on a new one).
  const rowProps = useMemo(() => ({ ids, now, tabbable }), [ids, now, tabbable]);
  const headingId = `col-${title.replace(/\W+/g, '-').toLowerCase()}`;
  const listRef = useListRef(null);
  const body = useRef<HTMLDivElement>(null);

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const slot = slotOf(event);
    if (slot) setFocused(Number(slot.dataset.index));
  };
  // The keyboard: ↑/↓ (PgUp/PgDn, Home/End) move between this column's cards, scrolling the
  // one asked for into view first (the list renders only the cards near it); ←/→ go to the
  // card beside this one in the next column.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const slot = slotOf(event);
    if (!slot || !body.current) return;
    const index = Number(slot.dataset.index);
    const page = Math.max(1, Math.floor(body.current.clientHeight / CARD_ROW) - 1);
    const move = boardMove(event.key, index, ids.size, page);
    if (!move) return;
    event.preventDefault();
    if (move.within === 'column') {
      listRef.current?.scrollToRow({ index: move.index, align: 'auto' });
      focusWhenShown(body.current, `.card-slot[data-index="${move.index}"] a`);
    } else focusBeside(slot, move.direction);
  };
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
      <div className="column__body" ref={body} onKeyDown={onKeyDown} onFocus={onFocus}>
        {ids.size === 0 ? (
          <EmptyState title={empty} compact />
        ) : (
          <List
            listRef={listRef}
            rowComponent={CardRow}
            rowCount={ids.size}
            rowHeight={CARD_ROW}
            rowProps={rowProps}
            rowKey={rowKey}
            onRowsRendered={onRowsRendered}
            overscanCount={4}
            role="list"
            aria-labelledby={headingId}
          />
        )}
      </div>
    </section>
  );
}
