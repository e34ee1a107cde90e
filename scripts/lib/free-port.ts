import { createServer } from 'node:net';

/**
 * Where {@link freePort} looks: below the kernel's range of ephemeral ports (32768–60999 on
 * Linux, from 49152 on macOS and Windows), which outgoing connections take their local port from.
 * A port from that range found free could be taken by any connection a moment later — a backend
 * killed and restarted on its port found it "in use" — while one below it stays free for
 * listeners.
 */
export const PORT_RANGE = { first: 20_000, last: 32_767 } as const;

/** Ports this process has handed out (never twice). */
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port on 127.0.0.1 that is free, in {@link PORT_RANGE}, and not handed out before. */
export async function freePort(): Promise<number> {
  const size = PORT_RANGE.last - PORT_RANGE.first + 1;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.first + Math.floor(Math.random() * size);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(
    `No free TCP port on 127.0.0.1 between ${PORT_RANGE.first} and ${PORT_RANGE.last} after 200 tries.`,
  );
}

/** Waits until `GET {endpoint}/health/version` answers, or fails after `timeoutMs` (a hang bound: a busy 2-core machine can take tens of seconds to restart a backend). */
export async function waitForHealth(endpoint: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${endpoint}/health/version`, {
        signal: AbortSignal.timeout(2_000),
      });
      if (response.ok) return;
      lastError = new Error(`status ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `Backend at ${endpoint} did not become healthy within ${timeoutMs} ms: ${String(lastError)}`,
  );
}
