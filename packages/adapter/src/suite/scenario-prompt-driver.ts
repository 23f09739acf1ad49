import type { DriverScenario, EvidenceKind, Provocation, SuiteDriver } from './driver.js';

/** A hung child needs only long enough to start its descendant; the deadline is the subject there. */
const HANG_DEADLINE_MS = 2_000;

/**
 * The prompt convention the fixture adapter understands: the prompt `scenario: <name>` asks for a
 * behaviour. It is also the default driver for an arbitrary binary given to `statecraft qualify`:
 * an adapter written to be qualified without a provider answers the same prompts.
 */
export function scenarioPromptDriver(options: { name: string; evidence: EvidenceKind }): SuiteDriver {
  return {
    name: options.name,
    provocation(scenario: DriverScenario): Provocation {
      return {
        prompt: `scenario: ${scenario}\n`,
        evidence: options.evidence,
        ...(scenario === 'hang' ? { deadlineMs: HANG_DEADLINE_MS } : {}),
      };
    },
    // Row 9: the fixture's `attack` scenario reads its targets from the environment the row adds.
    attack: () => ({ prompt: 'scenario: attack\n', evidence: options.evidence }),
  };
}

/** The shipped fixture adapter's driver: evidence kind `fixture` (R3.1). */
export const fixtureDriver: SuiteDriver = scenarioPromptDriver({ name: 'fixture', evidence: 'fixture' });
