import type Stripe from 'stripe';
import { invalidParam, missingParam, noSuch } from './errors.ts';
import { listOf } from './events.ts';
import { newId, nowSeconds } from './objects.ts';
import {
  allowOnly,
  applyMetadata,
  listLimit,
  optionalBoolean,
  optionalInteger,
  optionalString,
  requiredString,
  stringList,
  type Params,
} from './params.ts';
import type { StripeStore } from './store.ts';
import { DEFAULT_SWITCHES, type WebhookSwitches, type WebhookTarget } from './webhooks.ts';

/** What the double keeps about an endpoint besides its public JSON. */
interface EndpointInternal {
  secret: string;
  switches: WebhookSwitches;
}

function toTarget({
  data,
  internal,
}: {
  data: Stripe.WebhookEndpoint;
  internal: EndpointInternal;
}): WebhookTarget {
  return {
    id: data.id,
    url: data.url,
    secret: internal.secret,
    enabledEvents: data.enabled_events,
    switches: internal.switches,
  };
}

/** Webhook endpoints (`/v1/webhook_endpoints`) and their test switches. */
export class WebhookEndpoints {
  private readonly store: StripeStore;

  constructor(store: StripeStore) {
    this.store = store;
  }

  create(params: Params, secret?: string, id?: string): Stripe.WebhookEndpoint {
    allowOnly(params, [
      'url',
      'enabled_events',
      'description',
      'metadata',
      'api_version',
      'expand',
    ]);
    const url = requiredString(params, 'url');
    if (!/^https?:\/\/\S+$/.test(url)) invalidParam('url', `Invalid URL: ${url}`, 'url_invalid');
    const enabled = stringList(params, 'enabled_events');
    if (enabled.length === 0) missingParam('enabled_events');
    const endpoint: Stripe.WebhookEndpoint = {
      id: id ?? newId('we'),
      object: 'webhook_endpoint',
      api_version: optionalString(params, 'api_version') ?? null,
      application: null,
      created: nowSeconds(),
      description: optionalString(params, 'description') ?? null,
      enabled_events: enabled,
      livemode: false,
      metadata: applyMetadata({}, params),
      status: 'enabled',
      url,
    };
    const internal: EndpointInternal = {
      secret: secret ?? newId('whsec', 32),
      switches: { ...DEFAULT_SWITCHES },
    };
    this.store.insert(endpoint, internal);
    return { ...endpoint, secret: internal.secret };
  }

  /** Creates or replaces the endpoint with a fixed id (the configured webhook URL). */
  ensure(id: string, url: string, secret: string): void {
    const existing = this.store.get<Stripe.WebhookEndpoint, EndpointInternal>(
      'webhook_endpoint',
      id,
    );
    if (existing) {
      this.store.update(
        { ...existing.data, url, status: 'enabled' },
        { ...existing.internal, secret },
      );
      return;
    }
    this.create({ url, enabled_events: ['*'] }, secret, id);
  }

  retrieve(id: string): Stripe.WebhookEndpoint {
    return this.get(id).data;
  }

  list(params: Params): Stripe.ApiList<Stripe.WebhookEndpoint> {
    allowOnly(params, ['limit', 'starting_after', 'ending_before', 'expand']);
    const { data, hasMore } = this.store.list<Stripe.WebhookEndpoint>('webhook_endpoint', {
      limit: listLimit(params),
      startingAfter: optionalString(params, 'starting_after'),
      endingBefore: optionalString(params, 'ending_before'),
      where: (endpoint) => endpoint.status !== 'deleted',
    });
    return listOf('/v1/webhook_endpoints', data, hasMore);
  }

  delete(id: string): Stripe.DeletedWebhookEndpoint {
    const stored = this.get(id);
    this.store.update({ ...stored.data, status: 'deleted' });
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  /** Changes an endpoint's test switches (only the fields given) and returns them all. */
  setSwitches(id: string, params: Params): WebhookSwitches {
    const stored = this.get(id);
    const switches = { ...stored.internal.switches };
    const integer = (name: keyof WebhookSwitches, min: number, max: number) => {
      const value = optionalInteger(params, name);
      if (value === undefined) return;
      if (value < min || value > max)
        invalidParam(name, `${name} must be between ${min} and ${max}`);
      (switches as unknown as Record<string, number>)[name] = value;
    };
    allowOnly(params, Object.keys(DEFAULT_SWITCHES));
    integer('duplicates', 1, 10);
    integer('delayMs', 0, 600_000);
    integer('seed', 0, 2 ** 31 - 1);
    integer('retryBaseMs', 1, 3_600_000);
    integer('maxAttempts', 1, 20);
    const hold = optionalBoolean(params, 'hold');
    if (hold !== undefined) switches.hold = hold;
    const order = optionalString(params, 'order');
    if (order !== undefined) {
      if (order !== 'created' && order !== 'reverse' && order !== 'shuffle')
        invalidParam('order', 'order must be created, reverse or shuffle');
      switches.order = order;
    }
    this.store.update(stored.data, { ...stored.internal, switches });
    return switches;
  }

  /** The endpoint `id` with its secret and switches (404 when missing or deleted). */
  get(id: string) {
    const stored = this.store.get<Stripe.WebhookEndpoint, EndpointInternal>('webhook_endpoint', id);
    if (!stored || stored.data.status === 'deleted') noSuch('webhook_endpoint', id);
    return stored;
  }

  /** Where the deliveries of endpoint `id` go now; null once it is deleted or disabled. */
  target(id: string): WebhookTarget | null {
    const stored = this.store.get<Stripe.WebhookEndpoint, EndpointInternal>('webhook_endpoint', id);
    if (!stored || stored.data.status !== 'enabled') return null;
    return toTarget(stored);
  }

  /** Where an event of `type` goes: every enabled endpoint that wants it. */
  targets(type: string): WebhookTarget[] {
    return this.store
      .scan<Stripe.WebhookEndpoint, EndpointInternal>('webhook_endpoint', () => true)
      .filter(
        ({ data }) =>
          data.status === 'enabled' &&
          (data.enabled_events.includes('*') || data.enabled_events.includes(type)),
      )
      .map(toTarget);
  }
}
