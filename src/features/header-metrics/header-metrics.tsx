import { ConnectionBadge, type ConnectionView } from '../../components/connection-badge.tsx';
import { Sparkline } from '../../components/sparkline.tsx';
import { formatMoney } from '../../../domain/money.ts';
import { formatAge, formatCount, formatDuration } from '../../lib/format.ts';
import {
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

/** Today's revenue, orders, work in progress, median paid→ready, orders/min, connection. */
export function HeaderMetrics() {
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
        value={ready ? formatMoney(metrics.revenueCents, metrics.currency ?? 'eur') : '—'}
        wide
      />
      <Metric label="Orders today" value={ready ? formatCount(metrics.ordersToday) : '—'} />
      <Metric label="In progress" value={ready ? formatCount(metrics.inProgress) : '—'} />
      <Metric
        label="Paid → ready"
        value={ready ? formatDuration(metrics.medianPaidToReadyMs) : '—'}
        optional
      />
      <div className="metric metric--spark metric--optional">
        <Sparkline
          values={metrics.perMinute}
          label={`Orders per minute, last hour; ${lastMinute} this minute`}
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
}

function Metric({
  label,
  value,
  optional,
  wide,
}: {
  label: string;
  value: string;
  optional?: boolean;
  wide?: boolean;
}) {
  return (
    <div className={`metric${optional ? ' metric--optional' : ''}${wide ? ' metric--wide' : ''}`}>
      <span className="metric__label">{label}</span>
      <span className="metric__value">{value}</span>
    </div>
  );
}
