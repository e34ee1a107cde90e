import { AppwriteException, Client, Databases, ID, Query, Users } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import type { BackendConnection } from '../../targets/types.ts';

/** A node-appwrite client with the backend's API key. */
export function adminClient(backend: BackendConnection): Client {
  return new Client()
    .setEndpoint(backend.endpoint)
    .setProject(backend.projectId)
    .setKey(backend.apiKey);
}

/** A node-appwrite client signed in as a user (a session made with the API key). */
export async function userClient(backend: BackendConnection, userId: string): Promise<Client> {
  const session = await new Users(adminClient(backend)).createSession({ userId });
  return new Client()
    .setEndpoint(backend.endpoint)
    .setProject(backend.projectId)
    .setSession(session.secret);
}

/**
 * Creates a paid, unclaimed order with a number of its own (900000–999999, above the backend's
 * sequence), as the payment webhook would leave it. A number another test file took already
 * (409 from the unique index) is drawn again.
 */
export async function createPaidOrder(backend: BackendConnection, customerName = 'Test Customer') {
  for (let attempt = 1; ; attempt++) {
    const number = 900_000 + Math.floor(Math.random() * 100_000);
    try {
      return await createPaidOrderNumbered(backend, number, customerName);
    } catch (error) {
      if (!(error instanceof AppwriteException && error.code === 409) || attempt === 5) throw error;
    }
  }
}

async function createPaidOrderNumbered(
  backend: BackendConnection,
  number: number,
  customerName: string,
): Promise<{ id: string; number: number }> {
  const now = new Date().toISOString();
  const doc = await new Databases(adminClient(backend)).createDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: ID.unique(),
    data: {
      number,
      status: 'paid',
      customerName,
      customerEmail: 'test.customer@example.test',
      customerId: null,
      items: JSON.stringify([
        { productId: 'latte', name: 'Latte', unitPriceCents: 400, qty: 2 },
        { productId: 'croissant', name: 'Croissant', unitPriceCents: 280, qty: 1 },
      ]),
      itemsSummary: '2× Latte, 1× Croissant',
      subtotalCents: 1080,
      totalCents: 1080,
      currency: 'eur',
      paymentIntentId: null,
      paymentStatus: 'succeeded',
      cardBrand: 'visa',
      cardLast4: '4242',
      failureCode: null,
      refundedCents: 0,
      assigneeId: null,
      assigneeName: null,
      paidAt: now,
      startedAt: null,
      readyAt: null,
      fulfilledAt: null,
      canceledAt: null,
      noteCount: 0,
      attachmentCount: 0,
      rev: 1,
      updatedById: null,
      updatedByName: null,
    },
  });
  return { id: doc.$id, number };
}

/** How many orders of the last 30 days the backend holds (what the desk loads). */
export async function serverOrderCount(backend: BackendConnection): Promise<number> {
  const since = new Date(Date.now() - 30 * 24 * 3600_000).toISOString();
  const { total } = await new Databases(adminClient(backend)).listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    queries: [Query.greaterThan('$createdAt', since), Query.limit(1)],
  });
  return total;
}
