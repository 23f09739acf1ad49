/**
 * The adapters `--adapter` knows by name (only the CLI knows adapters by name, docs/architecture.md).
 * Anything else given to `--adapter` is a path to an adapter executable. Add an entry here to
 * make a new adapter nameable; `manifest` defaults to the sidecar beside the executable.
 * A provider package is imported only when its name is given: its module graph (schemas, model
 * double, suite driver) is evaluated by no other start of the CLI (decision 0028).
 */
const KNOWN_ADAPTERS: Record<string, () => Promise<{ executable: string; manifest?: string }>> = {
  fixture: async () => ({ executable: (await import('@statecraft/adapter')).fixtureAdapterPath() }),
  'claude-code': async () => ({ executable: (await import('@statecraft/adapter-claude-code')).claudeCodeAdapterPath() }),
  codex: async () => ({ executable: (await import('@statecraft/adapter-codex')).codexAdapterPath() }),
};

/** The names `--adapter` knows, as its help lists them. */
export const KNOWN_ADAPTER_NAMES = Object.keys(KNOWN_ADAPTERS);

/** A known name, or a path (anything else: a name nobody registered is a usage error, not a file lookup). */
export async function resolveAdapterArgument(
  given: string,
): Promise<{ kind: 'resolved'; executable: string; manifest?: string } | { kind: 'unknown'; known: string[] }> {
  const known = Object.hasOwn(KNOWN_ADAPTERS, given) ? KNOWN_ADAPTERS[given] : undefined;
  if (known !== undefined) return { kind: 'resolved', ...(await known()) };
  if (given.includes('/') || given.startsWith('.')) return { kind: 'resolved', executable: given };
  return { kind: 'unknown', known: KNOWN_ADAPTER_NAMES };
}
