import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backend } from '../support/clients.ts';

// Run only by kill-mid-suite.ts, whose vitest.config.ts includes this file: a test that keeps
// using the backend for a long while (as a test waiting for a realtime event does), so that the
// check can kill the backend in the middle of it.

describe('a long-running suite', () => {
  it('keeps polling the backend, tolerating errors as a reconnecting client would', async () => {
    const { endpoint } = backend();
    const marker = process.env.LIVEDESK_KILL_CHECK_MARKER;
    if (marker) writeFileSync(marker, `${Date.now()}\n`);
    const deadline = Date.now() + 45_000;
    let answered = 0;
    while (Date.now() < deadline) {
      const ok = await fetch(`${endpoint}/health/version`, { signal: AbortSignal.timeout(2_000) })
        .then((response) => response.ok)
        .catch(() => false);
      if (ok) answered += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(answered).toBeGreaterThan(0);
  });

  it('would run after it', async () => {
    const response = await fetch(`${backend().endpoint}/health/version`);
    expect(response.ok).toBe(true);
  });
});
