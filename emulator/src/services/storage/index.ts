import type { BackendModule } from '../../backend.ts';
import { routes } from './routes.ts';
import { StorageStore } from './store.ts';

/** The Storage service: buckets. */
export const storageModule: BackendModule<'storage'> = {
  name: 'storage',
  store: (backend) => new StorageStore(backend.store),
  routes,
};
