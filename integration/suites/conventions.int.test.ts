import { Account, ID, type AppwriteException } from 'appwrite';
import { Client, Project, ProjectKeyScopes, Users } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { backend, serverClient, uniqueTestId, webClient } from '../support/clients.ts';

async function raw(
  path: string,
  init: RequestInit & { project?: string | null } = {},
): Promise<Response> {
  const { endpoint, projectId } = backend();
  const headers = new Headers(init.headers);
  if (init.project !== null) headers.set('X-Appwrite-Project', init.project ?? projectId);
  return fetch(`${endpoint}${path}`, { ...init, headers });
}

describe('REST conventions', () => {
  it('answers /v1/health/version without a project', async () => {
    const response = await raw('/health/version', { project: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ version: expect.stringMatching(/^1\.9\./) });
  });

  it('answers errors as {message, code, type, version}', async () => {
    const response = await raw('/account');
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toEqual({
      message: expect.any(String),
      code: 401,
      type: 'general_unauthorized_scope',
      version: expect.any(String),
    });
  });

  it('refuses an unknown project with project_not_found', async () => {
    const response = await raw('/account', { project: 'no-such-project' });
    expect(response.status).toBe(404);
    expect((await response.json()).type).toBe('project_not_found');
  });

  it('answers an unknown route with general_route_not_found', async () => {
    const response = await raw('/no/such/route');
    expect(response.status).toBe(404);
    expect((await response.json()).type).toBe('general_route_not_found');
  });

  it('refuses malformed JSON with general_argument_invalid, not a 500', async () => {
    const response = await raw('/account', {
      method: 'POST',
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).type).toBe('general_argument_invalid');
  });

  it('refuses a missing required param and a bad email with general_argument_invalid', async () => {
    const noEmail = await raw('/account', {
      method: 'POST',
      body: JSON.stringify({ userId: 'unique()', password: 'password-123' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(noEmail.status).toBe(400);
    expect((await noEmail.json()).message).toBe('Param "email" is not optional.');
    const badEmail = await raw('/account', {
      method: 'POST',
      body: JSON.stringify({ userId: 'unique()', email: 'not-an-email', password: 'password-123' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(badEmail.status).toBe(400);
    expect((await badEmail.json()).message).toContain('Invalid `email` param');
  });

  it('answers CORS preflight and echoes the origin with credentials', async () => {
    const response = await raw('/account', {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-headers')).toContain('X-Fallback-Cookies');
    const get = await raw('/health/version', { headers: { Origin: 'http://127.0.0.1:5173' } });
    expect(get.headers.get('access-control-expose-headers')).toContain('X-Fallback-Cookies');
  });

  it('sets a_session cookies and X-Fallback-Cookies on sign-in, and accepts each of them', async () => {
    const email = `${uniqueTestId('c')}@example.test`;
    await new Account(webClient()).create({ userId: ID.unique(), email, password: 'password-123' });
    const response = await raw('/account/sessions/email', {
      method: 'POST',
      body: JSON.stringify({ email, password: 'password-123' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(201);
    const { projectId } = backend();
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith(`a_session_${projectId}=`))).toBe(true);
    expect(cookies.some((cookie) => cookie.startsWith(`a_session_${projectId}_legacy=`))).toBe(
      true,
    );
    const fallback = JSON.parse(response.headers.get('x-fallback-cookies')!) as Record<
      string,
      string
    >;
    const secret = fallback[`a_session_${projectId}`]!;
    for (const headers of [
      { cookie: `a_session_${projectId}=${secret}` },
      { 'x-fallback-cookies': JSON.stringify({ [`a_session_${projectId}`]: secret }) },
      { 'x-appwrite-session': secret },
    ] as Record<string, string>[]) {
      const me = await raw('/account', { headers });
      expect(me.status).toBe(200);
      expect((await me.json()).email).toBe(email);
    }
    const logout = await raw('/account/sessions/current', {
      method: 'DELETE',
      headers: { 'x-appwrite-session': secret },
    });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('x-fallback-cookies')).toBe('[]');
    expect((await raw('/account', { headers: { 'x-appwrite-session': secret } })).status).toBe(401);
  });

  it('issues JWTs that authenticate as the user, and refuses a forged one', async () => {
    const users = new Users(serverClient());
    const user = await users.create({
      userId: ID.unique(),
      email: `${uniqueTestId('j')}@example.test`,
      password: 'password-123',
      name: 'Jo',
    });
    const session = await users.createSession({ userId: user.$id });
    const { jwt } = await new Account(webClient().setSession(session.secret)).createJWT();
    const account = new Account(webClient().setJWT(jwt));
    expect((await account.get()).$id).toBe(user.$id);
    const forged = await new Account(webClient().setJWT(`${jwt}x`))
      .get()
      .catch((error: unknown) => error);
    expect((forged as AppwriteException).type).toBe('user_jwt_invalid');
  });

  it('refuses an API key that lacks a scope with general_unauthorized_scope', async () => {
    const created = await new Project(serverClient()).createKey({
      keyId: ID.unique(),
      name: 'read users only',
      scopes: [ProjectKeyScopes.UsersRead],
    });
    const { endpoint, projectId } = backend();
    const limited = new Client().setEndpoint(endpoint).setProject(projectId).setKey(created.secret);
    const users = new Users(limited);
    await expect(users.list()).resolves.toMatchObject({ total: expect.any(Number) });
    const error = await users
      .create({
        userId: ID.unique(),
        email: `${uniqueTestId('k')}@example.test`,
        password: 'password-123',
      })
      .catch((e: unknown) => e);
    expect((error as AppwriteException).code).toBe(401);
    expect((error as AppwriteException).type).toBe('general_unauthorized_scope');
    expect((error as AppwriteException).message).toContain('users.write');
  });
});
