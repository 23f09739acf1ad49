import type { PlacedName } from '@statecraft/adapter';

/**
 * One name the child received, as a human line shows it: `(redacted)` for a secret, and PATH's
 * dropped entries (empty or relative, R5.1) quoted, so an empty entry reads as `""`.
 */
export function describePlacedName(entry: PlacedName, redacted: string): string {
  const dropped =
    entry.droppedEntries === undefined ? '' : ` (dropped, empty or relative: ${entry.droppedEntries.map((path) => JSON.stringify(path)).join(', ')})`;
  return `${entry.name}${entry.value === 'redacted' ? ` ${redacted}` : ''}${dropped}`;
}
