import { beforeEach, inject } from 'vitest';

// Every integration test file runs this first (vite.config.ts `setupFiles`). When the chosen
// target cannot run here the global setup has said why in one line; each test is then skipped
// with that reason, so it counts as not run, never as passed.
const unavailable = inject('backendUnavailable');
if (unavailable) {
  beforeEach((context) => {
    context.skip(`target "${inject('backend').kind}" not available: ${unavailable}`);
  });
}
