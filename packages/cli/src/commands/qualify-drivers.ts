import { fixtureDriver, scenarioPromptDriver, type Manifest, type SuiteDriver } from '@statecraft/adapter';

/**
 * Which driver provokes behaviour from a named adapter. Only the CLI knows adapters by name
 * (docs/architecture.md); a provider adapter registers its driver here. Any other binary gets the prompt
 * convention `scenario: <name>` (decision 0014), its evidence kind `live`. A provider package is
 * imported only to qualify its adapter, so no other verb evaluates it (run-adapters.ts).
 */
const NAMED_DRIVERS: Readonly<Record<string, (options: DriverOptions) => Promise<SuiteDriver>>> = {
  fixture: () => Promise.resolve(fixtureDriver),
  // The pair is qualified live through the model double; rows 4, 5 and 7 replay recorded streams (R10.7).
  'claude-code': async (options) =>
    (await import('@statecraft/adapter-claude-code')).claudeCodeSuiteDriver(options.provider === undefined ? {} : { provider: options.provider }),
  // The same shape for Codex: live through its Responses-API double, rows 4, 5 and 7 replayed (R14.1).
  codex: async (options) => (await import('@statecraft/adapter-codex')).codexSuiteDriver(options.provider === undefined ? {} : { provider: options.provider }),
};

export interface DriverOptions {
  /** The provider binary to qualify with the adapter (the pair, R3.1), from `--provider`. */
  provider?: string;
  /** Whether the executable's bytes are the shipped fixture's own (its digest, not its manifest's name). */
  shippedFixture: boolean;
}

export async function driverFor(manifest: Manifest, options: DriverOptions): Promise<SuiteDriver> {
  // Evidence kind `fixture` is reserved for the shipped fixture's bytes: a modified copy whose
  // manifest still says `fixture` is any other binary, and its evidence is `live`.
  const named = manifest.name === 'fixture' && !options.shippedFixture ? undefined : NAMED_DRIVERS[manifest.name];
  const driver = named === undefined ? scenarioPromptDriver({ name: 'scenario-prompt', evidence: 'live' }) : await named(options);
  if (options.provider === undefined || driver.provider !== undefined) return driver;
  return { ...driver, provider: { executable: options.provider } };
}
