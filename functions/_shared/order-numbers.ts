import { Databases, Query, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID, ORDER_NUMBER_COUNTER_ID } from '../../domain/ids.ts';
import { isAppwriteError } from './appwrite.ts';

/** The number before the first order's when there are none (the first is #1001). */
const FIRST_NUMBER_BEFORE = 1000;

/** The highest order number in use (or the one before the first). */
async function highestOrderNumber(databases: Databases): Promise<number> {
  const { documents } = await databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    queries: [Query.orderDesc('number'), Query.limit(1), Query.select(['number'])],
  });
  const number = (documents[0] as unknown as { number?: number } | undefined)?.number;
  return Math.max(number ?? 0, FIRST_NUMBER_BEFORE);
}

async function increment(databases: Databases, by: number): Promise<number> {
  const counter = await databases.incrementDocumentAttribute({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.counters,
    documentId: ORDER_NUMBER_COUNTER_ID,
    attribute: 'value',
    value: by,
  });
  return Number((counter as unknown as { value: number | bigint }).value);
}

/**
 * Gives out the next order number: Appwrite's atomic increment of one counter document, so that
 * customers checking out at the same moment never get the same number. The counter is created
 * on first use from the highest number in use (the seed and the simulator number their orders
 * themselves). `after`: a number found taken by someone who does not use the counter — the
 * counter then jumps past the highest number in use, so that it catches up in one step.
 */
export async function nextOrderNumber(client: Client, after?: number): Promise<number> {
  const databases = new Databases(client);
  let by = 1;
  if (after !== undefined) by = Math.max(1, (await highestOrderNumber(databases)) - after + 1);
  try {
    return await increment(databases, by);
  } catch (error) {
    if (!isAppwriteError(error, 404)) throw error;
  }
  try {
    await databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.counters,
      documentId: ORDER_NUMBER_COUNTER_ID,
      data: { value: await highestOrderNumber(databases) },
    });
  } catch (error) {
    // Someone else created it a moment ago.
    if (!isAppwriteError(error, 409)) throw error;
  }
  return increment(databases, 1);
}
