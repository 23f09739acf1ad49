import { join } from 'node:path';
import { packageRootOf } from './package-root.js';

/**
 * This package's root directory, found by package name rather than from this module's own
 * location: the CLI is shipped as one bundle (packages/cli/dist/bundle), where `import.meta.url`
 * is the bundle's, not this module's. Resolving `@statecraft/adapter/package.json` works both
 * unbundled (self-reference) and bundled (through the workspace's node_modules).
 */
function packageRoot(): string {
  return packageRootOf('@statecraft/adapter', import.meta.url);
}

/**
 * Where the shipped fixture adapter lives: the `fixture/` directory at the root of this package,
 * resolved from the package's location, not from the working directory.
 */
export function fixtureAdapterPath(): string {
  return join(packageRoot(), 'fixture', 'statecraft-fixture-adapter');
}

/** The generic replay child: writes a recorded stream's bytes to stdout (evidence kind `replayed`). */
export function replayAdapterPath(): string {
  return join(packageRoot(), 'fixture', 'statecraft-replay-adapter');
}
