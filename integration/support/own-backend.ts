import { inject } from 'vitest';
import { selectTarget } from '../targets/select.ts';
import type { StartedBackend, TargetKind } from '../targets/types.ts';
import { backend } from './clients.ts';

/** Targets that can start a backend of their own for one test (cheap, and safe to kill). */
export const OWN_BACKEND_KINDS: readonly TargetKind[] = ['local', 'container'];

/**
 * Starts a backend of the run's kind just for the calling test, for tests that restart or crash
 * it; dispose it with `await using`. On the container target it runs the image the global setup
 * built. Returns null where the run's target cannot start one (the real Appwrite stack is too
 * heavy to start per test; a remote one is not ours to restart): skip the test then, so that it
 * counts as not run.
 */
export async function startOwnBackend(): Promise<StartedBackend | null> {
  const kind = backend().kind;
  if (!OWN_BACKEND_KINDS.includes(kind)) return null;
  const image = inject('backendImage');
  if (kind === 'container' && image) {
    const { LocalBackendContainer } = await import('../targets/container.ts');
    return new LocalBackendContainer().withImage(image).start();
  }
  return (await selectTarget(kind)).start();
}
