import { APPWRITE_VERSION } from '../../core/errors.ts';
import type { HealthStatus } from './models.ts';

/** Health: what the backend reports about itself. */
export class HealthStore {
  /** The Appwrite version this backend behaves as. */
  readonly version = APPWRITE_VERSION;

  /** The HTTP server's status: it answers, so it passes (the check takes no time). */
  httpStatus(): HealthStatus {
    return { name: 'http', ping: 0, status: 'pass' };
  }
}
