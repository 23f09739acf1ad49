import { defineConfig } from 'vitest/config';

// Tests run against the built packages (dist/), the way the CLI runs; `npm test` builds first.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: process-heavy suites share them; files run in parallel, tests in a file in order.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
