import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { digestFile, runNegativeSuite } from '@statecraft/adapter';
import { claudeCodeAdapterPath, claudeCodeSuiteDriver, pinnedClaudePath } from '@statecraft/adapter-claude-code';

// Live qualification of the pair (R3.1, R10.5, R10.7): the negative suite, through the real
// supervisor, against the bundled adapter fronting the pinned claude and the model double;
// rows 4 and 5 from recorded streams, altered, replayed through a real child.

describe('the claude-code suite driver', () => {
  it('passes every row of the negative suite for the pair, naming each case its evidence and binding both digests (R3.1, R4, R10.5)', async () => {
    const provider = pinnedClaudePath();
    const answer = await runNegativeSuite({ executable: claudeCodeAdapterPath(), driver: claudeCodeSuiteDriver({ provider }) });
    expect(answer.kind).toBe('ran');
    if (answer.kind !== 'ran') return;
    const { report } = answer;
    const failures = report.cases.filter((entry) => entry.status !== 'pass').map((entry) => `row ${entry.row}: ${entry.detail}`);
    expect(failures).toEqual([]);
    expect(report.passed).toBe(true);
    expect(Object.fromEntries(report.cases.map((entry) => [entry.row, entry.evidence]))).toEqual({
      1: 'live',
      2: 'live',
      3: 'live',
      4: 'replayed',
      5: 'replayed',
      6: 'live',
      7: 'replayed',
      8: 'live',
    });
    expect(report.adapter.digest).toBe(await digestFile(claudeCodeAdapterPath()));
    expect(report.provider).toEqual({ name: 'claude', version: '2.1.328', digest: await digestFile(realpathSync(provider)) });
    // Row 6 rests on one measurement per declared token, not on the init event alone.
    const row6 = report.cases.find((entry) => entry.row === 6)?.detail ?? '';
    for (const token of ['turn-limit', 'cost-report', 'hook-enforcement', 'structured-refusals', 'tool-allowlist']) expect(row6).toContain(`${token}:`);
  }, 240_000);

  it('reaches the model double only through the constructed environment, with the test credential (issue 4 item 5)', async () => {
    const driver = claudeCodeSuiteDriver({ provider: pinnedClaudePath() });
    await driver.setUp?.();
    try {
      const provocation = driver.provocation('complete');
      expect(provocation).not.toBe('not-applicable');
      if (provocation === 'not-applicable') return;
      expect(provocation.environment?.ANTHROPIC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/completed$/);
      expect(provocation.environment?.ANTHROPIC_API_KEY).toBe('sk-ant-statecraft-model-double-test-credential');
      expect(provocation.evidence).toBe('live');
    } finally {
      await driver.tearDown?.();
    }
  });
});
