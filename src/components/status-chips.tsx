import type { ReactNode } from 'react';
import type { OrderStatus } from '../../domain/order.ts';
import { statusLabel } from './status-badge.tsx';

/** A labelled group of toggle chips, one per status; a pressed chip is a chosen status. */
export function StatusChips({
  id,
  label,
  statuses,
  chosen,
  onToggle,
}: {
  id: string;
  label: ReactNode;
  statuses: readonly OrderStatus[];
  chosen: readonly OrderStatus[];
  onToggle: (status: OrderStatus) => void;
}) {
  return (
    <div className="field">
      <span className="field__label" id={id}>
        {label}
      </span>
      <div className="statuses" role="group" aria-labelledby={id}>
        {statuses.map((status) => (
          <button
            key={status}
            type="button"
            className="chip"
            aria-pressed={chosen.includes(status)}
            onClick={() => onToggle(status)}
          >
            {statusLabel(status)}
          </button>
        ))}
      </div>
    </div>
  );
}
