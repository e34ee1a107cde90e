import type { BackendModule } from './backend.ts';
import { accountModule } from './services/account.ts';
import { databasesModule } from './services/databases/index.ts';
import { functionsModule } from './services/functions/index.ts';
import { healthModule } from './services/health.ts';
import { projectModule } from './services/project.ts';
import { realtimeModule } from './services/realtime/index.ts';
import { bucketsModule } from './services/storage/buckets.ts';
import { teamsModule } from './services/teams.ts';
import { usersModule } from './services/users.ts';
import { stripeModule } from '../stripe/module.ts';

/** Every module of the local backend, in registration order. */
export const MODULES: readonly BackendModule[] = [
  healthModule,
  accountModule,
  usersModule,
  teamsModule,
  projectModule,
  bucketsModule,
  databasesModule,
  realtimeModule,
  functionsModule,
  stripeModule,
];
