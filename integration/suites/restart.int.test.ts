import { ID, Users } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { backend, serverClient, uniqueTestId } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';

describe('a backend restarted or killed keeps its data', () => {
  it('keeps users across restart() and crashAndRestart() (SIGKILL)', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const users = new Users(serverClient(own));
    const create = (name: string) =>
      users.create({
        userId: ID.unique(),
        email: `${uniqueTestId('r')}@example.test`,
        password: 'password-123',
        name,
      });

    const before = await create('Before restart');
    await own.restart();
    expect((await users.get({ userId: before.$id })).name).toBe('Before restart');

    const acknowledged = await create('Before crash');
    await own.crashAndRestart();
    expect((await users.get({ userId: acknowledged.$id })).name).toBe('Before crash');
    expect((await users.get({ userId: before.$id })).name).toBe('Before restart');
  });
});
