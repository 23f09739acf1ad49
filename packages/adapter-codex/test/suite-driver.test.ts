import { describe, expect, it } from 'vitest';
import { codexSuiteDriver, loadScenario, parseToolRules, permittedUnderStrict, pinnedCodexPath, scenarioPath } from '@statecraft/adapter-codex';

// The driver's provocations. The whole suite against the pair runs once, end to end, in
// test/e2e/qualify/codex-qualify.test.ts; a provider that behaves only when it recognises the suite is
// qualified against in test/e2e/qualify/codex-qualify-unrecognisable.test.ts.

async function environmentOf(scenario: 'complete' | 'refuse'): Promise<Record<string, string>> {
  const driver = codexSuiteDriver({ provider: pinnedCodexPath() });
  await driver.setUp?.();
  try {
    const provocation = driver.provocation(scenario);
    if (provocation === 'not-applicable') throw new Error(`the codex driver does not provoke ${scenario}`);
    return provocation.environment ?? {};
  } finally {
    await driver.tearDown?.();
  }
}

describe('the codex suite driver', () => {
  it('points codex at the double by an address naming no scenario and a key drawn per run, never a fixed one (hostile finding C6)', async () => {
    const first = await environmentOf('refuse');
    const second = await environmentOf('refuse');
    expect(first.OPENAI_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/v1$/);
    expect(first.OPENAI_BASE_URL).not.toContain('exec-touch');
    expect(first.OPENAI_API_KEY).toMatch(/^sk-[0-9a-f]{48}$/);
    expect(second.OPENAI_API_KEY).not.toBe(first.OPENAI_API_KEY);
    expect(second.OPENAI_BASE_URL?.replace(/:\d+\//, ':/')).not.toBe(first.OPENAI_BASE_URL?.replace(/:\d+\//, ':/'));
  });
});

describe("the codex suite driver's strict requests", () => {
  it('allow by rule every shell command of the live scenarios rows 3 and 9 need, so the strict hook lets them run (decision 0341)', async () => {
    const driver = codexSuiteDriver({ provider: pinnedCodexPath() });
    await driver.setUp?.();
    try {
      const hang = driver.provocation('hang');
      const attack = driver.attack?.();
      for (const [provocation, scenario] of [
        [hang, 'exec-setsid'],
        [attack, 'attack-records'],
      ] as const) {
        if (provocation === undefined || provocation === 'not-applicable') throw new Error(`no provocation for ${scenario}`);
        const parsed = parseToolRules(provocation.limits?.allow ?? [], 'allow');
        if (parsed.kind !== 'rules') throw new Error(parsed.message);
        const commands = (await loadScenario(scenarioPath(scenario))).replies.flatMap((reply) => (reply.kind === 'exec' ? [reply.cmd] : []));
        expect(commands.length, scenario).toBeGreaterThan(0);
        for (const command of commands) expect(permittedUnderStrict(parsed.rules, 'Bash', command), command).toBe(true);
      }
    } finally {
      await driver.tearDown?.();
    }
  });
});
