import { fixtureAdapterPath } from '@statecraft/adapter';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { codexAdapterPath } from '@statecraft/adapter-codex';

/**
 * The adapters `--adapter` knows by name (only the CLI knows adapters by name, docs/architecture.md).
 * Anything else given to `--adapter` is a path to an adapter executable. Add an entry here to
 * make a new adapter nameable; `manifest` defaults to the sidecar beside the executable.
 */
export const KNOWN_ADAPTERS: Record<string, () => { executable: string; manifest?: string }> = {
  fixture: () => ({ executable: fixtureAdapterPath() }),
  'claude-code': () => ({ executable: claudeCodeAdapterPath() }),
  codex: () => ({ executable: codexAdapterPath() }),
};

/** A known name, or a path (anything else: a name nobody registered is a usage error, not a file lookup). */
export function resolveAdapterArgument(given: string): { kind: 'resolved'; executable: string; manifest?: string } | { kind: 'unknown'; known: string[] } {
  const known = Object.hasOwn(KNOWN_ADAPTERS, given) ? KNOWN_ADAPTERS[given] : undefined;
  if (known !== undefined) return { kind: 'resolved', ...known() };
  if (given.includes('/') || given.startsWith('.')) return { kind: 'resolved', executable: given };
  return { kind: 'unknown', known: Object.keys(KNOWN_ADAPTERS) };
}
