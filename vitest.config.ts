import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = fileURLToPath(new URL('./packages/', import.meta.url));

// Two tiers (docs/decisions/0251-tests-in-two-tiers.md). Unit tests beside each package import the
// packages' sources: `@statecraft/<name>` resolves to packages/<name>/src/index.ts, so they run with
// no build and any new package resolves the same way. End-to-end tests in test/e2e/<verb>/ drive the
// built CLI and adapter bundles, and import the built packages the way the CLI runs them.
const fromSource = [
  { find: /^@statecraft\/([^/]+)$/, replacement: `${packages}$1/src/index.ts` },
  { find: /^@statecraft\/([^/]+)\/(?!package\.json$)(.+)$/, replacement: `${packages}$1/src/$2/index.ts` },
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: process-heavy suites share them; files run in parallel, tests in a file in order.
    fileParallelism: true,
    maxWorkers: 2,
    // A worker runs its files one after another in one module graph: each file importing the
    // built packages afresh cost ~0.7 s, 170 s of the run. Hooks and state belong to the test file
    // that makes them, never to a module's top level (docs/decisions/0392-test-files-share-modules.md).
    isolate: false,
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      reporter: ['text-summary'],
    },
    projects: [
      {
        extends: true,
        resolve: { alias: fromSource },
        test: { name: 'unit', include: ['packages/*/test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] },
      },
    ],
  },
});
