import type { AppwriteException } from 'appwrite';
import {
  Account,
  Channel,
  Client as WebClient,
  ID,
  Permission,
  Presences,
  Query,
  Role,
} from 'appwrite';
import { Account as ServerAccount, Teams } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import NodeWebSocket from 'ws';
import {
  installBrowserGlobals,
  RecordingWebSocket,
  sleep,
  socketOf,
  storage,
  until,
} from '../support/browser.ts';
import {
  backend,
  beforeAllOnTarget,
  guestServerClient,
  serverClient,
  uniqueTestId,
  webClient,
} from '../support/clients.ts';
import {
  acks,
  closeAll,
  createWebUser,
  listen,
  rawSocket,
  realtimeFor,
} from '../support/realtime.ts';

installBrowserGlobals();

/** How long "nothing arrives" is watched for after the event reached someone who may read it. */
const QUIET_MS = 300;

async function teamWith(...members: { userId: string }[]): Promise<string> {
  const teams = new Teams(serverClient());
  const team = await teams.create({ teamId: uniqueTestId('rtteam'), name: 'Desk' });
  for (const member of members) {
    await teams.createMembership({ teamId: team.$id, roles: ['staff'], userId: member.userId });
  }
  return team.$id;
}

async function renameTeam(teamId: string, name: string): Promise<void> {
  await new Teams(serverClient()).updateName({ teamId, name });
}

