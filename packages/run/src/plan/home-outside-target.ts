import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/**
 * Records never live in the target (R8.4), and the target never lives among the records: the
 * agent may write its workspace, inside the target, and the boundary hides the product home, so
 * either nesting would hand the agent the records or hide its own workspace from it.
 */
export function homeOverlapsTarget(home: string, target: string): string | undefined {
  let real = resolve(home);
  try {
    real = realpathSync.native(real);
  } catch {
    // Not made yet: its path as given is where it would be.
  }
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : `${outer}${sep}`);
  if (within(real, target)) return `${home}: the product home is inside the target ${target}; set STATECRAFT_HOME outside the repository`;
  if (within(target, real)) return `${target}: the target is inside the product home ${home}; keep repositories outside STATECRAFT_HOME`;
  return undefined;
}
