import { Account, Functions as WebFunctions, type Client as WebClient } from 'appwrite';
import { Databases, ID, Teams } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import type { DeskRole } from '../../domain/roles.ts';
import { storage } from './browser.ts';
import { backend, serverClient, webClient } from './clients.ts';
import { createWebUser, type WebUser } from './realtime.ts';

/** Someone with a signed-in browser-SDK client: a desk member (with a role) or not. */
export interface Person extends WebUser {
  role: DeskRole | null;
}

/** A new user, made a `desk` member with `role` (none: an outsider). */
export async function deskPerson(name: string, role: DeskRole | null): Promise<Person> {
  const user = await createWebUser(name);
  if (role)
    await new Teams(serverClient()).createMembership({
      teamId: DESK_TEAM_ID,
      roles: [role],
      userId: user.userId,
    });
  return { ...user, role };
}

/** A customer: an anonymous session of its own, no desk membership (needs browser globals). */
export async function anonymousCustomer(): Promise<Person> {
  const client = webClient();
  storage.clear();
  const session = await new Account(client).createAnonymousSession();
  // The SDK keeps the session as a fallback cookie in (shared) localStorage: move it onto this
  // client alone, so that other clients stay guests.
  const fallback = JSON.parse(storage.getItem('cookieFallback') ?? '{}') as Record<string, string>;
  const secret = fallback[`a_session_${backend().projectId}`] ?? '';
  client.setSession(secret);
  storage.clear();
  return {
    userId: session.userId,
    name: '',
    email: '',
    password: '',
    secret,
    client,
    role: null,
  };
}

let nextNumber = 300_000_000 + Math.floor(Math.random() * 600_000_000);

/** An order written with the API key, as the checkout and webhook functions do. */
export async function createTestOrder(
  patch: Partial<Omit<OrderDocument, '$sequence'>> & { $createdAt?: string } = {},
): Promise<OrderDocument> {
  return (await new Databases(serverClient()).createDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: ID.unique(),
    data: { ...orderData(), ...patch },
  })) as unknown as OrderDocument;
}

/** The attributes of a paid test order with a number of its own. */
export function orderData(): Record<string, unknown> {
  return {
    number: nextNumber++,
    status: 'paid',
    customerName: 'Cleo Customer',
    customerEmail: 'cleo@example.test',
    items: JSON.stringify([{ productId: 'p1', name: 'Latte', unitPriceCents: 350, qty: 2 }]),
    itemsSummary: '2× Latte',
    subtotalCents: 700,
    totalCents: 700,
    currency: 'eur',
    paymentStatus: 'succeeded',
    attachmentCount: 0,
    rev: 0,
  };
}

/** Reads an order with the API key. */
export async function readTestOrder(orderId: string): Promise<OrderDocument> {
  return (await new Databases(serverClient()).getDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: orderId,
  })) as unknown as OrderDocument;
}

/** A function's answer: its HTTP status and parsed JSON body. */
export interface FunctionAnswer<T = Record<string, unknown>> {
  status: number;
  body: T & { error?: { code: string; message: string; details?: Record<string, unknown> } };
}

/** Runs a function synchronously through the browser SDK, as the app does. */
export async function callFunction<T = Record<string, unknown>>(
  client: WebClient,
  functionId: string,
  body: unknown,
): Promise<FunctionAnswer<T>> {
  const execution = await new WebFunctions(client).createExecution({
    functionId,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return {
    status: execution.responseStatusCode,
    body: JSON.parse(execution.responseBody || '{}') as FunctionAnswer<T>['body'],
  };
}
