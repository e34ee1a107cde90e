import type { BackendModules } from './backend.ts';
import { accountModule } from './services/account/index.ts';
import type { AccountStore } from './services/account/store.ts';
import { databasesModule } from './services/databases/index.ts';
import type { DatabasesStore } from './services/databases/store.ts';
import { functionsModule } from './services/functions/index.ts';
import type { FunctionsStore } from './services/functions/store.ts';
import { healthModule } from './services/health/index.ts';
import type { HealthStore } from './services/health/store.ts';
import { projectModule } from './services/project/index.ts';
import type { ProjectStore } from './services/project/store.ts';
import { realtimeModule } from './services/realtime/index.ts';
import type { RealtimeStore } from './services/realtime/store.ts';
import { storageModule } from './services/storage/index.ts';
import type { StorageStore } from './services/storage/store.ts';
import { teamsModule } from './services/teams/index.ts';
import type { TeamsStore } from './services/teams/store.ts';
import { usersModule } from './services/users/index.ts';
import type { UsersStore } from './services/users/store.ts';
import { stripeModule, type StripeService } from '../stripe/module.ts';

/**
 * The store of every service, by name: `backend.services.teams` and so on. This is how handlers
 * and other services reach a service (typed, created once when the backend opens).
 */
export interface Services {
  health: HealthStore;
  account: AccountStore;
  users: UsersStore;
  teams: TeamsStore;
  project: ProjectStore;
  storage: StorageStore;
  databases: DatabasesStore;
  realtime: RealtimeStore;
  functions: FunctionsStore;
  /** The Stripe doubles (`emulator/stripe/`), mounted beside the Appwrite services. */
  stripe: StripeService;
}

/** Every service of the local backend, in registration order (a new one: a line here and in {@link Services}). */
export const MODULES: BackendModules = {
  health: healthModule,
  account: accountModule,
  users: usersModule,
  teams: teamsModule,
  project: projectModule,
  storage: storageModule,
  databases: databasesModule,
  realtime: realtimeModule,
  functions: functionsModule,
  stripe: stripeModule,
};
