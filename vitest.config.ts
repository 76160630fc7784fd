import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests import the workspace packages' TypeScript sources (the `hostpay-source` export condition);
// processes they spawn (the `hostpay` bin) run the compiled dist/, which the global setup brings up
// to date first.
const conditions = ['hostpay-source', ...defaultServerConditions];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    globalSetup: ['./test-build-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test-summary-reporter.ts'],
  },
});
