import {
  AppwriteException,
  Databases as WebDatabases,
  ID,
  Permission,
  Role,
  Storage as WebStorage,
  type Models,
} from 'appwrite';
import { Databases } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { BUCKETS, COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient } from '../support/clients.ts';
import {
  callFunction,
  createTestOrder,
  deskPerson,
  type FunctionAnswer,
  type Person,
} from '../support/desk.ts';
import { ONE_PIXEL_PNG as PNG } from '../support/storage.ts';

installBrowserGlobals();

// Products are written only by product-action (managers and owners, §4.1's rules); the catalog,
// orders, activity and attachments take no client write of any kind.

type ProductAnswer = FunctionAnswer<Record<string, unknown> & { $id: string }>;

const admin = new Databases(serverClient());
const PRODUCTS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.products } as const;

function product(person: Person, body: Record<string, unknown>): Promise<ProductAnswer> {
  return callFunction(person.client, FUNCTIONS.productAction, body) as Promise<ProductAnswer>;
}

const latte = { name: 'Latte', description: 'Milk', priceCents: 380, currency: 'eur' };

function uploadImage(
  person: Person,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<Models.File> {
  return new WebStorage(person.client).createFile({
    bucketId: BUCKETS.productImages,
    fileId: ID.unique(),
    file: new File([bytes], name, { type: 'image/png' }),
  });
}

async function refusal(write: () => Promise<unknown>): Promise<number | 'written'> {
  try {
    await write();
    return 'written';
  } catch (error) {
    if (error instanceof AppwriteException) return error.code;
    throw error;
  }
}

describe('product-action: the catalog written by a function', () => {
  let mia: Person;
  let sam: Person;

  beforeAllOnTarget(async () => {
    [mia, sam] = await Promise.all([
      deskPerson('Mia Catalog', 'manager'),
      deskPerson('Sam Catalog', 'staff'),
    ]);
  });

  it('lets a manager create, edit and archive a product', async () => {
    const productId = ID.unique();
    const created = await product(mia, { action: 'create', productId, product: latte });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ ...latte, active: true, sortOrder: 0, imageFileId: null });
    const edited = await product(mia, {
      action: 'update',
      productId,
      changes: { priceCents: 0, name: 'Latte grande' },
    });
    expect(edited.body).toMatchObject({ priceCents: 0, name: 'Latte grande' });
    const archived = await product(mia, { action: 'archive', productId });
    expect(archived.body).toMatchObject({ active: false });
    expect(await admin.getDocument({ ...PRODUCTS, documentId: productId })).toMatchObject({
      name: 'Latte grande',
      priceCents: 0,
      active: false,
    });
  });

  it('refuses bad fields with a specific message and writes nothing', async () => {
    const productId = ID.unique();
    expect((await product(mia, { action: 'create', productId, product: latte })).status).toBe(200);
    const cases: [Record<string, unknown>, string][] = [
      [{ priceCents: -1 }, 'Enter a price between 0.00 and 10,000.00.'],
      [{ priceCents: 1_000_001 }, 'Enter a price between 0.00 and 10,000.00.'],
      [{ priceCents: 3.5 }, 'Enter a price between 0.00 and 10,000.00.'],
      [{ priceCents: '-1' }, 'Enter a price between 0.00 and 10,000.00.'],
      [{ name: '   ' }, 'Enter a name.'],
      [{ name: 'x'.repeat(81) }, 'Use at most 80 characters.'],
      [{ name: ' Latte ' }, 'Remove the spaces around the name.'],
      [{ description: 'x'.repeat(501) }, 'Use at most 500 characters.'],
      [{ currency: 'EUR' }, 'Use a three-letter currency code such as eur.'],
      [{ active: 'yes' }, 'active must be true or false.'],
      [{ imageFileId: '../etc' }, 'imageFileId must be a file id or null.'],
      [{ imageFileId: 'not-uploaded' }, 'This image is not uploaded. Upload it again.'],
      [{ $permissions: ['write("any")'] }, '"$permissions" cannot be set on a product.'],
    ];
    for (const [changes, message] of cases) {
      const answer = await product(mia, { action: 'update', productId, changes });
      expect([answer.status, answer.body.error?.message], JSON.stringify(changes)).toEqual([
        400,
        message,
      ]);
    }
    const created = await product(mia, {
      action: 'create',
      productId: ID.unique(),
      product: { ...latte, priceCents: -1 },
    });
    expect(created.body.error?.message).toBe('Enter a price between 0.00 and 10,000.00.');
    expect(await admin.getDocument({ ...PRODUCTS, documentId: productId })).toMatchObject(latte);
  });

  it('sets an uploaded image by its file id', async () => {
    const productId = ID.unique();
    await product(mia, { action: 'create', productId, product: latte });
    const file = await uploadImage(mia, 'latte.png', PNG);
    const answer = await product(mia, {
      action: 'update',
      productId,
      changes: { imageFileId: file.$id },
    });
    expect(answer.body).toMatchObject({ imageFileId: file.$id });
  });

  it('refuses an image whose content is not an image (UPLOAD_TYPE), whatever its name says', async () => {
    const productId = ID.unique();
    await product(mia, { action: 'create', productId, product: latte });
    const image = await uploadImage(mia, 'latte.png', PNG);
    await product(mia, { action: 'update', productId, changes: { imageFileId: image.$id } });
    // 18 bytes of plain text named .png: the bucket checks the extension only.
    const fake = await uploadImage(
      mia,
      'fake.png',
      new TextEncoder().encode('this is not a png\n'),
    );
    expect(fake).toMatchObject({ sizeOriginal: 18, mimeType: 'text/plain' });
    const refused = {
      status: 400,
      body: {
        error: {
          code: 'UPLOAD_TYPE',
          message: 'Images up to 5 MB: JPEG, PNG, GIF or WebP.',
        },
      },
    };
    expect(
      await product(mia, { action: 'update', productId, changes: { imageFileId: fake.$id } }),
    ).toMatchObject(refused);
    expect(await admin.getDocument({ ...PRODUCTS, documentId: productId })).toMatchObject({
      imageFileId: image.$id,
    });
    const newId = ID.unique();
    expect(
      await product(mia, {
        action: 'create',
        productId: newId,
        product: { ...latte, imageFileId: fake.$id },
      }),
    ).toMatchObject(refused);
    await expect(admin.getDocument({ ...PRODUCTS, documentId: newId })).rejects.toMatchObject({
      code: 404,
    });
  });

  it('refuses staff (403) and unknown products (404)', async () => {
    const answer = await product(sam, { action: 'create', productId: ID.unique(), product: latte });
    expect(answer).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    const missing = await product(mia, { action: 'archive', productId: 'no-such-product' });
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });

  it('takes no client write on products, orders, activity or attachments, even from a manager', async () => {
    const productId = ID.unique();
    await product(mia, { action: 'create', productId, product: latte });
    const order = await createTestOrder();
    for (const person of [mia, sam]) {
      const web = new WebDatabases(person.client);
      const targets: [string, string, Record<string, unknown>][] = [
        [COLLECTIONS.products, productId, { priceCents: 1 }],
        [COLLECTIONS.orders, order.$id, { status: 'fulfilled' }],
        [COLLECTIONS.activity, `${order.$id}.r0`, { kind: 'note' }],
        [COLLECTIONS.attachments, 'some-attachment', { deleted: true }],
      ];
      for (const [collectionId, documentId, data] of targets) {
        const at = { databaseId: DATABASE_ID, collectionId };
        const what = `${person.name} on ${collectionId}`;
        expect(
          await refusal(() =>
            web.createDocument<Models.DefaultDocument>({
              ...at,
              documentId: ID.unique(),
              data,
              permissions: [Permission.read(Role.any())],
            }),
          ),
          `create: ${what}`,
        ).toBeOneOf([400, 401, 403]);
        expect(
          await refusal(() =>
            web.updateDocument<Models.DefaultDocument>({ ...at, documentId, data }),
          ),
          `update: ${what}`,
        ).toBeOneOf([401, 403, 404]);
        expect(
          await refusal(() => web.deleteDocument({ ...at, documentId })),
          `delete: ${what}`,
        ).toBeOneOf([401, 403, 404]);
      }
    }
    expect(await admin.getDocument({ ...PRODUCTS, documentId: productId })).toMatchObject({
      priceCents: 380,
    });
    const read = await admin.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: order.$id,
    });
    expect(read).toMatchObject({ status: 'paid', rev: 0 });
  });
});
