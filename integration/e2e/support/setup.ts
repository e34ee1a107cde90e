import { beforeEach, inject } from 'vitest';

// Every browser test file runs this first: when Chromium is missing the global setup said why,
// and each test is skipped with that reason (counted as not run, never as passed).
const { unavailable } = inject('e2e');
if (unavailable) {
  beforeEach((context) => {
    context.skip(`browser tests not run: ${unavailable}`);
  });
}
