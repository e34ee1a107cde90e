import type { BackendModule } from '../../backend.ts';
import { routes } from './routes.ts';
import { UsersStore } from './store.ts';

/** The Users service (API keys only): accounts, their sessions, JWTs and memberships. */
export const usersModule: BackendModule<'users'> = {
  name: 'users',
  store: (backend) => new UsersStore(backend),
  routes,
};
