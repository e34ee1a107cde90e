import type { StartedBackend } from './types.ts';

/** Settings of {@link watchBackend}. */
export interface WatchdogOptions {
  /** Time between health checks. */
  intervalMs?: number;
  /** How long one health check may take. */
  probeTimeoutMs?: number;
  /** Consecutive failed health checks that count as dead. */
  failures?: number;
}

/**
 * Watches a started backend for the rest of a run and calls `onDeath` once, with one readable
 * reason, when it dies: at once when the target can tell (a process or container exit), else
 * after `failures` health checks in a row fail. Bounded: with the defaults a backend that stops
 * answering is reported within about 20 s. Returns a function that stops watching.
 */
export function watchBackend(
  backend: StartedBackend,
  onDeath: (reason: string) => void,
  options: WatchdogOptions = {},
): () => void {
  const intervalMs = options.intervalMs ?? 2_000;
  const probeTimeoutMs = options.probeTimeoutMs ?? 4_000;
  const failures = options.failures ?? 3;
  let active = true;
  let failed = 0;
  let timer: NodeJS.Timeout | undefined;

  const die = (reason: string) => {
    if (!active) return;
    stop();
    onDeath(reason);
  };

  const unsubscribe = backend.onUnexpectedExit?.(die);

  const probe = async () => {
    try {
      const response = await fetch(`${backend.endpoint}/health/version`, {
        signal: AbortSignal.timeout(probeTimeoutMs),
      });
      await response.body?.cancel();
      failed = response.ok ? 0 : failed + 1;
      if (failed >= failures)
        die(
          `${backend.describe()} answered /v1/health/version with ${response.status} ${failures} times in a row`,
        );
    } catch (error) {
      failed += 1;
      if (failed >= failures)
        die(
          `${backend.describe()} stopped answering at ${backend.endpoint} (${failures} health checks in a row failed, the last: ${(error as Error).message})`,
        );
    }
    if (active) timer = setTimeout(probe, intervalMs).unref();
  };
  timer = setTimeout(probe, intervalMs).unref();

  function stop(): void {
    active = false;
    clearTimeout(timer);
    unsubscribe?.();
  }
  return stop;
}
