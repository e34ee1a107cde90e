import type Stripe from 'stripe';
import { noSuch } from './errors.ts';
import type { WebhookEndpoints } from './endpoints.ts';
import { newEvent } from './objects.ts';
import { allowOnly, listLimit, optionalString, stringList, type Params } from './params.ts';
import type { StripeStore } from './store.ts';
import { WebhookDeliverer, type DeliveryAttempt } from './webhooks.ts';

/** Who sent a request and how: which key, its request id and idempotency key. */
export interface Caller {
  key: 'secret' | 'publishable';
  requestId: string;
  idempotencyKey: string | null;
}

/** A Stripe list response. */
export function listOf<T>(url: string, data: T[], hasMore: boolean): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

/**
 * Events (`/v1/events`) and their delivery: {@link write} runs a change in one transaction, the
 * events it {@link emit}s are recorded with it and delivered to the endpoints once it commits.
 */
export class EventLog {
  private readonly store: StripeStore;
  private readonly endpoints: WebhookEndpoints;
  readonly deliverer: WebhookDeliverer;
  /** Deliveries of the events recorded by the write under way, started once it commits. */
  private pendingDeliveries: (() => void)[] = [];

  constructor(store: StripeStore, endpoints: WebhookEndpoints) {
    this.store = store;
    this.endpoints = endpoints;
    this.deliverer = new WebhookDeliverer(
      store,
      (endpointId) => endpoints.target(endpointId),
      (event, endpointId) => this.markDelivered(event, endpointId),
    );
  }

  retrieve(id: string, params: Params): Stripe.Event {
    allowOnly(params, ['expand']);
    return (this.store.get<Stripe.Event>('event', id) ?? noSuch('event', id)).data;
  }

  list(params: Params): Stripe.ApiList<Stripe.Event> {
    allowOnly(params, [
      'type',
      'types',
      'limit',
      'starting_after',
      'ending_before',
      'expand',
      'delivery_success',
    ]);
    const type = optionalString(params, 'type');
    const types = stringList(params, 'types');
    const matches = (eventType: string) => {
      if (type !== undefined) {
        if (type.endsWith('*')) return eventType.startsWith(type.slice(0, -1));
        return eventType === type;
      }
      return types.length === 0 || types.includes(eventType);
    };
    const { data, hasMore } = this.store.list<Stripe.Event>('event', {
      limit: listLimit(params),
      startingAfter: optionalString(params, 'starting_after'),
      endingBefore: optionalString(params, 'ending_before'),
      where: (event) => matches(event.type),
    });
    return listOf('/v1/events', data, hasMore);
  }

  /** Sends the deliveries held for an endpoint; returns how many. */
  flush(endpointId: string): number {
    return this.deliverer.flush(endpointId, this.endpoints.get(endpointId).internal.switches);
  }

  /** The delivery attempts made to an endpoint and how many are held. */
  deliveries(endpointId: string): { held: number; attempts: DeliveryAttempt[] } {
    this.endpoints.get(endpointId);
    return {
      held: this.deliverer.heldCount(endpointId),
      attempts: this.deliverer.attempts(endpointId),
    };
  }

  /** Records an event about `object` and queues it for every endpoint that wants it. */
  emit(
    type: Stripe.Event.Type,
    object: { id: string; object: string },
    caller: Caller,
    previousAttributes?: Record<string, unknown>,
  ): void {
    const event = newEvent(
      type,
      object,
      { id: caller.requestId, idempotencyKey: caller.idempotencyKey },
      previousAttributes,
    );
    const targets = this.endpoints.targets(type);
    event.pending_webhooks = targets.length;
    this.store.insert(event, {}, object.id);
    // Queued in the same transaction as the event: once the API call that caused it is
    // answered, its deliveries are on disk.
    for (const target of targets) {
      const queued = this.deliverer.enqueue(target, event);
      this.pendingDeliveries.push(() => this.deliverer.start(queued));
    }
  }

  /** Runs `work` in one transaction; the events it recorded are delivered once it commits. */
  write(work: () => void): void {
    this.pendingDeliveries = [];
    try {
      this.store.transaction(work);
    } catch (error) {
      this.pendingDeliveries = [];
      throw error;
    }
    const deliveries = this.pendingDeliveries;
    this.pendingDeliveries = [];
    for (const deliver of deliveries) deliver();
  }

  /** Starts delivering the queue kept in the store (after a restart); returns how many are due. */
  resume(): number {
    return this.deliverer.resume();
  }

  /** Stops pending deliveries (they stay queued in the store for the next start). */
  close(): Promise<void> {
    return this.deliverer.close();
  }

  private markDelivered(event: Stripe.Event, endpointId: string): void {
    if (!this.store.markDelivered(event.id, endpointId)) return;
    const stored = this.store.get<Stripe.Event>('event', event.id);
    if (!stored) return;
    this.store.update({
      ...stored.data,
      pending_webhooks: Math.max(0, stored.data.pending_webhooks - 1),
    });
  }
}
