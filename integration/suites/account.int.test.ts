import { Account, AppwriteException, ID } from 'appwrite';
import { Users } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { serverClient, uniqueTestId, webClient } from '../support/clients.ts';

describe('account (browser SDK)', () => {
  it('signs up, signs in with email and password, and reads the account', async () => {
    const account = new Account(webClient());
    const email = `${uniqueTestId('a')}@example.test`;
    const created = await account.create({
      userId: ID.unique(),
      email,
      password: 'password-123',
      name: 'Ana',
    });
    expect(created.email).toBe(email);
    const session = await account.createEmailPasswordSession({ email, password: 'password-123' });
    expect(session.userId).toBe(created.$id);
    expect(session.current).toBe(true);
  });

  it('refuses a wrong password with user_invalid_credentials', async () => {
    const account = new Account(webClient());
    const error = await account
      .createEmailPasswordSession({ email: 'nobody@example.test', password: 'wrong-password' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppwriteException);
    expect((error as AppwriteException).type).toBe('user_invalid_credentials');
    expect((error as AppwriteException).code).toBe(401);
  });

  it('answers a guest asking for the account with general_unauthorized_scope', async () => {
    const error = await new Account(webClient()).get().catch((e: unknown) => e);
    expect((error as AppwriteException).type).toBe('general_unauthorized_scope');
    expect((error as AppwriteException).message).toContain('missing scopes (["account"])');
  });

  it('creates users through the server API', async () => {
    const users = new Users(serverClient());
    const email = `${uniqueTestId('s')}@example.test`;
    const user = await users.create({
      userId: ID.unique(),
      email,
      password: 'password-123',
      name: 'Bo',
    });
    expect((await users.get({ userId: user.$id })).name).toBe('Bo');
  });
});
