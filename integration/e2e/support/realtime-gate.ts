import type { Page } from 'playwright-core';

/** Holds back what the realtime server sends to one page, to make its view stale on purpose. */
export interface RealtimeGate {
  hold(): void;
  /** Delivers everything held, in order, and stops holding. */
  release(): void;
}

/**
 * Routes the page's realtime WebSocket through the test (Playwright `routeWebSocket`): client
 * messages pass straight through; server messages pass unless the gate holds them. Install
 * before the page opens the socket.
 */
export async function gateRealtime(page: Page): Promise<RealtimeGate> {
  let holding = false;
  const held: { send: (message: string | Buffer) => void; message: string | Buffer }[] = [];
  await page.routeWebSocket(/\/v1\/realtime/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (holding) held.push({ send: (m) => ws.send(m), message });
      else ws.send(message);
    });
  });
  return {
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const { send, message } of held.splice(0)) send(message);
    },
  };
}
