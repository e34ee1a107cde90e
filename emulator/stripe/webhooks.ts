import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import type { QueuedDelivery, StripeStore } from './store.ts';

/**
 * The `Stripe-Signature` header Stripe sends with a delivery: `t=<unix seconds>,v1=<hex>`, the
 * HMAC-SHA256 of `${t}.${payload}` keyed with the endpoint's signing secret (`whsec_…`).
 */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * Test switches of one webhook endpoint. `duplicates` delivers every event that many times;
 * `delayMs` holds each delivery back (late); `hold` queues deliveries until
 * {@link WebhookDeliverer.flush}, which sends them in `order` (`created`, `reverse`, or
 * `shuffle` with `seed`); `retryBaseMs` and `maxAttempts` bound the retries after a non-2xx
 * answer (delays `retryBaseMs × 2^(attempt−1)`).
 */
export interface WebhookSwitches {
  duplicates: number;
  delayMs: number;
  hold: boolean;
  order: 'created' | 'reverse' | 'shuffle';
  seed: number;
  retryBaseMs: number;
  maxAttempts: number;
}

/** The switches of a new endpoint: one delivery, at once, retried 6 times from 1 s. */
export const DEFAULT_SWITCHES: WebhookSwitches = {
  duplicates: 1,
  delayMs: 0,
  hold: false,
  order: 'created',
  seed: 1,
  retryBaseMs: 1000,
  maxAttempts: 6,
};

/** Where events go: an endpoint's URL, secret, event filter and switches. */
export interface WebhookTarget {
  id: string;
  url: string;
  secret: string;
  enabledEvents: string[];
  switches: WebhookSwitches;
}

/** One attempt to deliver an event, as the double logged it. */
export interface DeliveryAttempt {
  endpoint: string;
  event: string;
  type: string;
  attempt: number;
  /** The HTTP status answered, or 0 when the request failed (refused, timed out). */
  status: number;
  at: number;
}

/** How long one delivery may take before it counts as failed. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Attempts kept in the log (newest). */
const LOG_LIMIT = 5000;

/** A small deterministic random generator (mulberry32) for seeded shuffles. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Orders held deliveries for a flush. */
export function flushOrder<T>(
  items: readonly T[],
  order: WebhookSwitches['order'],
  seed: number,
): T[] {
  const copy = [...items];
  if (order === 'reverse') return copy.reverse();
  if (order === 'shuffle') {
    const random = seeded(seed);
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
  }
  return copy;
}

/**
 * Sends events to webhook endpoints as Stripe does: a JSON POST signed with the endpoint's
 * secret (signed anew at every attempt), retried with exponential backoff after a non-2xx
 * answer or a failed request, up to the endpoint's `maxAttempts`. The queue lives in the
 * {@link StripeStore} (`webhook_deliveries`): a delivery is queued in the transaction that
 * records its event, each retry's attempt number and time are written before it waits, and
 * {@link resume} picks the queue up again after a restart or a crash (kill -9), so that a
 * delivery is never lost — at worst an attempt under way at the crash is made again, as Stripe
 * may also deliver an event twice.
 */
export class WebhookDeliverer {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log: DeliveryAttempt[] = [];
  private closed = false;
  private readonly store: StripeStore;
  private readonly targetOf: (endpointId: string) => WebhookTarget | null;
  private readonly onDelivered: (event: Stripe.Event, endpointId: string) => void;

  /**
   * `targetOf` names where an endpoint's deliveries go now (null once it is deleted);
   * `onDelivered` is called after every delivery answered with 2xx, in the transaction that
   * takes it off the queue.
   */
  constructor(
    store: StripeStore,
    targetOf: (endpointId: string) => WebhookTarget | null,
    onDelivered: (event: Stripe.Event, endpointId: string) => void,
  ) {
    this.store = store;
    this.targetOf = targetOf;
    this.onDelivered = onDelivered;
  }

