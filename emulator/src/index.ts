/**
 * The local backend's public entry: what programs outside `emulator/` use to run it in-process
 * (tests, scripts). The command line is `main.ts`.
 */
import { Backend } from './backend.ts';
import { configFromEnv, type BackendConfig } from './config.ts';
import { MODULES } from './modules.ts';

export { Backend, type BackendModule, type BackendModules, type HttpFallback } from './backend.ts';
export { configFromEnv, type BackendConfig } from './config.ts';
export { MODULES, type Services } from './modules.ts';

/** Starts a backend with every service: from `config`, or from the environment (see `config.ts`). */
export function startBackend(config: BackendConfig = configFromEnv()): Promise<Backend> {
  return Backend.start(config, MODULES);
}
