import {
  Account,
  Client,
  Databases,
  Functions,
  Presences,
  Realtime,
  Teams,
  type RealtimeResponseEvent,
} from 'appwrite';
import { config } from './env.ts';

/**
 * The one Appwrite client module of the app (docs/architecture.md; as appwrite/console's
 * `src/lib/stores/sdk.ts`):
 * every service instance, and realtime as `subscribe()` → cleanup. Everything else reaches
 * Appwrite through here.
 */
export interface Sdk {
  client: Client;
  account: Account;
  teams: Teams;
  databases: Databases;
  functions: Functions;
  presences: Presences;
  /** The tab's one realtime connection (data channels and presence share it). */
  realtime: Realtime;
}

let instance: Sdk | null = null;

/** The SDK facade, created on first use from the validated config. */
export function sdk(): Sdk {
  if (instance) return instance;
  const { endpoint, projectId } = config();
  const client = new Client().setEndpoint(endpoint).setProject(projectId);
  const realtime = new Realtime(client);
  instance = {
    client,
    account: new Account(client),
    teams: new Teams(client),
    databases: new Databases(client),
    functions: new Functions(client),
    presences: new Presences(client),
    realtime,
  };
  return instance;
}

/**
 * Subscribes to realtime `channels` on the tab's connection and returns the cleanup, which is
 * safe to call at once (before the subscription is acknowledged) and more than once.
 */
export function subscribe<T = unknown>(
  channels: string[],
  callback: (event: RealtimeResponseEvent<T>) => void,
): () => void {
  let closed = false;
  const pending = sdk().realtime.subscribe<T>(channels, callback);
  return () => {
    if (closed) return;
    closed = true;
    void pending.then((subscription) => subscription.unsubscribe()).catch(() => {});
  };
}

/** Closes the realtime connection (sign-out). */
export async function disconnectRealtime(): Promise<void> {
  await instance?.realtime.disconnect();
}
