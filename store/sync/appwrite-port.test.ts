import { Client, Realtime } from 'appwrite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { createAppwriteRealtimePort, isSubscribeAck, reconnectDelayMs } from './appwrite-port.ts';
import type { RealtimeEvent } from './ports.ts';

describe('reconnectDelayMs (the SDK backoff, PRODUCT.md §8)', () => {
  it.each([
    [0, 1_000],
    [4, 1_000],
    [5, 5_000],
    [14, 5_000],
    [15, 10_000],
    [99, 10_000],
    [100, 60_000],
  ])('attempt %i → %i ms', (attempt, delay) => {
    expect(reconnectDelayMs(attempt)).toBe(delay);
  });
});

describe('isSubscribeAck', () => {
  it('recognizes the server acknowledgement of a subscribe frame', () => {
    expect(isSubscribeAck('{"type":"response","data":{"to":"subscribe","success":true}}')).toBe(
      true,
    );
    expect(isSubscribeAck('{"type":"response","data":{"to":"unsubscribe"}}')).toBe(false);
    expect(isSubscribeAck('{"type":"event","data":{"events":["subscribe"]}}')).toBe(false);
    expect(isSubscribeAck('not json "subscribe"')).toBe(false);
    expect(isSubscribeAck(42)).toBe(false);
  });
});

/**
 * The real SDK against a minimal server of Appwrite's realtime protocol (`connected`,
 * `subscribe` → `response`, `event`), to check what the port makes of the SDK's lifecycle.
 */
describe('createAppwriteRealtimePort with the SDK', () => {
  let server: WebSocketServer;
  let port = 0;
  const sockets: ServerSocket[] = [];
  const subscriptionIds: string[] = [];

  beforeAll(async () => {
    (globalThis as Record<string, unknown>).window ??= {
      setInterval,
      clearInterval,
      setTimeout,
      clearTimeout,
      localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
    };
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as { port: number }).port;
    server.on('connection', (socket) => {
      sockets.push(socket);
      socket.send(JSON.stringify({ type: 'connected', data: { channels: [], user: null } }));
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as {
          type: string;
          data: { subscriptionId: string }[];
        };
        if (message.type !== 'subscribe') return;
        for (const row of message.data) subscriptionIds.push(row.subscriptionId);
        socket.send(
          JSON.stringify({
            type: 'response',
            data: { to: 'subscribe', success: true, subscriptions: message.data },
          }),
        );
      });
    });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function until(predicate: () => boolean, timeoutMs = 4000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it(
    'is active on the acknowledgement, forwards events, closes and reopens with the SDK',
    { timeout: 10_000 },
    async () => {
      const client = new Client()
        .setEndpoint(`http://127.0.0.1:${port}/v1`)
        .setProject('livedesk-test');
      const realtime = new Realtime(client);
      const realtimePort = createAppwriteRealtimePort(realtime, { activationDelayMs: 60_000 });
      const log: string[] = [];
      const events: RealtimeEvent[] = [];
      const channel = 'databases.livedesk.collections.orders.documents';
      const subscription = await realtimePort.subscribe([channel], (event) => events.push(event), {
        onOpen: () => log.push('open'),
        onClose: () => log.push('close'),
      });
      await until(() => log.length === 1);
      expect(log).toEqual(['open']);

      sockets.at(-1)!.send(
        JSON.stringify({
          type: 'event',
          data: {
            events: [`${channel}.o1.update`],
            channels: [channel],
            timestamp: '2026-03-10 12:00:00.000',
            payload: { $id: 'o1' },
            subscriptions: [subscriptionIds.at(-1)],
          },
        }),
      );
      await until(() => events.length === 1);
      expect(events[0]!.payload).toEqual({ $id: 'o1' });

      sockets.at(-1)!.terminate();
      await until(() => log.length === 2);
      expect(log).toEqual(['open', 'close']);
      expect(realtimePort.nextRetryDelayMs()).toBe(1_000);
      // The SDK reconnects after 1 s and subscribes again with the same id.
      await until(() => log.length === 3);
      expect(log).toEqual(['open', 'close', 'open']);
      expect(subscriptionIds.at(-1)).toBe(subscriptionIds[0]);
      await subscription.close();
      await realtime.disconnect();
    },
  );
});
