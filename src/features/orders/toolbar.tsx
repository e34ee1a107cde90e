import { memo, useEffect, useRef, useState } from 'react';
import { CHOOSABLE_STATUSES, type OrderStatus } from '../../../domain/order.ts';
import { TextField } from '../../components/field.tsx';
import { StatusChips } from '../../components/status-chips.tsx';
import { formatCount } from '../../lib/format.ts';
import type { TeamMember } from '../../../store/index.ts';
import type { TableQuery } from './table-query.ts';

/** How long (ms) a query's result stays the same before it is announced. */
const ANNOUNCE_AFTER_MS = 600;

/** "1,234 orders", or "12 of 1,234 orders" when filtered. */
function countText(shown: number, total: number): string {
  return shown === total
    ? `${formatCount(total)} orders`
    : `${formatCount(shown)} of ${formatCount(total)} orders`;
}

/**
 * Filters and search of the orders table (every change goes to the URL) and the count of rows.
 * The count changes with every order that arrives, so it is not a live region: a screen reader
 * hears the count once a changed search or filter has its rows (`ready`) and has been still for
 * a moment.
 */
export function Toolbar({
  query,
  onChange,
  members,
  shown,
  total,
  ready,
}: {
  query: TableQuery;
  onChange: (next: TableQuery) => void;
  members: readonly TeamMember[];
  shown: number;
  total: number;
  /** The rows counted are those of `query`. */
  ready: boolean;
}) {
  const count = countText(shown, total);
  const latestCount = useRef(count);
  useEffect(() => {
    latestCount.current = count;
  });
  const announcedFor = useRef(query);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (!ready || announcedFor.current === query) return;
    const timer = setTimeout(() => {
      announcedFor.current = query;
      setAnnouncement(latestCount.current);
    }, ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [query, ready]);

  return (
    <div className="toolbar" role="search">
      <ToolbarControls query={query} onChange={onChange} members={members} />
      <span className="toolbar__count" data-testid="orders-count">
        {count}
      </span>
      <span className="sr-only" role="status" data-testid="orders-count-announcement">
        {announcement}
      </span>
    </div>
  );
}

/** The search and filters: rendered again when the query or the team changes, not the count. */
const ToolbarControls = memo(function ToolbarControls({
  query,
  onChange,
  members,
}: {
  query: TableQuery;
  onChange: (next: TableQuery) => void;
  members: readonly TeamMember[];
}) {
  const [text, setText] = useState(query.q);
  const [urlText, setUrlText] = useState(query.q);
  if (urlText !== query.q) {
    setUrlText(query.q);
    if (text.trim() !== query.q) setText(query.q);
  }
  // Every keystroke searches at once (the URL keeps the text trimmed; the field keeps it as typed).
  const search = (typed: string) => {
    setText(typed);
    if (typed.trim() !== query.q.trim()) onChange({ ...query, q: typed });
  };

  const toggleStatus = (status: OrderStatus) => {
    const has = query.statuses.includes(status);
    onChange({
      ...query,
      statuses: has ? query.statuses.filter((s) => s !== status) : [...query.statuses, status],
    });
  };

  return (
    <>
      <div className="field toolbar__search">
        <label className="field__label" htmlFor="orders-search">
          Search
        </label>
        <input
          id="orders-search"
          className="input"
          type="search"
          placeholder="Number, name or email"
          value={text}
          onChange={(e) => search(e.target.value)}
        />
      </div>
      <StatusChips
        id="status-filter"
        label="Status"
        statuses={CHOOSABLE_STATUSES}
        chosen={query.statuses}
        onToggle={toggleStatus}
      />
      <div className="field">
        <label className="field__label" htmlFor="assignee-filter">
          Assignee
        </label>
        <select
          id="assignee-filter"
          className="select"
          value={query.assignee ?? ''}
          onChange={(e) => onChange({ ...query, assignee: e.target.value || null })}
        >
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="none">Unassigned</option>
          {members.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.name}
            </option>
          ))}
        </select>
      </div>
      <div className="toolbar__dates">
        <TextField
          label="From"
          type="date"
          value={query.from ?? ''}
          onChange={(e) => onChange({ ...query, from: e.target.value || null })}
        />
        <TextField
          label="To"
          type="date"
          value={query.to ?? ''}
          onChange={(e) => onChange({ ...query, to: e.target.value || null })}
        />
      </div>
    </>
  );
});
