import type { Store } from '../db.ts';
import { ApiError } from '../errors.ts';
import { secret as randomSecret } from '../ids.ts';
import { now } from '../time.ts';
import { expiresIn, type TokenSigner } from './tokens.ts';

/** An API key: the bootstrap key, a project key, or a short-lived dynamic key. */
export interface KeyRecord {
  id: string;
  name: string;
  scopes: string[];
  expire: string | null;
}

/** A stored project key with its secret. */
export interface ProjectKeyRecord extends KeyRecord {
  secret: string;
  createdAt: string;
  updatedAt: string;
  accessedAt: string;
}

/** Dynamic keys verified at most this many at once (a function execution sends one with every request). */
const VERIFIED_KEYS_CACHED = 1000;

/**
 * API keys: the bootstrap key from the environment (every scope), project keys (`standard_…`)
 * and dynamic keys (`dynamic_<jwt>`, short-lived, as functions receive them).
 */
export class Keys {
  private readonly store: Store;
  private readonly projectId: string;
  private readonly signer: TokenSigner;
  private readonly bootstrapKey: KeyRecord & { secret: string };
  private readonly verifiedKeys = new Map<string, KeyRecord & { exp: number }>();

  constructor(store: Store, projectId: string, bootstrapSecret: string, signer: TokenSigner) {
    this.store = store;
    this.projectId = projectId;
    this.signer = signer;
    this.bootstrapKey = {
      id: 'bootstrap',
      name: 'Bootstrap key',
      scopes: ['*'],
      expire: null,
      secret: bootstrapSecret,
    };
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, scopes TEXT NOT NULL, secret TEXT NOT NULL UNIQUE,
        expire TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, accessed_at TEXT);
    `);
  }

  /** A short-lived API key (as functions receive), `dynamic_<jwt>`. */
  createDynamic(scopes: readonly string[], durationMs: number): string {
    return `dynamic_${this.signer.sign({ projectId: this.projectId, scopes, exp: expiresIn(durationMs) })}`;
  }

  /** Creates a project API key with its secret. Throws `key_already_exists`. */
  create(input: KeyRecord): Omit<ProjectKeyRecord, 'accessedAt'> {
    const time = now();
    const secretValue = `standard_${randomSecret(64)}`;
    try {
      this.store
        .prepare(
          'INSERT INTO api_keys (id, name, scopes, secret, expire, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          input.id,
          input.name,
          JSON.stringify(input.scopes),
          secretValue,
          input.expire,
          time,
          time,
        );
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('key_already_exists');
      throw error;
    }
    return { ...input, secret: secretValue, createdAt: time, updatedAt: time };
  }

  /** Project keys, oldest first. */
  list(): ProjectKeyRecord[] {
    const rows = this.store.prepare('SELECT * FROM api_keys ORDER BY created_at').all() as Record<
      string,
      unknown
    >[];
    return rows.map((row) => ({
      id: row.id as string,
      name: row.name as string,
      scopes: JSON.parse(row.scopes as string) as string[],
      expire: (row.expire as string | null) ?? null,
      secret: row.secret as string,
      createdAt: row.created_at as string,
      updatedAt: row.updated_at as string,
      accessedAt: (row.accessed_at as string | null) ?? '',
    }));
  }

  /** Deletes a project key; false when there was none. */
  delete(id: string): boolean {
    return Number(this.store.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes) > 0;
  }

  /** The key for an `X-Appwrite-Key` secret; `'expired'` when it was valid once; null when unknown. */
  resolve(secretValue: string): KeyRecord | 'expired' | null {
    if (secretValue === this.bootstrapKey.secret) return this.bootstrapKey;
    if (secretValue.startsWith('dynamic_')) return this.resolveDynamic(secretValue);
    const key = this.list().find((candidate) => candidate.secret === secretValue);
    if (!key) return null;
    if (key.expire && Date.parse(key.expire) < Date.now()) return 'expired';
    return key;
  }

  private resolveDynamic(secretValue: string): KeyRecord | null {
    const known = this.verifiedKeys.get(secretValue);
    if (known && known.exp * 1000 >= Date.now()) return known;
    const payload = this.signer.verify(secretValue.slice('dynamic_'.length));
    if (!payload || payload.projectId !== this.projectId || !Array.isArray(payload.scopes))
      return null;
    const key = {
      id: 'dynamic',
      name: 'Dynamic key',
      scopes: payload.scopes as string[],
      expire: null,
      exp: typeof payload.exp === 'number' ? payload.exp : 0,
    };
    if (this.verifiedKeys.size >= VERIFIED_KEYS_CACHED) this.verifiedKeys.clear();
    this.verifiedKeys.set(secretValue, key);
    return key;
  }
}
