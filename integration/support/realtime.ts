import {
  Client as WebClient,
  Realtime,
  type RealtimeResponseEvent,
  type RealtimeSubscription,
} from 'appwrite';
import { ID, Users } from 'node-appwrite';
import type { BackendConnection } from '../targets/types.ts';
import { RecordingWebSocket, socketOf, type ReceivedMessage } from './browser.ts';
import { backend, serverClient, uniqueTestId } from './clients.ts';

/** A user with a browser-SDK client carrying its session (`setSession`, as on a custom domain). */
export interface WebUser {
  userId: string;
  name: string;
  email: string;
  password: string;
  secret: string;
  client: WebClient;
}

/** Creates a user with the API key and a browser-SDK client signed in with its session secret. */
export async function createWebUser(
  name = 'Test User',
  connection: BackendConnection = backend(),
): Promise<WebUser> {
  const users = new Users(serverClient(connection));
  const email = `${uniqueTestId('rt')}@example.test`;
  const password = 'correct-horse-battery';
  const user = await users.create({ userId: ID.unique(), email, password, name });
  const session = await users.createSession({ userId: user.$id });
  const client = new WebClient()
    .setEndpoint(connection.endpoint)
    .setProject(connection.projectId)
    .setSession(session.secret);
  return { userId: user.$id, name, email, password, secret: session.secret, client };
}

/** Events a subscription callback received. */
export type Inbox = RealtimeResponseEvent<Record<string, unknown>>[];

/** A subscription made through the SDK, with what it received and its server-side id. */
export interface Listening {
  inbox: Inbox;
  /** The subscription id the server acknowledged (the SDK generates it client-side). */
  id: string;
  /** Converted channels and query strings from the server's `response`. */
  ack: { subscriptionId: string; channels: string[]; queries: string[] };
  close: () => Promise<void>;
  unsubscribe: () => Promise<void>;
  update: RealtimeSubscription['update'];
}

/**
 * Subscribes through `realtime` and waits for the server's acknowledgement of this
 * subscription (the `response` the SDK ignores), so a write made afterwards is delivered.
 */
export async function listen(
  realtime: Realtime,
  channels: string | string[],
  queries: string[] = [],
): Promise<Listening> {
  const inbox: Inbox = [];
  const known = new Set(
    (
      realtime as unknown as { activeSubscriptions: Map<string, unknown> }
    ).activeSubscriptions.keys(),
  );
  const subscription = await realtime.subscribe(
    Array.isArray(channels) ? channels : [channels],
    (event) => inbox.push(event as RealtimeResponseEvent<Record<string, unknown>>),
    queries,
  );
  const active = (realtime as unknown as { activeSubscriptions: Map<string, unknown> })
    .activeSubscriptions;
  const id = [...active.keys()].find((key) => !known.has(key))!;
  const response = await socketOf(realtime).waitFor((message) => acks(message).has(id));
  return {
    inbox,
    id,
    ack: acks(response).get(id)!,
    close: subscription.close,
    unsubscribe: subscription.unsubscribe,
    update: subscription.update,
  };
}

/** The subscriptions a `subscribe` acknowledgement lists, by id. */
export function acks(
  message: ReceivedMessage,
): Map<string, { subscriptionId: string; channels: string[]; queries: string[] }> {
  const out = new Map<string, { subscriptionId: string; channels: string[]; queries: string[] }>();
  if (message.type !== 'response' || message.data?.to !== 'subscribe') return out;
  for (const item of message.data.subscriptions as {
    subscriptionId: string;
    channels: string[];
    queries: string[];
  }[]) {
    out.set(item.subscriptionId, item);
  }
  return out;
}

/** A browser-SDK `Realtime` for `client`, remembered so {@link closeAll} can disconnect it. */
const opened: Realtime[] = [];
export function realtimeFor(client: WebClient): Realtime {
  const realtime = new Realtime(client);
  opened.push(realtime);
  return realtime;
}

/** Disconnects every `Realtime` made with {@link realtimeFor} (call in `afterEach`). */
export async function closeAll(): Promise<void> {
  await Promise.all(opened.splice(0).map((realtime) => realtime.disconnect()));
}

/** Opens a raw socket to the backend's realtime endpoint (for protocol-level checks). */
export async function rawSocket(
  connection: BackendConnection = backend(),
  query = `project=${connection.projectId}`,
): Promise<RecordingWebSocket> {
  const url = `${connection.endpoint.replace(/^http/, 'ws')}/realtime?${query}`;
  const socket = new RecordingWebSocket(url);
  await socket.waitFor((message) => message.type === 'connected' || message.type === 'error');
  return socket;
}
