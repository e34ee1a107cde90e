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
});
