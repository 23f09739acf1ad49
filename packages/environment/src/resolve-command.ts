import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Where a bare command resolves on a PATH value, as a shell would find it (first executable
 * file in order; relative entries are skipped, since the child's cwd is not ours). Reads the
 * file system only; executes nothing.
 */
export function resolveCommandOnPath(command: string, pathValue: string | undefined): string | undefined {
  for (const directory of (pathValue ?? '').split(delimiter)) {
    if (directory === '' || !isAbsolute(directory)) continue;
    const candidate = join(directory, command);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // Not here: keep looking, as a shell would.
    }
  }
  return undefined;
}
