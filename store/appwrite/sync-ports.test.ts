import { Client, Realtime } from 'appwrite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { createAppwriteRealtimePort, isSubscribeAck, reconnectDelayMs } from './sync-ports.ts';
import type { RealtimeEvent } from '../sync/ports.ts';

describe('reconnectDelayMs (the SDK backoff, docs/product.md §9)', () => {
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
  /** Each subscribe frame's rows, in order; acknowledged after `ackDelayMs`. */
  const subscribes: { subscriptionId: string; queries?: string[] }[][] = [];
  let ackDelayMs = 0;
  let acks = 0;

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
          data: { subscriptionId: string; queries?: string[] }[];
        };
        if (message.type !== 'subscribe') return;
        for (const row of message.data) subscriptionIds.push(row.subscriptionId);
        subscribes.push(message.data);
        setTimeout(() => {
          acks++;
          socket.send(
            JSON.stringify({
              type: 'response',
              data: { to: 'subscribe', success: true, subscriptions: message.data },
            }),
          );
        }, ackDelayMs);
      });
    });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** The SDK on the protocol server, and the port over it (activation on acknowledgement only). */
  function connect() {
    const client = new Client()
      .setEndpoint(`http://127.0.0.1:${port}/v1`)
      .setProject('livedesk-test');
    const realtime = new Realtime(client);
    return {
      realtime,
      realtimePort: createAppwriteRealtimePort(realtime, { activationDelayMs: 60_000 }),
    };
  }

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
      const { realtime, realtimePort } = connect();
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

  it(
    'on an open socket, a subscription with queries and its updates resolve once the server acknowledged them',
    { timeout: 10_000 },
    async () => {
      const { realtime, realtimePort } = connect();
      let opened = 0;
      const handlers = { onOpen: () => opened++, onClose: () => {} };
      const main = await realtimePort.subscribe(
        ['databases.livedesk.collections.orders.documents'],
        () => {},
        handlers,
      );
      await until(() => opened === 1);

      ackDelayMs = 300;
      const before = acks;
      const equalO1 = '{"method":"equal","attribute":"orderId","values":["o1"]}';
      const details = await realtimePort.subscribe(
        ['databases.livedesk.collections.notes.documents'],
        () => {},
        { onOpen: () => {}, onClose: () => {} },
        [equalO1],
      );
      expect(acks).toBe(before + 1);
      expect(subscribes.at(-1)!.at(-1)!.queries).toEqual([equalO1]);

      const equalO1O2 = '{"method":"equal","attribute":"orderId","values":["o1","o2"]}';
      await details.update([equalO1O2]);
      expect(acks).toBe(before + 2);
      expect(subscribes.at(-1)!.at(-1)!.queries).toEqual([equalO1O2]);

      ackDelayMs = 0;
      await details.close();
      await main.close();
      await realtime.disconnect();
    },
  );
});
