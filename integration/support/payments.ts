import { Client, Databases, Functions, Query, Teams } from 'node-appwrite';
import Stripe from 'stripe';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { LOCAL_STRIPE } from '../../domain/stripe-config.ts';
import { CheckoutCustomers } from '../../scripts/lib/checkout-customers.ts';
import type { BackendConnection } from '../targets/types.ts';
import { backend, serverClient, uniqueTestId } from './clients.ts';
import { poll } from './functions.ts';
import { createWebUser, type WebUser } from './realtime.ts';

/** The local backend's Stripe double, as its `GET /stripe/` describes it. */
export interface BackendDouble {
  /** The `stripe` SDK on the API double, with the local secret key. */
  stripe: Stripe;
  /** `http://host:port` of the API double. */
  api: string;
  /** Calls the double's test controls (`/_double/…`) with the secret key. */
  control(method: 'GET' | 'POST', path: string, params?: Record<string, string>): Promise<unknown>;
}

/**
 * Why the payment suites cannot run on this target (null: they can): they need the local Stripe
 * double the local backend and its image serve (`GET /stripe/`); a real Appwrite has none. Tests
 * then skip with this reason — counted as not run, and as failed on the local and container
 * targets, which have it.
 */
export async function stripeDoubleMissing(
  connection: BackendConnection = backend(),
): Promise<string | null> {
  const url = `${new URL(connection.endpoint).origin}/stripe/`;
  const answer = await fetch(url).then(
    async (response) => (response.ok ? ((await response.json()) as { api?: unknown }) : null),
    () => null,
  );
  return typeof answer?.api === 'string'
    ? null
    : `${url} serves no local Stripe double: the payment suites need the local backend or its image`;
}

/** The Stripe double of the backend at `connection` (the local backend and its image have one). */
export async function backendDouble(
  connection: BackendConnection = backend(),
): Promise<BackendDouble> {
  const origin = new URL(connection.endpoint).origin;
  const { api } = (await (await fetch(`${origin}/stripe/`)).json()) as { api: string };
  const url = new URL(api);
  const stripe = new Stripe(LOCAL_STRIPE.secretKey, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  return {
    stripe,
    api,
    async control(method, path, params = {}) {
      const response = await fetch(`${api}/_double${path}`, {
        method,
        headers: {
          authorization: `Bearer ${LOCAL_STRIPE.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: method === 'POST' ? new URLSearchParams(params).toString() : undefined,
      });
      const json: unknown = await response.json();
      if (!response.ok) throw new Error(`${method} /_double${path}: ${JSON.stringify(json)}`);
      return json;
    },
  };
}

/** Scripted shop customers on the backend (see scripts/lib/checkout-customers.ts). */
export function shop(connection: BackendConnection = backend()): CheckoutCustomers {
  return new CheckoutCustomers(connection, {});
}

/** Creates active products with ids unique to this run; returns them as `{id, priceCents}`. */
export async function createProducts(
  prices: readonly number[],
  connection: BackendConnection = backend(),
  extra: { active?: boolean } = {},
): Promise<{ id: string; priceCents: number }[]> {
  const databases = new Databases(serverClient(connection));
  return Promise.all(
    prices.map(async (priceCents, index) => {
      const id = uniqueTestId('prod');
      await databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.products,
        documentId: id,
        data: {
          name: `Product ${index + 1}`,
          description: '',
          priceCents,
          currency: 'eur',
          active: extra.active ?? true,
          sortOrder: 1000 + index,
        },
      });
      return { id, priceCents };
    }),
  );
}

/** An order read with the API key. */
export async function readOrderDocument(
  orderId: string,
  connection: BackendConnection = backend(),
): Promise<OrderDocument> {
  return (await new Databases(serverClient(connection)).getDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: orderId,
  })) as unknown as OrderDocument;
}

/** Polls an order (API key) until `done` holds; 30 s bound, for hangs only. */
export function orderUntil(
  orderId: string,
  done: (order: OrderDocument) => boolean,
  what: string,
  connection: BackendConnection = backend(),
): Promise<OrderDocument> {
  return poll(() => readOrderDocument(orderId, connection), done, 30_000, what);
}

/** The activity records of an order, oldest revision first. */
export async function activityOf(
  orderId: string,
  connection: BackendConnection = backend(),
): Promise<{ $id: string; kind: string; actorName: string | null; data: string }[]> {
  const { documents } = await new Databases(serverClient(connection)).listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.activity,
    queries: [Query.equal('orderId', [orderId]), Query.limit(100)],
  });
  const rev = (id: string) => Number(id.split('.r').at(-1));
  return (
    documents as unknown as { $id: string; kind: string; actorName: string | null; data: string }[]
  ).sort((a, b) => rev(a.$id) - rev(b.$id));
}

/** A desk member with a role, signed in with the browser SDK. */
export async function deskMember(
  name: string,
  role: 'staff' | 'manager' | 'owner',
  connection: BackendConnection = backend(),
): Promise<WebUser> {
  const user = await createWebUser(name, connection);
  await new Teams(serverClient(connection)).createMembership({
    teamId: DESK_TEAM_ID,
    roles: [role],
    userId: user.userId,
  });
  return user;
}

/** What a function answered: the HTTP status and parsed body. */
export interface FunctionAnswer {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string; details?: unknown } };
}

/** Runs a function synchronously with `client`'s credentials (a session or the API key). */
export async function execute(
  client: Client,
  functionId: string,
  body: Record<string, unknown> | string,
): Promise<FunctionAnswer> {
  const execution = await new Functions(client).createExecution({
    functionId,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return {
    status: execution.responseStatusCode,
    body: JSON.parse(execution.responseBody || '{}') as FunctionAnswer['body'],
  };
}

/** A node-appwrite client signed in with a session secret. */
export function sessionClient(secret: string, connection: BackendConnection = backend()): Client {
  return new Client()
    .setEndpoint(connection.endpoint)
    .setProject(connection.projectId)
    .setSession(secret);
}

/** The webhook endpoint provisioning registered for `stripe-webhook` (its function variable). */
export async function webhookEndpointId(
  connection: BackendConnection = backend(),
): Promise<string> {
  const { variables } = await new Functions(serverClient(connection)).listVariables({
    functionId: FUNCTIONS.stripeWebhook,
  });
  const id = variables.find((variable) => variable.key === 'STRIPE_WEBHOOK_ENDPOINT')?.value;
  if (!id) throw new Error('stripe-webhook has no STRIPE_WEBHOOK_ENDPOINT variable');
  return id;
}
