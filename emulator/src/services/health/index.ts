import type { BackendModule } from '../../backend.ts';
import { routes } from './routes.ts';
import { HealthStore } from './store.ts';

/** Health: the version, public, and the server's status for API keys. */
export const healthModule: BackendModule<'health'> = {
  name: 'health',
  store: () => new HealthStore(),
  routes,
};
