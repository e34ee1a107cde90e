import type { Duplex } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Backend } from '../../backend.ts';
import { MODULES } from '../../modules.ts';

describe('realtime hub backpressure', () => {
  let backend: Backend;
  let dataDir: string;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'livedesk-rt-'));
    backend = await Backend.start(
      { host: '127.0.0.1', port: 0, dataDir, projectId: 'p', apiKey: 'k'.repeat(20) },
      MODULES,
    );
  });

  afterEach(async () => {
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('cuts a socket that stops reading instead of buffering without bound', async () => {
    const hub = backend.services.realtime.hub;
    const ws = new WebSocket(`ws://127.0.0.1:${backend.port}/v1/realtime?project=p`);
    await new Promise<void>((resolve) => ws.once('message', () => resolve()));
    ws.send(
      JSON.stringify({ type: 'subscribe', data: [{ subscriptionId: 's', channels: ['c'] }] }),
    );
    await new Promise<void>((resolve) => ws.once('message', () => resolve()));
    expect(hub.size).toBe(1);
    // The client stops reading; the server keeps publishing 64 KiB events.
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const blob = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 400 && hub.size > 0; i++) {
      backend.bus.publish({ events: ['e'], channels: ['c'], roles: ['any'], payload: { blob } });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hub.size).toBe(0);
    ws.terminate();
  });

  it("sends a turn's events in one write: the socket is corked until the turn ends, and every frame arrives in order", async () => {
    let serverSocket: Duplex | null = null;
    backend.server.on('upgrade', (_req, socket: Duplex) => (serverSocket = socket));
    const ws = new WebSocket(`ws://127.0.0.1:${backend.port}/v1/realtime?project=p`);
    await new Promise<void>((resolve) => ws.once('message', () => resolve()));
    ws.send(
      JSON.stringify({ type: 'subscribe', data: [{ subscriptionId: 's', channels: ['c'] }] }),
    );
    await new Promise<void>((resolve) => ws.once('message', () => resolve()));
    const received: unknown[] = [];
    const all = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; data: { payload: unknown } };
        if (message.type === 'event') received.push(message.data.payload);
        if (received.length === 20) resolve();
      }),
    );
    for (let i = 0; i < 20; i++)
      backend.bus.publish({ events: ['e'], channels: ['c'], roles: ['any'], payload: { i } });
    expect(serverSocket!.writableCorked).toBe(1);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(serverSocket!.writableCorked).toBe(0);
    await all;
    expect(received).toEqual(Array.from({ length: 20 }, (_, i) => ({ i })));
    ws.terminate();
  });
});
