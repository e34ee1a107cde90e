import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';

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

interface Delivery {
  target: WebhookTarget;
  event: Stripe.Event;
  attempt: number;
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
 * answer or a failed request, up to the endpoint's `maxAttempts`. Pending deliveries live in
 * memory: a restart drops them (the events stay listable with `GET /v1/events`).
 */
export class WebhookDeliverer {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly held = new Map<string, Delivery[]>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log: DeliveryAttempt[] = [];
  private closed = false;
  private readonly onDelivered: (event: Stripe.Event, endpointId: string) => void;

  /** `onDelivered` is called after every delivery answered with 2xx. */
  constructor(onDelivered: (event: Stripe.Event, endpointId: string) => void) {
    this.onDelivered = onDelivered;
  }

  /** Queues `event` for `target` according to its switches. */
  enqueue(target: WebhookTarget, event: Stripe.Event): void {
    const copies = Math.max(1, target.switches.duplicates);
    for (let i = 0; i < copies; i++) {
      const delivery: Delivery = { target, event, attempt: 1 };
      if (target.switches.hold) {
        const queue = this.held.get(target.id) ?? [];
        queue.push(delivery);
        this.held.set(target.id, queue);
      } else {
        this.schedule(delivery, target.switches.delayMs);
      }
    }
  }

  /** Sends the deliveries held for `endpointId` in its switches' order; returns how many. */
  flush(endpointId: string, switches: WebhookSwitches): number {
    const queue = this.held.get(endpointId) ?? [];
    this.held.delete(endpointId);
    const ordered = flushOrder(queue, switches.order, switches.seed);
    // One after another, so that the receiver sees them in exactly this order.
    let chain = Promise.resolve();
    for (const delivery of ordered) chain = chain.then(() => this.attempt(delivery));
    this.track(chain);
    return ordered.length;
  }

  /** How many deliveries are held for `endpointId`. */
  heldCount(endpointId: string): number {
    return this.held.get(endpointId)?.length ?? 0;
  }

  /** The attempts made so far to `endpointId`, oldest first. */
  attempts(endpointId: string): DeliveryAttempt[] {
    return this.log.filter((attempt) => attempt.endpoint === endpointId);
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    if (this.closed) return;
    if (delayMs <= 0) {
      this.track(this.attempt(delivery));
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.attempt(delivery));
    }, delayMs);
    this.timers.add(timer);
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async attempt(delivery: Delivery): Promise<void> {
    if (this.closed) return;
    const { target, event } = delivery;
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
      this.onDelivered(event, target.id);
      return;
    }
    const { retryBaseMs, maxAttempts } = target.switches;
    if (delivery.attempt >= maxAttempts) return;
    this.schedule(
      { ...delivery, attempt: delivery.attempt + 1 },
      retryBaseMs * 2 ** (delivery.attempt - 1),
    );
  }

  /** Stops every pending delivery and waits for those under way. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.held.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
