import type { BackendEvent } from '../../core/events.ts';
import {
  compileQueries,
  matchesQueries,
  parseRealtimeQueries,
  type CompiledQueries,
  type RealtimeQuery,
} from './queries.ts';

/** One subscription of a connection: its id, converted channels and compiled queries. */
export interface Subscription {
  id: string;
  channels: readonly string[];
  queries: readonly RealtimeQuery[];
  compiled: CompiledQueries;
}

/** What delivery needs to know about a connection. */
export interface Subscriber {
  /** Appwrite roles of the connection (`guests`, or the user's roles); never `any`. */
  roles: ReadonlySet<string>;
  subscriptions: ReadonlyMap<string, Subscription>;
}

/** Builds a {@link Subscription}, compiling its queries. */
export function makeSubscription(
  id: string,
  channels: readonly string[],
  queries: readonly RealtimeQuery[],
): Subscription {
  return { id, channels, queries, compiled: compileQueries(queries) };
}

/** Whether a connection holding `roles` may receive an event for `eventRoles` (`any` lets everyone). */
export function rolesAllow(roles: ReadonlySet<string>, eventRoles: readonly string[]): boolean {
  for (const role of eventRoles) if (role === 'any' || roles.has(role)) return true;
  return false;
}

/**
 * The ids of `subscriber`'s subscriptions that receive `event` (Appwrite's
 * `Realtime::getSubscribers` for one connection): a subscribed channel is among the event's
 * channels, the connection's roles meet the event's roles, and the subscription's queries
 * match the payload. `eventChannels` may be passed to reuse one Set across connections.
 */
export function matchingSubscriptionIds(
  subscriber: Subscriber,
  event: Pick<BackendEvent, 'channels' | 'roles' | 'payload'>,
  eventChannels: ReadonlySet<string> = new Set(event.channels),
): string[] {
  if (subscriber.subscriptions.size === 0 || !rolesAllow(subscriber.roles, event.roles)) return [];
  const ids: string[] = [];
  for (const subscription of subscriber.subscriptions.values()) {
    if (!subscription.channels.some((channel) => eventChannels.has(channel))) continue;
    if (!matchesQueries(subscription.compiled, event.payload)) continue;
    ids.push(subscription.id);
  }
  return ids;
}

/**
 * The `event` frame for one event, serialized once: `frame(ids)` only splices the
 * connection's subscription ids into the pre-built JSON (key order as Appwrite sends it).
 */
export function eventFrameBuilder(
  event: Pick<BackendEvent, 'events' | 'channels' | 'timestamp' | 'payload'>,
): (subscriptionIds: readonly string[]) => string {
  const prefix =
    `{"type":"event","data":{"events":${JSON.stringify(event.events)}` +
    `,"channels":${JSON.stringify(event.channels)}` +
    `,"timestamp":${JSON.stringify(event.timestamp)}` +
    `,"payload":${JSON.stringify(event.payload)},"subscriptions":`;
  return (subscriptionIds) => `${prefix}${JSON.stringify(subscriptionIds)}}}`;
}

/**
 * Appwrite's `Realtime::constructSubscriptions` for the legacy URL mode: a channel with no
 * query param joins slot 0 (`select("*")`); `<channel_with_underscores>[]=<query>` puts the
 * channel in slot i with that query; `…[i][]=<q1>&…[i][]=<q2>` ANDs several in one slot.
 */
export function legacySubscriptions(
  channels: readonly string[],
  query: Record<string, unknown>,
): { channels: string[]; queries: RealtimeQuery[] }[] {
  const slots: { channels: string[]; queries: RealtimeQuery[] }[] = [];
  const slot = (index: number) => (slots[index] ??= { channels: [], queries: [] });
  for (const channel of channels) {
    const key = channel.replaceAll('.', '_');
    let params = key === 'project' ? undefined : (query[key] ?? query[channel]);
    if (params === undefined || params === null) {
      const first = slot(0);
      first.channels.push(channel);
      continue;
    }
    if (!Array.isArray(params)) params = [params];
    (params as unknown[]).forEach((value, index) => {
      const target = slot(index);
      if (!target.channels.includes(channel)) target.channels.push(channel);
      if (target.queries.length === 0) {
        target.queries = parseRealtimeQueries(Array.isArray(value) ? value : [value]);
      }
    });
  }
  return slots.filter(Boolean);
}
