import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, PORT_RANGE } from './free-port.ts';

describe('freePort', () => {
  it('gives distinct ports below the ephemeral range that a server can listen on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(PORT_RANGE.first);
      expect(port).toBeLessThanOrEqual(PORT_RANGE.last);
    }
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
