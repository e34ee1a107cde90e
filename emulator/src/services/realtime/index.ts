import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Backend, BackendModule } from '../../backend.ts';
import { allowSwitch, answerJson } from '../../http/switches.ts';
import type { RealtimeHub } from './hub.ts';
import { routes } from './routes.ts';
import { RealtimeStore } from './store.ts';

/** The test-only switch that cuts every realtime socket (outside `/v1`, bootstrap key only). */
export const DROP_PATH = '/_emulator/realtime/drop';

/** `POST /_emulator/realtime/drop` with `X-Appwrite-Key: <bootstrap key>` → `{dropped: N}`. */
function dropSwitch(backend: Backend, hub: RealtimeHub) {
  return (req: IncomingMessage, res: ServerResponse, url: URL): boolean => {
    if (url.pathname !== DROP_PATH || req.method !== 'POST') return false;
    req.resume();
    if (allowSwitch(backend, req, res)) answerJson(res, 200, { dropped: hub.drop() });
    return true;
  };
}

/**
 * Realtime (`/v1/realtime`, Appwrite's WebSocket protocol) and Presences (`/v1/presences`).
 *
 * Differences from Appwrite, on purpose: no origin/platform check, no abuse limits (1013), no
 * console project channels; an invalid JWT on open answers `error` with its HTTP code and
 * closes with 1008; a `select` other than `select(["*"])` is error 1003 "Invalid query: …"
 * (Appwrite lets it escape as a server error); a repeated `subscriptionId` replaces the
 * subscription's channels and queries (Appwrite adds the new channels to the old ones); a blocked
 * user's socket is a guest's (Appwrite's realtime does not check the user's status).
 */
export const realtimeModule: BackendModule<'realtime'> = {
  name: 'realtime',
  store: (backend) => new RealtimeStore(backend),
  routes,
  attach: (backend, realtime) => {
    // No socket survives a restart, so neither do the presences they held.
    realtime.deleteRealtimePresences();
    const { hub } = realtime;
    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (hub.handleUpgrade(req, socket, head)) return;
      if (backend.server.listenerCount('upgrade') === 1) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
    };
    backend.server.on('upgrade', onUpgrade);
    const unsubscribe = backend.bus.subscribe((event) => hub.deliver(event));
    const stopRoles = backend.auth.roles.onChanged((userId) => hub.refreshUser(userId));
    backend.httpFallbacks.push(dropSwitch(backend, hub));
    return async () => {
      unsubscribe();
      stopRoles();
      backend.server.off('upgrade', onUpgrade);
      await hub.close();
    };
  },
};
