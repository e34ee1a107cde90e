/** What the health endpoints report about the backend. */
export interface HealthStatus {
  name: string;
  /** Milliseconds the check took. */
  ping: number;
  status: 'pass' | 'fail';
}

/** Appwrite's HealthVersion model. */
export function healthVersionModel(version: string): Record<string, unknown> {
  return { version };
}

/** Appwrite's HealthStatus model. */
export function healthStatusModel(status: HealthStatus): Record<string, unknown> {
  return { name: status.name, ping: status.ping, status: status.status };
}
