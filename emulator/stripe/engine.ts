import { WebhookEndpoints } from './endpoints.ts';
import { EventLog } from './events.ts';
import { PaymentIntents } from './payment-intents.ts';
import { Refunds } from './refunds.ts';
import type { StripeStore } from './store.ts';

/** Settings of the engine. */
export interface EngineOptions {
  /** How long a PaymentIntent paid with the double's processing card stays `processing`. */
  processingMs: number;
}

/**
 * The Stripe doubles' behaviour over a {@link StripeStore}: PaymentIntents, charges and refunds,
 * events and their delivery, webhook endpoints. Every method of its parts takes parsed request
 * parameters and returns the JSON body to answer, or throws a `StripeApiError`.
 */
export class StripeEngine {
  readonly endpoints: WebhookEndpoints;
  readonly events: EventLog;
  readonly intents: PaymentIntents;
  readonly refunds: Refunds;

  constructor(store: StripeStore, options: EngineOptions) {
    this.endpoints = new WebhookEndpoints(store);
    this.events = new EventLog(store, this.endpoints);
    this.intents = new PaymentIntents(store, this.events, options.processingMs);
    this.refunds = new Refunds(store, this.events);
  }

  /** Stops timers and pending deliveries. */
  async close(): Promise<void> {
    this.intents.close();
    await this.events.close();
  }
}
