import type { BackendModule } from '../backend.ts';
import { APPWRITE_VERSION } from '../http/errors.ts';
import { ok } from '../http/reply.ts';

/** `/v1/health/version`, public, and `/v1/health` for API keys. */
export const healthModule: BackendModule = {
  name: 'health',
  routes: () => [
    {
      method: 'GET',
      path: '/health/version',
      scope: 'public',
      handler: () => ok({ version: APPWRITE_VERSION }),
    },
    {
      method: 'GET',
      path: '/health',
      scope: 'health.read',
      handler: () => ok({ name: 'http', ping: 0, status: 'pass' }),
    },
  ],
};
