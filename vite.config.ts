import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const unitFiles = [
  'src/**/*.test.{ts,tsx}',
  'domain/**/*.test.ts',
  'store/**/*.test.ts',
  'scripts/**/*.test.ts',
  'functions/**/*.test.ts',
  'integration/targets/**/*.test.ts',
  'integration/support/**/*.test.ts',
];

/** Hashed build assets never change under their name: a returning browser keeps them. */
const immutableAssets: Plugin = {
  name: 'livedesk-immutable-assets',
  configurePreviewServer(server) {
    server.middlewares.use((req, res, next) => {
      if (req.url?.startsWith('/assets/'))
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      next();
    });
  },
};

export default defineConfig({
  plugins: [react(), immutableAssets],
  resolve: {
    // The Appwrite SDK's JSON parser, with the browser's JSON.parse where it gives the same value.
    alias: [
      {
        find: /^json-bigint$/,
        replacement: fileURLToPath(new URL('./src/lib/json-bigint-fast.ts', import.meta.url)),
      },
    ],
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { target: 'es2022', sourcemap: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          environment: 'node',
          // A hang bound: property tests run for seconds on a loaded 2-core machine.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'emulator',
          include: ['emulator/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['integration/suites/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['integration/global-setup.ts'],
          setupFiles: ['integration/support/setup.ts'],
          // Bounds that only catch hangs: a loaded 2-core CI machine is several times slower.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The functions' contract with Stripe in test mode (npm test's `stripe` stage, with keys).
        extends: true,
        test: {
          name: 'stripe-contract',
          include: ['integration/stripe/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['integration/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: ['integration/e2e/global-setup.ts'],
          setupFiles: ['integration/e2e/support/setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
