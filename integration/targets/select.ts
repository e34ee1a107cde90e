import type { BackendTarget, TargetKind } from './types.ts';

/** The environment variable that chooses the target: `local` (default), `container`, `appwrite` or `remote`. */
export const TARGET_ENV = 'LIVEDESK_TARGET';

/** Every target, in the order `npm test` runs them. */
export const TARGET_KINDS: readonly TargetKind[] = ['local', 'container', 'appwrite', 'remote'];

/** What each target is, in a few words (for reports). */
export const TARGET_DESCRIPTIONS: Record<TargetKind, string> = {
  local: 'the local backend as a child process',
  container: "the local backend's own image through testcontainers",
  appwrite: 'the real Appwrite image through testcontainers',
  remote: 'an existing Appwrite from APPWRITE_ENDPOINT/PROJECT_ID/API_KEY',
};

/** The target kind named by {@link TARGET_ENV} (default `local`); throws on an unknown name. */
export function targetKind(value = process.env[TARGET_ENV]): TargetKind {
  const kind = (value || 'local') as TargetKind;
  if (!TARGET_KINDS.includes(kind))
    throw new Error(`${TARGET_ENV}=${value} is not a known target (${TARGET_KINDS.join(', ')})`);
  return kind;
}

/**
 * The backend target chosen by {@link TARGET_ENV}. Imported on demand, so that the `local` target
 * does not load testcontainers.
 */
export async function selectTarget(kind: TargetKind = targetKind()): Promise<BackendTarget> {
  switch (kind) {
    case 'local':
      return new (await import('../../scripts/lib/local-backend.ts')).LocalBackend();
    case 'container':
      return new (await import('./container.ts')).LocalBackendContainer();
    case 'appwrite':
      return new (await import('./appwrite.ts')).AppwriteEnvironment();
    case 'remote':
      return new (await import('./remote.ts')).RemoteBackend();
  }
}
