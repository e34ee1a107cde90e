import {
  ID,
  ImageFormat,
  Query,
  Storage,
  type Account,
  type Client,
  type Databases,
  type Models,
  type Realtime,
} from 'appwrite';
import { productFromDocument } from '../../domain/entities.ts';
import { COLLECTIONS, DATABASE_ID, BUCKETS, FUNCTIONS } from '../../domain/ids.ts';
import { orderFromDocument, type OrderDocument } from '../../domain/order.ts';
import type { CheckoutAnswer, ShopTransport } from '../shop/transport.ts';
import { toAppError } from './errors.ts';
import { call, executeFunction, parseFunctionAnswer, type FunctionsClient } from './transport.ts';

/** The SDK services the shop uses (the app's SDK facade has them all). */
export interface ShopSdk {
  client: Client;
  account: Pick<Account, 'get' | 'createAnonymousSession'>;
  databases: Pick<Databases, 'listDocuments' | 'getDocument'>;
  functions: FunctionsClient;
  realtime: Pick<Realtime, 'subscribe' | 'disconnect'>;
}

function isCheckoutAnswer(body: unknown): body is CheckoutAnswer {
  if (typeof body !== 'object' || body === null) return false;
  const a = body as Record<string, unknown>;
  return (
    typeof a.orderId === 'string' &&
    typeof a.clientSecret === 'string' &&
    typeof a.number === 'number' &&
    typeof a.amountCents === 'number' &&
    typeof a.currency === 'string' &&
    typeof a.status === 'string'
  );
}

/**
 * The shop's {@link ShopTransport} on the `appwrite` SDK: the customer's anonymous session
 * (`createAnonymousSession` when the browser has no session), the active products (readable by
 * anyone), `checkout` as a synchronous execution, and the customer's own order — a read, and its
 * document channel on the tab's realtime connection (the order's `read("user:<customerId>")`
 * lets only them and the desk see it).
 */
export function createAppwriteShopTransport(sdk: ShopSdk): ShopTransport {
  let session: Promise<string> | null = null;
  const storage = new Storage(sdk.client);
  const follows = createFollows(sdk.realtime);
  return {
    newId: () => ID.unique(),

    ensureSession() {
      if (session) return session;
      const made = (async (): Promise<string> => {
        try {
          return (await sdk.account.get()).$id;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 401) throw toAppError(error);
        }
        const created = await call('start the checkout', () =>
          sdk.account.createAnonymousSession(),
        );
        // The tab's socket, opened for the menu before there was a session, still speaks as a
        // guest: it is opened again, so the customer's own order reaches it.
        await follows.reopen();
        return created.userId;
      })();
      session = made;
      // A failure is not kept: the next call tries again.
      made.catch(() => {
        if (session === made) session = null;
      });
      return made;
    },

    async listProducts() {
      const list = await call('load the catalog', () =>
        sdk.databases.listDocuments<Models.DefaultDocument>({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.products,
          queries: [
            Query.equal('active', true),
            Query.orderAsc('sortOrder'),
            Query.orderAsc('name'),
            Query.limit(200),
          ],
        }),
      );
      return list.documents.map((doc) => productFromDocument(doc));
    },

    productImageUrl(fileId, size) {
      return storage.getFilePreview({
        bucketId: BUCKETS.productImages,
        fileId,
        width: size,
        height: size,
        output: ImageFormat.Webp,
      });
    },

    async checkout(request) {
      const execution = await executeFunction(
        sdk.functions,
        'check out',
        FUNCTIONS.checkout,
        request,
      );
      return parseFunctionAnswer(execution, isCheckoutAnswer);
    },

    async readOrder(orderId) {
      const doc = await call('see this order', () =>
        sdk.databases.getDocument<Models.DefaultDocument>({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.orders,
          documentId: orderId,
        }),
      );
      return orderFromDocument(doc as unknown as OrderDocument);
    },

    followProducts(onProduct) {
      const channel = `databases.${DATABASE_ID}.collections.${COLLECTIONS.products}.documents`;
      return follows.follow(channel, (payload) => {
        if (payload.$id) onProduct(productFromDocument(payload as unknown as Models.Document));
      });
    },

    followOrder(orderId, onOrder) {
      const channel = `databases.${DATABASE_ID}.collections.${COLLECTIONS.orders}.documents.${orderId}`;
      return follows.follow(channel, (payload) => {
        if (payload.$id === orderId)
          onOrder(orderFromDocument(payload as unknown as OrderDocument));
      });
    },
  };
}

/**
 * The shop's realtime follows on the tab's connection, kept so that they can be made again when
 * the connection is: a session made after it opened (the first checkout) is heard only by a new
 * socket (the SDK authenticates a socket once, as it opens).
 */
function createFollows(realtime: ShopSdk['realtime']) {
  type Follow = {
    channel: string;
    onPayload: (payload: Record<string, unknown>) => void;
    subscription: Promise<{ unsubscribe(): unknown }>;
  };
  const active = new Set<Follow>();
  const subscribe = (entry: Pick<Follow, 'channel' | 'onPayload'>) =>
    realtime.subscribe<Record<string, unknown>>([entry.channel], (event) => {
      if (active.has(entry as Follow) && event.payload) entry.onPayload(event.payload);
    });
  return {
    /** Follows `channel`; resolves, with the end of it, once the subscription is made. */
    async follow(
      channel: string,
      onPayload: (payload: Record<string, unknown>) => void,
    ): Promise<() => void> {
      const entry = { channel, onPayload } as Follow;
      active.add(entry);
      entry.subscription = subscribe(entry);
      await entry.subscription;
      return () => {
        if (!active.delete(entry)) return;
        void entry.subscription.then((made) => made.unsubscribe()).catch(() => {});
      };
    },
    /** Opens the connection again (as the session now is), with every follow still wanted. */
    async reopen(): Promise<void> {
      if (active.size === 0) return;
      await realtime.disconnect();
      for (const entry of active) entry.subscription = subscribe(entry);
      await Promise.all([...active].map((entry) => entry.subscription));
    },
  };
}
