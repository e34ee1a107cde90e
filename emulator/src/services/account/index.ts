import type { BackendModule } from '../../backend.ts';
import { routes } from './routes.ts';
import { AccountStore } from './store.ts';

/** The Account service: the caller's own account, its sessions and JWTs. */
export const accountModule: BackendModule<'account'> = {
  name: 'account',
  store: (backend) => new AccountStore(backend),
  routes,
};
