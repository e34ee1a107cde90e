import { LocalBackend } from './local.ts';
import type { BackendTarget, TargetKind } from './types.ts';

/** The environment variable that chooses the target: `local` (default), `container`, `appwrite` or `remote`. */
export const TARGET_ENV = 'LIVEDESK_TARGET';

/** The backend target chosen by {@link TARGET_ENV}. */
export function selectTarget(
  kind = (process.env[TARGET_ENV] ?? 'local') as TargetKind,
): BackendTarget {
  switch (kind) {
    case 'local':
      return new LocalBackend();
    default:
      throw new Error(
        `${TARGET_ENV}=${kind} is not a known target (local, container, appwrite, remote)`,
      );
  }
}
