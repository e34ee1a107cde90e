import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Vitest configuration of the kill-mid-suite check (kill-mid-suite.ts): the integration global
 * setup and setup file, and only the long-running check file, so the check controls timing.
 */
export default defineConfig({
  test: {
    name: 'kill-check',
    root: resolve(import.meta.dirname, '../..'),
    include: ['integration/checks/*.check.ts'],
    environment: 'node',
    globalSetup: ['integration/global-setup.ts'],
    setupFiles: ['integration/support/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
