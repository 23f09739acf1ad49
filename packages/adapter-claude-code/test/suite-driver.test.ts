import { describe, expect, it } from 'vitest';
import { claudeCodeSuiteDriver, pinnedClaudePath } from '@statecraft/adapter-claude-code';

// The driver's provocations. The whole suite against the pair runs once, end to end, in
// test/e2e/qualify/claude-code-qualify.test.ts (it takes about 40 s on two cores).

describe('the claude-code suite driver', () => {
  it('reaches the model double only through the constructed environment, at an address that does not name the scenario, with the test credential (issue 4 item 5)', async () => {
    const driver = claudeCodeSuiteDriver({ provider: pinnedClaudePath() });
    await driver.setUp?.();
    try {
      const provocation = driver.provocation('complete');
      expect(provocation).not.toBe('not-applicable');
      if (provocation === 'not-applicable') return;
      // Each scenario answers behind an opaque token drawn per run, never its name (hostile finding C6).
      expect(provocation.environment?.ANTHROPIC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/);
      expect(provocation.environment?.ANTHROPIC_API_KEY).toBe('sk-ant-statecraft-model-double-test-credential');
      expect(provocation.evidence).toBe('live');
    } finally {
      await driver.tearDown?.();
    }
  });
});