describe('realtime (browser SDK)', () => {
  beforeAllOnTarget(() => storage.clear());
  afterEach(async () => {
    await closeAll();
    storage.clear();
  });

  it('connects, authenticates in-band, and delivers one event listing every matching subscription id', async () => {
    const ana = await createWebUser('Ana');
    const teamId = await teamWith(ana);
    const realtime = realtimeFor(ana.client);
    const byTeam = await listen(realtime, Channel.team(teamId).toString());
    const allTeams = await listen(realtime, ['teams', 'teams.update']);
    const memberships = await listen(realtime, 'memberships');

    const socket = socketOf(realtime);
    expect(socket.received[0]).toEqual({
      type: 'connected',
      data: { channels: [], subscriptions: [], user: null },
    });
    const auth = await socket.waitFor((m) => m.data?.to === 'authentication');
    expect(auth.data).toMatchObject({ success: true, user: { $id: ana.userId, name: 'Ana' } });
    expect(byTeam.ack).toEqual({
      subscriptionId: byTeam.id,
      channels: [`teams.${teamId}`],
      queries: [],
    });

    await renameTeam(teamId, 'Front desk');
    await until(() => byTeam.inbox.length > 0 && allTeams.inbox.length > 0, 15_000, 'team event');
    const event = byTeam.inbox[0]!;
    expect(event.payload).toMatchObject({ $id: teamId, name: 'Front desk' });
    expect(event.events).toEqual(
      expect.arrayContaining([
        `teams.${teamId}.update`,
        `teams.${teamId}`,
        'teams.*.update',
        'teams.*',
      ]),
    );
    expect(event.channels).toEqual(
      expect.arrayContaining([
        'teams',
        `teams.${teamId}`,
        'teams.update',
        `teams.${teamId}.update`,
      ]),
    );
    expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect([...(event.subscriptions ?? [])].sort()).toEqual([byTeam.id, allTeams.id].sort());
    expect(allTeams.inbox[0]).toEqual(event);
    // one event message on the socket, not one per subscription
    expect(socket.received.filter((m) => m.type === 'event')).toHaveLength(1);
    await sleep(QUIET_MS);
    expect(memberships.inbox).toHaveLength(0);
    expect(byTeam.inbox).toHaveLength(1);
  });

  it('delivers only to connections whose roles may read the event', async () => {
    const ana = await createWebUser('Ana');
    const ben = await createWebUser('Ben');
    const teamId = await teamWith(ana);
    const member = await listen(realtimeFor(ana.client), ['teams', `teams.${teamId}`]);
    const outsider = await listen(realtimeFor(ben.client), ['teams', `teams.${teamId}`]);
    const guest = await listen(realtimeFor(webClient()), ['teams', `teams.${teamId}`]);

    await renameTeam(teamId, 'Kitchen');
    await until(() => member.inbox.length === 1, 15_000, 'the member to receive the event');
    await sleep(QUIET_MS);
    expect(outsider.inbox).toHaveLength(0);
    expect(guest.inbox).toHaveLength(0);

    // Roles follow membership changes: once Ben joins, he receives the next event.
    await new Teams(serverClient()).createMembership({
      teamId,
      roles: ['staff'],
      userId: ben.userId,
    });
    await renameTeam(teamId, 'Kitchen 2');
    await until(() => outsider.inbox.length === 1, 15_000, 'the new member to receive the event');
    expect(outsider.inbox[0]!.payload).toMatchObject({ name: 'Kitchen 2' });
    expect(guest.inbox).toHaveLength(0);
  });

  it('filters events with realtime queries evaluated against the payload', async () => {
    const ana = await createWebUser('Ana');
    const teamId = await teamWith(ana);
    const realtime = realtimeFor(ana.client);
    const named = await listen(realtime, `teams.${teamId}`, [Query.equal('name', ['Match'])]);
    const either = await listen(realtime, `teams.${teamId}`, [
      Query.or([Query.equal('name', ['Other']), Query.greaterThan('total', 5)]),
    ]);
    const big = await listen(realtime, `teams.${teamId}`, [
      Query.and([Query.greaterThanEqual('total', 1), Query.isNotNull('name')]),
      Query.notEqual('name', ['Match']),
    ]);
    expect(named.ack.queries).toEqual([
      JSON.stringify({ method: 'equal', attribute: 'name', values: ['Match'] }),
    ]);

    await renameTeam(teamId, 'Other');
    await renameTeam(teamId, 'Match');
    await until(
      () => named.inbox.length === 1 && either.inbox.length === 1,
      15_000,
      'filtered events',
    );
    await sleep(QUIET_MS);
    expect(named.inbox.map((e) => e.payload.name)).toEqual(['Match']);
    expect(either.inbox.map((e) => e.payload.name)).toEqual(['Other']);
    expect(big.inbox.map((e) => e.payload.name)).toEqual(['Other']);
    expect(named.inbox[0]!.subscriptions).toEqual([named.id]);
  });

  it('answers a query method realtime does not support with error 1003 and keeps the socket', async () => {
    const ana = await createWebUser('Ana');
    const realtime = realtimeFor(ana.client);
    const errors: [string, number | undefined][] = [];
    realtime.onError((error, code) => errors.push([error?.message ?? '', code]));
    const ok = await listen(realtime, 'teams');
    await realtime.subscribe('teams', () => undefined, [Query.contains('name', ['x'])]);
    await until(() => errors.length > 0, 15_000, 'an error');
    expect(errors[0]).toEqual([
      "Invalid query: Query method 'contains' is not supported in Realtime queries. Allowed: equal, notEqual, lessThan, lessThanEqual, greaterThan, greaterThanEqual, isNull, isNotNull, and, or, select",
      1003,
    ]);
    const socket = socketOf(realtime);
    socket.send(JSON.stringify({ type: 'ping' }));
    await socket.waitFor((m) => m.type === 'pong');
    expect(socket.readyState).toBe(WebSocket.OPEN);
    expect(ok.ack.channels).toEqual(['teams']);
  });

  it('stops delivering to a subscription once it is unsubscribed', async () => {
    const ana = await createWebUser('Ana');
    const teamId = await teamWith(ana);
    const realtime = realtimeFor(ana.client);
    const leaving = await listen(realtime, `teams.${teamId}`);
    const staying = await listen(realtime, `teams.${teamId}`);
    await leaving.unsubscribe();
    const response = await socketOf(realtime).waitFor((m) => m.data?.to === 'unsubscribe');
    expect(response.data).toEqual({
      to: 'unsubscribe',
      success: true,
      subscriptions: [{ subscriptionId: leaving.id, removed: true }],
    });
    await renameTeam(teamId, 'After');
    await until(() => staying.inbox.length === 1, 15_000, 'the remaining subscription');
    expect(staying.inbox[0]!.subscriptions).toEqual([staying.id]);
    await sleep(QUIET_MS);
    expect(leaving.inbox).toHaveLength(0);
  });

  it('replaces a subscription re-sent with the same id (the SDK’s update)', async () => {
    const ana = await createWebUser('Ana');
    const teamId = await teamWith(ana);
    const realtime = realtimeFor(ana.client);
    const sub = await listen(realtime, 'memberships');
    await sub.update({ channels: [`teams.${teamId}`], queries: [Query.equal('name', ['Yes'])] });
    const replaced = await socketOf(realtime).waitFor(
      (m) => acks(m).get(sub.id)?.channels[0] === `teams.${teamId}`,
    );
    expect(acks(replaced).get(sub.id)!.queries).toHaveLength(1);
    await renameTeam(teamId, 'No');
    await renameTeam(teamId, 'Yes');
    await until(() => sub.inbox.length === 1, 15_000, 'the event for the replaced subscription');
    await sleep(QUIET_MS);
    expect(sub.inbox.map((e) => e.payload.name)).toEqual(['Yes']);
  });

  it('binds the account channel to the signed-in user and drops other users’ account channels', async () => {
    const ana = await createWebUser('Ana');
    const ben = await createWebUser('Ben');
    const realtime = realtimeFor(ana.client);
    const mine = await listen(realtime, ['account', `account.${ben.userId}`, 'account.update']);
    expect(mine.ack.channels).toEqual([
      'account',
      `account.${ana.userId}`,
      `account.${ana.userId}.update`,
    ]);
    const bens = await listen(realtimeFor(ben.client), 'account');

    // A new session of Ana's is an account event (users.<id>.sessions.<id>.create).
    const session = await new Account(webClient()).createEmailPasswordSession({
      email: ana.email,
      password: ana.password,
    });
    storage.clear(); // that sign-in left its cookie fallback for every browser client here
    await until(() => mine.inbox.length === 1, 15_000, 'the account event');
    expect(mine.inbox[0]!.events).toContain(`users.${ana.userId}.sessions.${session.$id}.create`);
    expect(mine.inbox[0]!.payload).toMatchObject({ $id: session.$id, userId: ana.userId });
    expect(mine.inbox[0]!.channels).toEqual(['account', `account.${ana.userId}`]);
    await sleep(QUIET_MS);
    expect(bens.inbox).toHaveLength(0);
  });

  it('takes the identity from a JWT in the URL and answers connected with the Account', async () => {
    const ana = await createWebUser('Ana');
    const { jwt } = await new Account(ana.client).createJWT();
    const client = new WebClient()
      .setEndpoint(backend().endpoint)
      .setProject(backend().projectId)
      .setJWT(jwt);
    const realtime = realtimeFor(client);
    await listen(realtime, 'account');
    const socket = socketOf(realtime);
    expect(socket.url).toContain(`jwt=${encodeURIComponent(jwt)}`);
    expect(socket.received[0]).toMatchObject({
      type: 'connected',
      data: { user: { $id: ana.userId, name: 'Ana', email: expect.any(String) } },
    });
    expect(socket.received.some((m) => m.data?.to === 'authentication')).toBe(false);
  });

  it('takes the identity on open from the session cookie, X-Appwrite-Session or X-Fallback-Cookies', async () => {
    const ana = await createWebUser('Ana');
    const { endpoint, projectId, apiKey } = backend();
    const url = `${endpoint.replace(/^http/, 'ws')}/realtime?project=${projectId}`;
    const cookie = `a_session_${projectId}`;
    const connectedUser = (headers: Record<string, string>) =>
      new Promise<unknown>((resolve, reject) => {
        const socket = new NodeWebSocket(url, { headers });
        socket.once('message', (data) => {
          socket.close();
          resolve((JSON.parse(String(data)) as { data: { user: unknown } }).data.user);
        });
        socket.once('error', reject);
      });
    const expected = expect.objectContaining({ $id: ana.userId, name: 'Ana' });
    expect(await connectedUser({ Cookie: `${cookie}=${encodeURIComponent(ana.secret)}` })).toEqual(
      expected,
    );
    expect(await connectedUser({ 'X-Appwrite-Session': ana.secret })).toEqual(expected);
    expect(
      await connectedUser({ 'X-Fallback-Cookies': JSON.stringify({ [cookie]: ana.secret }) }),
    ).toEqual(expected);
    // an API key is not a realtime credential: the socket is a guest
    expect(await connectedUser({ 'X-Appwrite-Key': apiKey })).toBeNull();
    expect(await connectedUser({ 'X-Appwrite-Session': 'not-a-session' })).toBeNull();
  });

  it('authenticates from the localStorage cookie fallback after an email/password sign-in', async () => {
    const email = `${uniqueTestId('rtcf')}@example.test`;
    const account = new Account(webClient());
    const user = await account.create({ userId: ID.unique(), email, password: 'password-123' });
    await account.createEmailPasswordSession({ email, password: 'password-123' });
    expect(storage.getItem('cookieFallback')).toContain(`a_session_${backend().projectId}`);
    const realtime = realtimeFor(webClient());
    const own = await listen(realtime, 'account');
    // the SDK sends `authentication` right before `subscribe`, so the channel is already bound
    expect(own.ack.channels).toEqual(['account', `account.${user.$id}`]);
    const auth = await socketOf(realtime).waitFor((m) => m.data?.to === 'authentication');
    expect(auth.data?.user).toMatchObject({ $id: user.$id });
    // another sign-in of the same user (a guest server client, so no browser session interferes)
    await new ServerAccount(guestServerClient()).createEmailPasswordSession({
      email,
      password: 'password-123',
    });
    await until(() => own.inbox.length === 1, 15_000, 'the account event');
    expect(own.inbox[0]!.payload).toMatchObject({ userId: user.$id });
  });

  it('answers a bad session, bad JSON and unknown types with error 1003 and keeps the socket open', async () => {
    const socket = await rawSocket();
    socket.send('{not json');
    socket.send(JSON.stringify({ type: 'shout', data: {} }));
    socket.send(JSON.stringify({ type: 'authentication', data: { session: 'bogus' } }));
    socket.send(JSON.stringify({ type: 'subscribe', data: { channels: ['teams'] } }));
    socket.send(JSON.stringify({ type: 'ping' }));
    await socket.waitFor((m) => m.type === 'pong');
    const errors = socket.received.filter((m) => m.type === 'error').map((m) => m.data);
    expect(errors).toEqual([
      { code: 1003, message: 'Message format is not valid.' },
      { code: 1003, message: 'Message type is not valid.' },
      { code: 1003, message: 'Session is not valid.' },
      { code: 1003, message: 'items: Payload is not valid.' },
    ]);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('refuses an unknown project with error 1008, closes with 1008, and the SDK does not retry', async () => {
    const client = new WebClient().setEndpoint(backend().endpoint).setProject('no-such-project');
    const realtime = realtimeFor(client);
    const errors: [string, number | undefined][] = [];
    realtime.onError((error, code) => errors.push([error?.message ?? '', code]));
    const before = RecordingWebSocket.all.length;
    await realtime.subscribe('teams', () => undefined);
    const socket = socketOf(realtime);
    expect(await socket.closed()).toBe(1008);
    expect(errors).toEqual([['Missing or unknown project ID', 1008]]);
    await sleep(1500);
    expect(RecordingWebSocket.all.length).toBe(before + 1);

    const missing = await rawSocket(backend(), '');
    expect(missing.received[0]).toEqual({
      type: 'error',
      data: { code: 1008, message: 'Missing or unknown project ID' },
    });
    expect(await missing.closed()).toBe(1008);

    const badJwt = await rawSocket(backend(), `project=${backend().projectId}&jwt=not.a.jwt`);
    expect(badJwt.received[0]).toMatchObject({ type: 'error', data: { code: 401 } });
    expect(await badJwt.closed()).toBe(1008);
  });

  it('supports the legacy URL mode (channels in the query string)', async () => {
    const ana = await createWebUser('Ana');
    const teamId = await teamWith(ana);
    const socket = await rawSocket(
      backend(),
      `project=${backend().projectId}&channels[]=teams.${teamId}&channels[]=account`,
    );
    const connected = socket.received[0]!;
    expect(connected.data).toMatchObject({ channels: [`teams.${teamId}`, 'account'], user: null });
    const [subscriptionId] = connected.data!.subscriptions as string[];
    socket.send(JSON.stringify({ type: 'authentication', data: { session: ana.secret } }));
    await socket.waitFor((m) => m.data?.to === 'authentication');
    await renameTeam(teamId, 'Legacy');
    const event = await socket.waitFor((m) => m.type === 'event');
    expect(event.data).toMatchObject({
      payload: { name: 'Legacy' },
      subscriptions: [subscriptionId],
    });
    socket.close();
  });

  it('shares presence with readers, lists it over REST, and removes it when the socket closes', async () => {
    const ana = await createWebUser('Ana');
    const ben = await createWebUser('Ben');
    const carl = await createWebUser('Carl');
    const teamId = await teamWith(ana, ben);
    const watching = await listen(realtimeFor(ana.client), 'presences');
    const outsider = await listen(realtimeFor(carl.client), 'presences');

    const benRealtime = realtimeFor(ben.client);
    await benRealtime.upsertPresence({
      presenceId: ID.unique(),
      status: 'viewing',
      permissions: [Permission.read(Role.team(teamId))],
      metadata: { orderId: 'order-42' },
    });
    const ack = await socketOf(benRealtime).waitFor((m) => m.data?.to === 'presence');
    const presence = ack.data!.presence as Record<string, unknown>;
    expect(presence).toMatchObject({
      userId: ben.userId,
      status: 'viewing',
      source: 'realtime',
      metadata: { orderId: 'order-42' },
      $permissions: [`read("team:${teamId}")`],
    });
    const presenceId = presence.$id as string;

    await until(() => watching.inbox.length === 1, 15_000, 'the presence event');
    const upsert = watching.inbox[0]!;
    expect(upsert.events).toContain(`presences.${presenceId}.upsert`);
    expect(upsert.channels).toEqual(
      expect.arrayContaining(['presences', `presences.${presenceId}`, 'presences.upsert']),
    );
    expect(upsert.payload).toMatchObject({ $id: presenceId, userId: ben.userId });

    const listed = await new Presences(ana.client).list();
    expect(listed.presences.map((p) => p.$id)).toContain(presenceId);
    expect((await new Presences(carl.client).list()).presences.map((p) => p.$id)).not.toContain(
      presenceId,
    );

    await benRealtime.disconnect();
    await until(() => watching.inbox.length === 2, 15_000, 'the presence removal');
    expect(watching.inbox[1]!.events).toContain(`presences.${presenceId}.delete`);
    const gone = await new Presences(ana.client).get({ presenceId }).catch((e: unknown) => e);
    expect((gone as AppwriteException).type).toBe('presence_not_found');
    await sleep(QUIET_MS);
    expect(outsider.inbox).toHaveLength(0);
  });

  it('refuses presence from a guest connection', async () => {
    const realtime = realtimeFor(webClient());
    const errors: [string, number | undefined][] = [];
    realtime.onError((error, code) => errors.push([error?.message ?? '', code]));
    await realtime.upsertPresence({ presenceId: ID.unique(), status: 'online' });
    await until(() => errors.length > 0, 15_000, 'an error');
    expect(errors[0]).toEqual(['User must be authorized', 401]);
  });

  it('serves the Presences REST API with permissions', async () => {
    const ana = await createWebUser('Ana');
    const ben = await createWebUser('Ben');
    const presences = new Presences(ana.client);
    const presenceId = ID.unique();
    const created = await presences.upsert({
      presenceId,
      status: 'online',
      metadata: { page: 'orders' },
    });
    expect(created).toMatchObject({
      $id: presenceId,
      userId: ana.userId,
      status: 'online',
      source: 'rest',
      metadata: { page: 'orders' },
    });
    expect([...created.$permissions].sort()).toEqual([
      `delete("user:${ana.userId}")`,
      `read("user:${ana.userId}")`,
      `update("user:${ana.userId}")`,
    ]);
    // one presence per user: a second upsert updates it and keeps its id
    const again = await presences.upsert({ presenceId: ID.unique(), status: 'away' });
    expect(again).toMatchObject({ $id: presenceId, status: 'away' });
    const updated = await presences.update({ presenceId, status: 'busy' });
    expect(updated.status).toBe('busy');
    const listed = await presences.list({ queries: [Query.equal('userId', [ana.userId])] });
    expect(listed.total).toBe(1);

    const hidden = await new Presences(ben.client).get({ presenceId }).catch((e: unknown) => e);
    expect((hidden as AppwriteException).type).toBe('presence_not_found');
    const refused = await new Presences(ben.client)
      .upsert({
        presenceId: ID.unique(),
        status: 'x',
        permissions: [Permission.read(Role.team('nope'))],
      })
      .catch((e: unknown) => e);
    expect((refused as AppwriteException).type).toBe('user_unauthorized');

    await presences.delete({ presenceId });
    const gone = await presences.get({ presenceId }).catch((e: unknown) => e);
    expect((gone as AppwriteException).code).toBe(404);
  });
});
