/** What the header shows about the realtime connection. */
export type ConnectionView =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; retryInSeconds: number | null }
  | { state: 'resyncing' }
  | { state: 'offline' };

/** The label of a connection state, e.g. `Reconnecting in 4s`. */
export function connectionLabel(view: ConnectionView): string {
  switch (view.state) {
    case 'connecting':
      return 'Connecting';
    case 'live':
      return 'Live';
    case 'reconnecting':
      return view.retryInSeconds !== null && view.retryInSeconds > 0
        ? `Reconnecting in ${view.retryInSeconds}s`
        : 'Reconnecting';
    case 'resyncing':
      return 'Resyncing';
    case 'offline':
      return 'Offline';
  }
}

/** A dot and label for the connection, with the age of the last event. */
export function ConnectionBadge({
  view,
  lastEvent,
}: {
  view: ConnectionView;
  lastEvent: string | null;
}) {
  return (
    <div
      className={`conn conn--${view.state}`}
      role="status"
      aria-live="polite"
      data-testid="connection"
      data-state={view.state}
    >
      <span className="conn__dot" aria-hidden="true" />
      <span className="conn__label">{connectionLabel(view)}</span>
      {lastEvent && <span className="conn__age">last event {lastEvent}</span>}
    </div>
  );
}
