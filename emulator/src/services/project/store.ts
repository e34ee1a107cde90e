import type { Backend } from '../../backend.ts';
import type { KeyRecord, ProjectKeyRecord } from '../../core/auth/keys.ts';
import { ApiError } from '../../core/errors.ts';

/** The Project service's store: the project's API keys (records in core's `auth.keys`). */
export class ProjectStore {
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
  }

  private get keys() {
    return this.backend.auth.keys;
  }

  /** Creates a key with its secret (`key_already_exists` for a taken id). */
  createKey(input: KeyRecord): Omit<ProjectKeyRecord, 'accessedAt'> {
    return this.keys.create(input);
  }

  /** A short-lived key (`dynamic_…`) holding `scopes`. */
  createEphemeralKey(scopes: readonly string[], durationMs: number): string {
    return this.keys.createDynamic(scopes, durationMs);
  }

  /** Every project key, oldest first. */
  listKeys(): ProjectKeyRecord[] {
    return this.keys.list();
  }

  /** The key `id`, or `key_not_found`. */
  key(id: string): ProjectKeyRecord {
    const key = this.keys.list().find((candidate) => candidate.id === id);
    if (!key) throw new ApiError('key_not_found');
    return key;
  }

  /** Deletes the key `id`, or `key_not_found`. */
  deleteKey(id: string): void {
    if (!this.keys.delete(id)) throw new ApiError('key_not_found');
  }
}
