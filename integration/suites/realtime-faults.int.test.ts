import { Teams } from 'node-appwrite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { installBrowserGlobals, RecordingWebSocket, socketOf, until } from '../support/browser.ts';
import { backend, beforeAllOnTarget, serverClient, uniqueTestId } from '../support/clients.ts';
import { closeAll, createWebUser, listen, realtimeFor, type WebUser } from '../support/realtime.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import type { StartedBackend } from '../targets/types.ts';

installBrowserGlobals();

/**
 * Faults of the realtime connection, on a backend of the suite's own (cutting sockets or
 * restarting must not disturb suites running in parallel against the shared one). Targets that
 * cannot start one per suite (real Appwrite, remote) skip them; the drop switch exists only in
 * the local backend anyway.
 */
describe('realtime faults (a backend of its own)', () => {
  let started: StartedBackend | null = null;
  let ana: WebUser;
  let teamId: string;
  let renames = 0;

  const rename = () =>
    new Teams(serverClient(started!)).updateName({ teamId, name: `Name ${++renames}` });

  beforeAllOnTarget(async () => {
    started = await startOwnBackend();
    if (!started) return;
    ana = await createWebUser('Ana', started);
    const teams = new Teams(serverClient(started));
    const team = await teams.create({ teamId: uniqueTestId('rtf'), name: 'Desk' });
    teamId = team.$id;
    await teams.createMembership({ teamId, roles: ['staff'], userId: ana.userId });
  });

  afterAll(async () => {
    await started?.stop();
  });

  afterEach(async () => {
    await closeAll();
  });

  it('cuts every socket with the drop switch, and the SDK reconnects and resubscribes', async (context) => {
    if (!started)
      return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const realtime = realtimeFor(ana.client);
    const sub = await listen(realtime, `teams.${teamId}`);
    const first = socketOf(realtime);
    const url = `${started.endpoint.replace(/\/v1$/, '')}/_emulator/realtime/drop`;

    const refused = await fetch(url, { method: 'POST', headers: { 'X-Appwrite-Key': 'wrong' } });
    expect(refused.status).toBe(401);

    const response = await fetch(url, {
      method: 'POST',
      headers: { 'X-Appwrite-Key': started.apiKey },
    });
    expect(await response.json()).toEqual({ dropped: 1 });
    expect(await first.closed()).toBe(1006);

    await until(() => socketOf(realtime) !== first, 15_000, 'a new socket');
    const second = socketOf(realtime);
    await second.waitFor(
      (m) =>
        m.data?.to === 'subscribe' &&
        (m.data.subscriptions as { subscriptionId: string }[]).some(
          (s) => s.subscriptionId === sub.id,
        ),
    );
    await rename();
    await until(() => sub.inbox.length === 1, 15_000, 'an event after reconnecting');
    expect(sub.inbox[0]!.subscriptions).toEqual([sub.id]);
  });

  it('reconnects after the backend restarts and keeps delivering to the same subscription', async (context) => {
    if (!started)
      return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const realtime = realtimeFor(ana.client);
    const sub = await listen(realtime, `teams.${teamId}`);
    const before = socketOf(realtime);
    const count = RecordingWebSocket.all.length;

    await started.restart();
    expect(await before.closed()).toBe(1001);

    // The SDK retries every second; once its new socket is subscribed, a write reaches it.
    await until(
      () =>
        RecordingWebSocket.all
          .slice(count)
          .some((socket) =>
            socket.received.some(
              (m) =>
                m.data?.to === 'subscribe' &&
                (m.data.subscriptions as { subscriptionId: string }[]).some(
                  (s) => s.subscriptionId === sub.id,
                ),
            ),
          ),
      15_000,
      'the SDK to resubscribe after the restart',
    );
    await rename();
    await until(() => sub.inbox.length === 1, 15_000, 'an event published after the restart');
    expect(sub.inbox[0]!.payload).toMatchObject({ $id: teamId, name: `Name ${renames}` });
    expect(sub.inbox[0]!.subscriptions).toEqual([sub.id]);
  });
});
