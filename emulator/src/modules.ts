import type { BackendModule } from './backend.ts';
import { accountModule } from './services/account.ts';
import { databasesModule } from './services/databases/index.ts';
import { functionsModule } from './services/functions/index.ts';
import { healthModule } from './services/health.ts';
import { projectModule } from './services/project.ts';
import { realtimeModule } from './services/realtime/index.ts';
import { storageModule } from './services/storage/index.ts';
import { teamsModule } from './services/teams.ts';
import { usersModule } from './services/users.ts';

/** Every module of the local backend, in registration order. */
export const MODULES: readonly BackendModule[] = [
  healthModule,
  accountModule,
  usersModule,
  teamsModule,
  projectModule,
  storageModule,
  databasesModule,
  realtimeModule,
  functionsModule,
];
