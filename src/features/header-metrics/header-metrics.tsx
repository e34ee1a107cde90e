import { memo } from 'react';
import { ConnectionBadge, type ConnectionView } from '../../components/connection-badge.tsx';
import { Sparkline } from '../../components/sparkline.tsx';
import { formatAge, formatCount, formatDuration, formatPrice } from '../../lib/format.ts';
import {
  RATE_WINDOW_MINUTES,
  secondsUntilRetry,
  useConnection,
  useLoadState,
  useMetrics,
  type ConnectionState,
} from '../../../store/index.ts';
import { useNow } from '../../lib/use-now.ts';

/** The connection as the badge shows it, with the retry countdown in whole seconds. */
export function connectionView(connection: ConnectionState, now: number): ConnectionView {
  if (connection.status === 'reconnecting')
    return { state: 'reconnecting', retryInSeconds: secondsUntilRetry(connection, now) };
  return { state: connection.status };
}

/**
 * Today's revenue, refunds, orders, work in progress, median paid→ready, orders/min, connection.
 * The boxes never shrink under their text: where the header is narrow, the less important ones
 * are left out (their `drop` order), so labels never run into each other.
 */
export const HeaderMetrics = memo(function HeaderMetrics() {
  const metrics = useMetrics();
  const connection = useConnection();
  const load = useLoadState();
  const now = useNow();
  const ready = load.status === 'ready';
  const lastMinute = metrics.perMinute.at(-1) ?? 0;
  return (
    <div className="metrics" aria-label="Today">
      <Metric
        label="Revenue today"
        value={ready ? formatPrice(metrics.revenueCents, metrics.currency ?? 'eur') : '—'}
        wide
        drop={6}
      />
      <Metric
        label="Refunded"
        value={ready ? formatPrice(metrics.refundedCents, metrics.currency ?? 'eur') : '—'}
        drop={3}
      />
      <Metric
        label="Orders today"
        value={ready ? formatCount(metrics.ordersToday) : '—'}
        drop={5}
      />
      <Metric label="In progress" value={ready ? formatCount(metrics.inProgress) : '—'} drop={4} />
      <Metric
        label="Paid → ready"
        value={ready ? formatDuration(metrics.medianPaidToReadyMs) : '—'}
        drop={2}
      />
      <div className="metric metric--spark metric--drop-1">
        <Sparkline
          values={metrics.perMinute}
          label={`Orders per minute, last ${RATE_WINDOW_MINUTES} minutes; ${lastMinute} this minute`}
        />
        <div className="metric">
          <span className="metric__label">Per min</span>
          <span className="metric__value">{ready ? lastMinute : '—'}</span>
        </div>
      </div>
      <ConnectionBadge
        view={connectionView(connection, now)}
        lastEvent={connection.lastEventAt ? formatAge(connection.lastEventAt, now) : null}
      />
    </div>
  );
});

/**
 * One metric box. `drop`: when the header is too narrow for every metric, the boxes go in this
 * order (1 first; see `.metrics` in styles.css); the connection badge always shows.
 */
function Metric({
  label,
  value,
  drop,
  wide,
}: {
  label: string;
  value: string;
  drop?: 1 | 2 | 3 | 4 | 5 | 6;
  wide?: boolean;
}) {
  return (
    <div className={`metric${drop ? ` metric--drop-${drop}` : ''}${wide ? ' metric--wide' : ''}`}>
      <span className="metric__label">{label}</span>
      <span className="metric__value">{value}</span>
    </div>
  );
}
