import { inject } from 'vitest';
import type { StartedBackend, TargetKind } from '../targets/types.ts';
import { backend } from './clients.ts';

/** Options of {@link startOwnBackend}. */
export interface OwnBackendOptions {
  /** Appwrite's abuse limits: off unless a test is about them (see `LocalBackendOptions.abuse`). */
  abuse?: boolean;
}

/** Targets that can start a backend of their own for one test (cheap, and safe to kill). */
export const OWN_BACKEND_KINDS: readonly TargetKind[] = ['local', 'container'];

/**
 * Starts a backend of the run's kind just for the calling test, for tests that restart or crash
 * it; dispose it with `await using`. On the container target it runs the image the global setup
 * built. Returns null where the run's target cannot start one (the real Appwrite stack is too
 * heavy to start per test; a remote one is not ours to restart): skip the test then, so that it
 * counts as not run.
 */
export async function startOwnBackend(
  options: OwnBackendOptions = {},
): Promise<StartedBackend | null> {
  const kind = backend().kind;
  if (!OWN_BACKEND_KINDS.includes(kind)) return null;
  const abuse = options.abuse ?? false;
  if (kind === 'local') {
    const { LocalBackend } = await import('../targets/local.ts');
    return new LocalBackend({ abuse }).start();
  }
  const { LocalBackendContainer } = await import('../targets/container.ts');
  const target = new LocalBackendContainer().withEnvironment({
    BACKEND_ABUSE: abuse ? 'enabled' : 'disabled',
  });
  const image = inject('backendImage');
  return (image ? target.withImage(image) : target).start();
}
