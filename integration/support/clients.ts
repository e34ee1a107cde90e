import { Client as WebClient } from 'appwrite';
import { Client, ID, Users } from 'node-appwrite';
import { beforeAll, inject } from 'vitest';
import type { BackendConnection } from '../targets/types.ts';

/**
 * Where clients point when the target is not available (a port nothing listens on): the suite's
 * tests are skipped with the reason, and clients made while its file loads must not fail it.
 */
const NO_BACKEND_ENDPOINT = 'http://127.0.0.1:9/v1';

/** The backend the suite runs against. */
export function backend(): BackendConnection {
  const connection = inject('backend');
  return connection.endpoint ? connection : { ...connection, endpoint: NO_BACKEND_ENDPOINT };
}

/**
 * `beforeAll` that runs only when the target is available: otherwise setup.ts skips every test
 * with the reason, and a setup against a backend that is not there must not fail the file.
 */
export function beforeAllOnTarget(setup: () => unknown, timeout?: number): void {
  beforeAll(async () => {
    if (!inject('backendUnavailable')) await setup();
  }, timeout);
}

/** A node-appwrite client with the target's API key (all scopes). */
export function serverClient(connection: BackendConnection = backend()): Client {
  return new Client()
    .setEndpoint(connection.endpoint)
    .setProject(connection.projectId)
    .setKey(connection.apiKey);
}

/** A node-appwrite client without credentials (a guest). */
export function guestServerClient(connection: BackendConnection = backend()): Client {
  return new Client().setEndpoint(connection.endpoint).setProject(connection.projectId);
}

/** A browser-SDK (`appwrite`) client without a session. */
export function webClient(connection: BackendConnection = backend()): WebClient {
  return new WebClient().setEndpoint(connection.endpoint).setProject(connection.projectId);
}

let counter = 0;

/** A unique id for this test run, safe as an Appwrite custom id (≤ 36 chars). */
export function uniqueTestId(prefix = 't'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid.toString(36)}${counter.toString(36)}`.slice(
    0,
    36,
  );
}

/** A user created with the API key, and a node-appwrite client signed in as that user (via a session secret). */
export async function createUserClient(
  options: { name?: string; connection?: BackendConnection } = {},
): Promise<{
  userId: string;
  email: string;
  password: string;
  client: Client;
}> {
  const connection = options.connection ?? backend();
  const users = new Users(serverClient(connection));
  const email = `${uniqueTestId('u')}@example.test`;
  const password = 'correct-horse-battery';
  const user = await users.create({
    userId: ID.unique(),
    email,
    password,
    name: options.name ?? 'Test User',
  });
  const session = await users.createSession({ userId: user.$id });
  const client = new Client()
    .setEndpoint(connection.endpoint)
    .setProject(connection.projectId)
    .setSession(session.secret);
  return { userId: user.$id, email, password, client };
}
