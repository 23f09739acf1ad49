import { fileURLToPath } from 'node:url';

/**
 * Where the shipped fixture adapter lives. The `fixture/` directory sits beside `dist/` in this
 * package, so the path is resolved from this module's own location, not from the working directory.
 */
export function fixtureAdapterPath(): string {
  return fileURLToPath(new URL('../fixture/statecraft-fixture-adapter', import.meta.url));
}

/** The generic replay child: writes a recorded stream's bytes to stdout (evidence kind `replayed`). */
export function replayAdapterPath(): string {
  return fileURLToPath(new URL('../fixture/statecraft-replay-adapter', import.meta.url));
}
