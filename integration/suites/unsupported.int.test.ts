import { Avatars, Locale } from 'appwrite';
import { Databases } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { backend, serverClient, webClient } from '../support/clients.ts';
import { caught, raw, scratchDatabase } from '../support/databases.ts';

// What the local backend does not serve of Appwrite's API answers an error naming the feature
// (405 general_not_implemented with the SDK method, as Appwrite answers what it has not
// implemented), never a bare 404; paths Appwrite does not have stay 404 general_route_not_found.
// A real Appwrite serves these routes, so the suite runs on the local backend's targets only.
const LOCAL_KINDS = ['local', 'container'];

describe('routes the local backend does not implement', () => {
  it('names the unsupported feature: locale, avatars, health checks, TablesDB rows', async (context) => {
    if (!LOCAL_KINDS.includes(backend().kind))
      return context.skip('a real Appwrite implements these routes');
    const locale = await caught(new Locale(webClient()).listCountries());
    expect([locale.code, locale.type]).toEqual([405, 'general_not_implemented']);
    expect(locale.message).toBe(
      'GET /v1/locale/countries (locale.listCountries) is not supported by the local backend; docs/emulator-guide.md lists what it serves.',
    );
    const flag = new Avatars(webClient()).getFlag({ code: 'fr' as never });
    const avatar = await fetch(flag);
    expect(avatar.status).toBe(405);
    expect(((await avatar.json()) as { message: string }).message).toContain('avatars.getFlag');
    for (const [path, name] of [
      ['/health/db', 'health.getDB'],
      ['/health/queue/webhooks', 'health.getQueueWebhooks'],
      ['/tablesdb/db/tables/t/rows', 'tablesDB.listRows'],
      ['/messaging/messages', 'messaging.listMessages'],
    ] as const) {
      const response = await raw('GET', path);
      expect([path, response.status, response.body.type]).toEqual([
        path,
        405,
        'general_not_implemented',
      ]);
      expect(response.body.message).toContain(`(${name})`);
    }
    const unknown = await raw('GET', '/no/such/route');
    expect([unknown.status, unknown.body.type]).toEqual([404, 'general_route_not_found']);
  });

  it('refuses relationship, url and ip attributes naming the type', async (context) => {
    if (!LOCAL_KINDS.includes(backend().kind))
      return context.skip('a real Appwrite implements these attribute types');
    const { databases, databaseId } = await scratchDatabase();
    const collection = await databases.createCollection({
      databaseId,
      collectionId: 'unsupported',
      name: 'Unsupported',
    });
    const ids = { databaseId, collectionId: collection.$id };
    const admin = new Databases(serverClient());
    const calls: [string, () => Promise<unknown>][] = [
      ['url', () => admin.createUrlAttribute({ ...ids, key: 'site', required: false })],
      ['ip', () => admin.createIpAttribute({ ...ids, key: 'address', required: false })],
      [
        'relationship',
        () =>
          admin.createRelationshipAttribute({
            ...ids,
            relatedCollectionId: collection.$id,
            type: 'oneToOne' as never,
          }),
      ],
    ];
    for (const [kind, call] of calls) {
      const error = await caught(call());
      expect([error.code, error.type, error.message]).toEqual([
        400,
        'ATTRIBUTE_TYPE_NOT_SUPPORTED',
        `Attribute type '${kind}' is not supported by the local backend.`,
      ]);
    }
  });
});
