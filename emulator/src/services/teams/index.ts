import type { BackendModule } from '../../backend.ts';
import { routes } from './routes.ts';
import { TeamsStore } from './store.ts';

/** The Teams service: teams, memberships with roles, invitations. */
export const teamsModule: BackendModule<'teams'> = {
  name: 'teams',
  store: (backend) => new TeamsStore(backend),
  routes,
};
