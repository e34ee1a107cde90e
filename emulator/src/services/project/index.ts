import type { BackendModule } from '../../backend.ts';
import { routes } from './routes.ts';
import { ProjectStore } from './store.ts';

/** The Project service: the project's API keys. */
export const projectModule: BackendModule<'project'> = {
  name: 'project',
  store: (backend) => new ProjectStore(backend),
  routes,
};
