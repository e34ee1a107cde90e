import { AppwriteException, Databases as WebDatabases, Permission, Query, Role } from 'appwrite';
import { Databases, ID } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { listDocumentsViaBlob } from '../../store/index.ts';
import { sleep } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient, uniqueTestId, webClient } from '../support/clients.ts';

/** The snapshot's page reader answers as the SDK's `listDocuments`, errors included. */
describe('listDocumentsViaBlob (the snapshot page reader)', () => {
  const databases = () => new Databases(serverClient());
  let databaseId = '';
  let collectionId = '';

  beforeAllOnTarget(async () => {
    databaseId = (await databases().create({ databaseId: uniqueTestId('pg'), name: 'Pages' })).$id;
    collectionId = uniqueTestId('pgcol');
    await databases().createCollection({
      databaseId,
      collectionId,
      name: 'Orders',
      permissions: [Permission.read(Role.any())],
    });
    await databases().createStringAttribute({
      databaseId,
      collectionId,
      key: 'customerName',
      size: 64,
      required: false,
    });
    await databases().createIntegerAttribute({
      databaseId,
      collectionId,
      key: 'totalCents',
      required: false,
    });
    for (let attempt = 0; attempt < 100; attempt++) {
      const { attributes } = (await databases().listAttributes({ databaseId, collectionId })) as {
        attributes: { status: string }[];
      };
      if (attributes.every((a) => a.status === 'available')) break;
      await sleep(50);
    }
    for (let i = 0; i < 30; i++)
      await databases().createDocument({
        databaseId,
        collectionId,
        documentId: ID.unique(),
        data: { customerName: `Customer ${i} — Zoë`, totalCents: 1000 + i },
      });
  });

  it('reads the same page as listDocuments, cursor and limit included', async () => {
    const sdk = new WebDatabases(webClient());
    const first = await sdk.listDocuments({ databaseId, collectionId, queries: [Query.limit(10)] });
    const queries = [Query.limit(12), Query.cursorAfter(first.documents[9]!.$id)];
    const expected = await sdk.listDocuments({ databaseId, collectionId, queries, total: false });
    const page = await listDocumentsViaBlob(webClient(), {
      databaseId,
      collectionId,
      queries,
      total: false,
    });
    expect(page.documents).toHaveLength(12);
    expect(JSON.parse(JSON.stringify(page))).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('throws what the SDK throws for a collection that is not there and for a bad query', async () => {
    const sdk = new WebDatabases(webClient());
    for (const params of [
      { databaseId, collectionId: 'nothing-here', queries: [Query.limit(1)] },
      { databaseId, collectionId, queries: [Query.limit(-1)] },
    ]) {
      const expected = await sdk.listDocuments(params).then(
        () => null,
        (error: unknown) => error,
      );
      const thrown = await listDocumentsViaBlob(webClient(), params).then(
        () => null,
        (error: unknown) => error,
      );
      expect(expected).toBeInstanceOf(AppwriteException);
      expect(thrown).toBeInstanceOf(AppwriteException);
      const { code, type, message } = expected as AppwriteException;
      expect(thrown).toMatchObject({ code, type, message });
      expect(code).toBeGreaterThanOrEqual(400);
    }
  });

  it('keeps an integer beyond 2^53 exact, as the SDK does (a BigInt)', async () => {
    const bigId = uniqueTestId('pgbig');
    await databases().createCollection({
      databaseId,
      collectionId: bigId,
      name: 'Big',
      permissions: [Permission.read(Role.any())],
    });
    await databases().createIntegerAttribute({
      databaseId,
      collectionId: bigId,
      key: 'big',
      required: false,
      min: -(2 ** 62),
      max: 2 ** 62,
    });
    for (let attempt = 0; attempt < 100; attempt++) {
      const { attributes } = (await databases().listAttributes({
        databaseId,
        collectionId: bigId,
      })) as { attributes: { status: string }[] };
      if (attributes.every((a) => a.status === 'available')) break;
      await sleep(50);
    }
    await databases().createDocument({
      databaseId,
      collectionId: bigId,
      documentId: ID.unique(),
      data: { big: 2n ** 60n },
    });
    const params = { databaseId, collectionId: bigId, queries: [Query.limit(10)] };
    const page = await listDocumentsViaBlob(webClient(), params);
    const expected = await new WebDatabases(webClient()).listDocuments(params);
    expect((page.documents[0] as Record<string, unknown>)['big']).toBe(2n ** 60n);
    expect(page.documents).toEqual(expected.documents);
  });
});
