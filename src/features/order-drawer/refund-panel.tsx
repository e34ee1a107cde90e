import { useId, useState } from 'react';
import { Button } from '../../components/button.tsx';
import type { Activity } from '../../../domain/entities.ts';
import { AppError } from '../../../domain/errors.ts';
import { decideRefund, type Actor } from '../../../domain/order-machine.ts';
import type { Order } from '../../../domain/order.ts';
import { refundableCents } from '../../../domain/payment.ts';
import { useDeskActions, useRunning } from '../../../store/index.ts';
import { formatClock, formatPrice } from '../../lib/format.ts';
import { parseRefundAmount, refundInput, refundsOf } from './refund.ts';

/**
 * The refund control of the drawer (managers and owners, on a card-paid order with money left):
 * an amount (all that is left to start with), then a confirmation step naming the amount; the
 * refund goes through the store (`refundOrder`), and a refusal shows above the actions like any
 * other. Nothing is shown to whom `decideRefund` refuses (staff, unpaid orders, nothing left).
 */
export function RefundControl({
  order,
  actor,
  disabled,
}: {
  order: Order;
  actor: Actor;
  disabled: boolean;
}) {
  const { refundOrder } = useDeskActions();
  const running = useRunning(`order:${order.id}`);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [confirming, setConfirming] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  if (decideRefund(order, { expectedRev: order.rev }, actor) instanceof AppError) return null;

  if (!open)
    return (
      <Button
        variant="secondary"
        disabled={disabled || running !== null}
        onClick={() => {
          setText(refundInput(order));
          setProblem(null);
          setOpen(true);
        }}
      >
        Refund…
      </Button>
    );

  const close = () => {
    setOpen(false);
    setConfirming(null);
  };

  if (confirming !== null) {
    const full = confirming >= refundableCents(order);
    return (
      <div className="alert alert--error refund" role="alertdialog" aria-label="Confirm refund">
        <span style={{ flex: 1 }}>
          Refund {formatPrice(confirming, order.currency)} to {order.customerName}’s card
          {full ? ' (all that is left)' : ''}? This can’t be undone.
        </span>
        <Button
          size="sm"
          variant="danger"
          busy={running === 'refund'}
          disabled={disabled}
          onClick={async () => {
            const result = await refundOrder(order.id, confirming);
            if (result.ok) close();
            else setConfirming(null);
          }}
        >
          Yes, refund
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
          Back
        </Button>
      </div>
    );
  }

  return (
    <form
      className="refund"
      aria-label="Refund"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const amount = parseRefundAmount(text, order);
        if (!amount.ok) return setProblem(amount.message);
        setProblem(null);
        setConfirming(amount.cents);
      }}
    >
      <label htmlFor={id} className="field__label">
        Amount to refund (up to {formatPrice(refundableCents(order), order.currency)})
      </label>
      <div className="refund__row">
        <input
          id={id}
          className="input refund__input"
          inputMode="decimal"
          autoFocus
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
        />
        <Button type="submit" size="sm" variant="primary" disabled={disabled}>
          Continue
        </Button>
        <Button size="sm" variant="ghost" onClick={close}>
          Don’t refund
        </Button>
      </div>
      {problem && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The refunds made on an order (amount, who, when), from its timeline. */
export function RefundList({ order, activity }: { order: Order; activity: readonly Activity[] }) {
  const refunds = refundsOf(activity);
  if (refunds.length === 0) return null;
  return (
    <ul className="refund-list" data-testid="refunds" aria-label="Refunds">
      {refunds.map((refund) => (
        <li key={refund.id}>
          {formatPrice(refund.amountCents, order.currency)} refunded
          {refund.cancel ? ' on cancel' : ''}
          {refund.by ? ` by ${refund.by}` : ''} · {formatClock(refund.at)}
        </li>
      ))}
    </ul>
  );
}
