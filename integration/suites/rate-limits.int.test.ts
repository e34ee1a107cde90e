import type { AppwriteException } from 'appwrite';
import { Account, Databases as WebDatabases } from 'appwrite';
import { Databases, ID, Permission, Role, Users } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { backend, serverClient, uniqueTestId, webClient } from '../support/clients.ts';
import { caught, createCollection } from '../support/databases.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { createWebUser } from '../support/realtime.ts';
import type { BackendConnection } from '../targets/types.ts';

// Appwrite 1.9.6's abuse limits (app/controllers/shared/api.php, utopia-php/abuse TimeLimit):
// fixed windows, request N+1 refused with 429 general_rate_limit_exceeded and not counted,
// X-RateLimit-* headers on limited routes, API keys exempt, _APP_OPTIONS_ABUSE=disabled turns the
// checks off. These tests start a backend with the limits on (the suites' backend has them off,
// as Appwrite's CI does) and move its clock with the test switch to end a window.

const MESSAGE =
  'Rate limit for the current endpoint has been exceeded. Please try again after some time.';

/** Moves the backend's clock of rate-limit windows and expiries forward (test switch); its time in ms. */
async function advanceClock(connection: BackendConnection, seconds: number): Promise<number> {
  const response = await fetch(`${connection.endpoint.replace(/\/v1$/, '')}/_emulator/clock`, {
    method: 'POST',
    headers: { 'x-appwrite-key': connection.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(response.status).toBe(200);
  return Date.parse(((await response.json()) as { now: string }).now);
}

/**
 * Moves the clock to the start of the next hour, which starts every window (they are aligned to
 * the epoch), so a burst of requests does not straddle two windows.
 */
async function startWindows(connection: BackendConnection): Promise<void> {
  const now = Math.floor((await advanceClock(connection, 0)) / 1000);
  await advanceClock(connection, 3600 - (now % 3600));
}

function signIn(connection: BackendConnection, email: string, password: string) {
  return fetch(`${connection.endpoint}/account/sessions/email`, {
    method: 'POST',
    headers: { 'x-appwrite-project': connection.projectId, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

describe('rate limits (abuse) as Appwrite has them', () => {
  it('email sessions: 10 attempts an hour per email, the 11th refused with 429; a window ends; 201 starts again', async (context) => {
    await using own = await startOwnBackend({ abuse: true });
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const users = new Users(serverClient(own));
    const email = `${uniqueTestId('rl')}@example.test`;
    await users.create({ userId: ID.unique(), email, password: 'password-123' });
    await startWindows(own);

    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await signIn(own, email, 'wrong-password');
      expect(response.status).toBe(401);
      expect(response.headers.get('x-ratelimit-limit')).toBe('10');
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const refused = await signIn(own, email, 'password-123');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset % 3600).toBe(0);
    expect(await refused.json()).toMatchObject({
      code: 429,
      type: 'general_rate_limit_exceeded',
      message: MESSAGE,
    });
    // The key is the email: another address is not limited.
    expect((await signIn(own, `other-${email}`, 'wrong-password')).status).toBe(401);
    // The browser SDK sees the same error.
    const browser = await new Account(webClient(own))
      .createEmailPasswordSession({ email, password: 'password-123' })
      .catch((e: unknown) => e);
    expect([(browser as AppwriteException).code, (browser as AppwriteException).type]).toEqual([
      429,
      'general_rate_limit_exceeded',
    ]);

    await startWindows(own);
    for (let i = 0; i < 5; i++) expect((await signIn(own, email, 'wrong')).status).toBe(400);
    // A successful sign-in (201) starts the counter again: 10 more attempts are allowed.
    expect((await signIn(own, email, 'password-123')).status).toBe(201);
    for (let i = 0; i < 10; i++)
      expect((await signIn(own, email, 'wrong-password')).status).toBe(401);
    expect((await signIn(own, email, 'wrong-password')).status).toBe(429);
  });

  it('document writes: 120 creates a minute per user, 60 deletes; the refused write changes nothing; API keys are exempt', async (context) => {
    await using own = await startOwnBackend({ abuse: true });
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const databases = new Databases(serverClient(own));
    await databases.create({ databaseId: 'rl', name: 'Rate limits' });
    const collectionId = await createCollection(databases, 'rl', {
      id: 'notes',
      permissions: [Permission.create(Role.users()), Permission.read(Role.users())],
      documentSecurity: true,
      attributes: [{ type: 'string', key: 'body', size: 40 }],
    });
    const ids = { databaseId: 'rl', collectionId };
    const user = await createWebUser('Flooder', own);
    const asUser = new WebDatabases(user.client);
    await startWindows(own);
    for (let i = 0; i < 120; i++)
      await asUser.createDocument({ ...ids, documentId: `n${i}`, data: { body: `note ${i}` } });
    const refused = await caught(
      asUser.createDocument({ ...ids, documentId: 'n120', data: { body: 'one too many' } }),
    );
    expect([refused.code, refused.type, refused.message]).toEqual([
      429,
      'general_rate_limit_exceeded',
      MESSAGE,
    ]);
    expect((await caught(databases.getDocument({ ...ids, documentId: 'n120' }))).type).toBe(
      'document_not_found',
    );
    // Another user has a counter of their own.
    const other = await createWebUser('Other', own);
    await new WebDatabases(other.client).createDocument({
      ...ids,
      documentId: 'o1',
      data: { body: 'mine' },
    });
    // API keys are never limited, but see the headers.
    const keyed = await fetch(
      `${own.endpoint}/databases/rl/collections/${collectionId}/documents`,
      {
        method: 'POST',
        headers: {
          'x-appwrite-project': own.projectId,
          'x-appwrite-key': own.apiKey,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ documentId: 'k0', data: { body: 'by key' } }),
      },
    );
    expect(keyed.status).toBe(201);
    expect(keyed.headers.get('x-ratelimit-limit')).toBe('120');
    for (let i = 1; i < 130; i++)
      await databases.createDocument({ ...ids, documentId: `k${i}`, data: { body: 'key' } });

    // Deletes: 60 a minute.
    for (let i = 0; i < 60; i++) await asUser.deleteDocument({ ...ids, documentId: `n${i}` });
    const deleteRefused = await caught(asUser.deleteDocument({ ...ids, documentId: 'n60' }));
    expect(deleteRefused.code).toBe(429);
    expect((await databases.getDocument({ ...ids, documentId: 'n60' })).body).toBe('note 60');

    await startWindows(own);
    await asUser.createDocument({ ...ids, documentId: 'n120', data: { body: 'next minute' } });
    await asUser.deleteDocument({ ...ids, documentId: 'n60' });
    // n60…n120 less n60 (60), o1, and k0…k129.
    expect((await databases.listDocuments({ ...ids })).total).toBe(60 + 1 + 130);
  });

  it('anonymous sessions: 50 an hour per address; account creation: 10 an hour', async (context) => {
    await using own = await startOwnBackend({ abuse: true });
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const anonymous = () =>
      fetch(`${own.endpoint}/account/sessions/anonymous`, {
        method: 'POST',
        headers: { 'x-appwrite-project': own.projectId },
      });
    await startWindows(own);
    for (let i = 0; i < 50; i++) expect((await anonymous()).status).toBe(201);
    expect((await anonymous()).status).toBe(429);

    const account = new Account(webClient(own));
    for (let i = 0; i < 10; i++)
      await account.create({
        userId: ID.unique(),
        email: `${uniqueTestId('su')}@example.test`,
        password: 'password-123',
      });
    const refused = (await account
      .create({ userId: ID.unique(), email: 'late@example.test', password: 'password-123' })
      .catch((e: unknown) => e)) as AppwriteException;
    expect(refused.code).toBe(429);
    const users = await new Users(serverClient(own)).list();
    expect(users.users.some((user) => user.email === 'late@example.test')).toBe(false);
  });

  it('with abuse disabled (the suites backend) nothing is refused, and the headers are still sent', async () => {
    const connection = backend();
    const email = `${uniqueTestId('nd')}@example.test`;
    let last: Response | null = null;
    for (let i = 0; i < 12; i++) {
      last = await signIn(connection, email, 'wrong-password');
      expect(last.status).toBe(401);
    }
    expect(last!.headers.get('x-ratelimit-limit')).toBe('10');
  });
});
