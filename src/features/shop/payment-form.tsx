import type { Stripe, StripeElements, StripePaymentElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import type { PendingCheckout } from '../../../store/index.ts';
import { openStripe } from '../../lib/stripe.ts';
import { paymentFormError } from './payment-error.ts';
import { useFocusWithin } from '../../lib/use-focus-within.ts';
import { formatPrice } from '../../lib/format.ts';

/**
 * The card payment of a pending checkout: Stripe's Payment Element (Stripe.js loaded now, not
 * with the page), then `confirmPayment({elements, redirect: 'if_required'})`; 3-D Secure opens
 * when the card asks for it. A failure is shown as Stripe phrases it (a failed 3-D Secure as
 * the product's `PAYMENT_AUTH_FAILED`), once: a card field's error by the Payment Element next to
 * its fields, any other under it (`paymentFormError`); the form stays for another try or another
 * card.
 * Pay is disabled while a payment is in flight, so a double click confirms once.
 */
export function PaymentForm({
  pending,
  onPaid,
}: {
  pending: PendingCheckout & { clientSecret: string };
  onPaid: () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);

  useEffect(() => {
    let closed = false;
    let element: StripePaymentElement | null = null;
    openStripe().then(
      (stripe) => {
        if (closed || !host.current) return;
        const elements = stripe.elements({ clientSecret: pending.clientSecret });
        element = elements.create('payment');
        element.mount(host.current);
        setReady({ stripe, elements });
      },
      (thrown: unknown) => {
        if (!closed) setLoadError(thrown instanceof Error ? thrown.message : String(thrown));
      },
    );
    return () => {
      closed = true;
      element?.destroy();
    };
  }, [pending.clientSecret, attempt]);

  // Pay is disabled while the payment runs: a refusal gives the keyboard back to it.
  const form = useRef<HTMLFormElement>(null);
  useFocusWithin(form);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || inFlight.current) return;
    inFlight.current = true;
    setPaying(true);
    setError(null);
    try {
      const result = await ready.stripe.confirmPayment({
        elements: ready.elements,
        redirect: 'if_required',
        confirmParams: {
          return_url: `${window.location.origin}/track/${encodeURIComponent(pending.orderId)}`,
        },
      });
      if (result.error) setError(paymentFormError(result.error));
      else if (
        result.paymentIntent.status === 'succeeded' ||
        result.paymentIntent.status === 'processing'
      )
        return onPaid();
      else setError('The payment did not go through. Try again.');
    } catch (thrown) {
      setError(thrown instanceof Error ? thrown.message : String(thrown));
    } finally {
      inFlight.current = false;
      setPaying(false);
    }
  };

  return (
    <form
      ref={form}
      className="pay"
      onSubmit={(event) => void pay(event)}
      aria-label="Card payment"
      noValidate
    >
      <p className="pay__summary">
        Order {pending.number !== null ? `#${pending.number}` : ''} ·{' '}
        <strong>
          {pending.amountCents !== null && pending.currency
            ? formatPrice(pending.amountCents, pending.currency)
            : ''}
        </strong>
      </p>
      <div ref={host} className="pay__element" data-testid="payment-element" />
      {!ready && !loadError && <p className="muted">Loading the card form…</p>}
      {loadError && (
        <div className="alert alert--error" role="alert">
          <span style={{ flex: 1 }}>{loadError}</span>
          <Button
            size="sm"
            onClick={() => {
              setLoadError(null);
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </Button>
        </div>
      )}
      {error && (
        <div className="alert alert--error" role="alert" data-testid="payment-error">
          {error}
        </div>
      )}
      <Button type="submit" variant="primary" busy={paying} disabled={!ready}>
        Pay{' '}
        {pending.amountCents !== null && pending.currency
          ? formatPrice(pending.amountCents, pending.currency)
          : ''}
      </Button>
    </form>
  );
}