  /**
   * Queues `event` for `target` according to its switches (held, late, or at once; `duplicates`
   * copies). Call it inside the store transaction that records the event, and {@link start}
   * what it returns once that transaction commits.
   */
  enqueue(target: WebhookTarget, event: Stripe.Event): QueuedDelivery[] {
    const copies = Math.max(1, target.switches.duplicates);
    const due = target.switches.hold ? null : Date.now() + target.switches.delayMs;
    const queued: QueuedDelivery[] = [];
    for (let i = 0; i < copies; i++)
      queued.push(
        this.store.queueDelivery({ event: event.id, endpoint: target.id, attempt: 1, due }),
      );
    return queued;
  }

  /** Starts the timers of deliveries just queued (held ones wait for a flush). */
  start(deliveries: readonly QueuedDelivery[]): void {
    for (const delivery of deliveries) if (delivery.due !== null) this.schedule(delivery);
  }

  /** Picks up the queue kept in the store (after a restart): every delivery not held, when due. */
  resume(): number {
    const due = this.store.dueDeliveries();
    this.start(due);
    return due.length;
  }

  /** Sends the deliveries held for `endpointId` in its switches' order; returns how many. */
  flush(endpointId: string, switches: WebhookSwitches): number {
    const held = this.store.heldDeliveries(endpointId);
    const ordered = flushOrder(held, switches.order, switches.seed);
    const now = Date.now();
    this.store.transaction(() => {
      for (const delivery of ordered)
        this.store.rescheduleDelivery(delivery.seq, delivery.attempt, now);
    });
    // One after another, so that the receiver sees them in exactly this order.
    let chain = Promise.resolve();
    for (const delivery of ordered)
      chain = chain.then(() => this.attempt({ ...delivery, due: now }));
    this.track(chain);
    return ordered.length;
  }

  /** How many deliveries are held for `endpointId`. */
  heldCount(endpointId: string): number {
    return this.store.heldDeliveries(endpointId).length;
  }

  /** The attempts made so far to `endpointId` since the double started, oldest first. */
  attempts(endpointId: string): DeliveryAttempt[] {
    return this.log.filter((attempt) => attempt.endpoint === endpointId);
  }

  private schedule(delivery: QueuedDelivery): void {
    if (this.closed || this.timers.has(delivery.seq)) return;
    const wait = (delivery.due ?? 0) - Date.now();
    if (wait <= 0) {
      this.track(this.attempt(delivery));
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(delivery.seq);
      this.track(this.attempt(delivery));
    }, wait);
    this.timers.set(delivery.seq, timer);
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async attempt(delivery: QueuedDelivery): Promise<void> {
    if (this.closed) return;
    const target = this.targetOf(delivery.endpoint);
    const event = this.store.get<Stripe.Event>('event', delivery.event)?.data;
    if (!target || !event) {
      // The endpoint was deleted (Stripe stops delivering to it), or the event is unknown.
      this.store.removeDelivery(delivery.seq);
      return;
    }
    const payload = JSON.stringify(event, null, 2);
    let status = 0;
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(
            payload,
            target.secret,
            Math.floor(Date.now() / 1000),
          ),
        },
        body: payload,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch {
      // refused, reset or timed out: logged as status 0 and retried
    }
    // Closed meanwhile: the delivery stays queued as it was, and is made again on the next start.
    if (this.closed) return;
    this.log.push({
      endpoint: target.id,
      event: event.id,
      type: event.type,
      attempt: delivery.attempt,
      status,
      at: Date.now(),
    });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    if (status >= 200 && status < 300) {
      this.store.transaction(() => {
        this.store.removeDelivery(delivery.seq);
        this.onDelivered(event, target.id);
      });
      return;
    }
    const { retryBaseMs, maxAttempts } = target.switches;
    if (delivery.attempt >= maxAttempts) {
      this.store.removeDelivery(delivery.seq);
      return;
    }
    const next: QueuedDelivery = {
      ...delivery,
      attempt: delivery.attempt + 1,
      due: Date.now() + retryBaseMs * 2 ** (delivery.attempt - 1),
    };
    this.store.rescheduleDelivery(next.seq, next.attempt, next.due);
    this.schedule(next);
  }

  /** Stops the timers and waits for the attempts under way; the queue stays in the store. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
