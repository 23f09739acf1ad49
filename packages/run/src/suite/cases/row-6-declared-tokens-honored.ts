import type { AttemptResult } from '@statecraft/adapter';
import type { MeasurementContext } from '@statecraft/adapter';
import { readRawStream, suiteTemporaryDirectory, type SuiteContext } from '../suite-context.js';
import { Findings, notRun, resultOf, type CaseVerdict } from './verdict.js';

/**
 * Row 6 (R2.4, R10.5): every token the manifest declares is honored. The init event must apply
 * each declared token (what it applied is recorded as observed, the rest as `notApplied`), and
 * when the driver can measure tokens against the running adapter, every measurement must hold.
 */
export async function checkDeclaredTokensHonored(context: SuiteContext): Promise<CaseVerdict> {
  const provocation = context.provocationFor('complete');
  if (provocation === 'not-applicable') return notRun('the driver cannot provoke a completed attempt');
  const ran = resultOf(await context.provoke(provocation));
  if ('verdict' in ran) return ran.verdict;
  const { result } = ran;
  const findings = new Findings();
  const applied = result.capabilities.applied;
  findings.expect(applied !== 'not-recorded', 'no init event was read, so nothing was applied');
  findings.expect(
    result.capabilities.notApplied.length === 0,
    `the manifest declares ${result.capabilities.notApplied.join(', ')} but the init event did not apply ${result.capabilities.notApplied.length === 1 ? 'it' : 'them'}`,
  );
  findings.observe(`init applied every declared token (${context.manifest.capabilities.join(', ') || 'none declared'})`);

  if (context.driver.measureDeclaredTokens !== undefined) {
    const measurementContext: MeasurementContext = {
      workspace: context.workspace,
      temporaryDirectory: suiteTemporaryDirectory(context.scratchDir),
      async provoke(measured): Promise<{ result: AttemptResult; rawStream: string }> {
        const provoked = await context.provoke(measured);
        const outcome = resultOf(provoked);
        if ('verdict' in outcome) throw new Error(outcome.verdict.detail);
        return { result: outcome.result, rawStream: await readRawStream(provoked.answer) };
      },
    };
    const measurements = await context.driver.measureDeclaredTokens(measurementContext);
    for (const token of context.manifest.capabilities) {
      const measurement = measurements.find((entry) => entry.token === token);
      findings.expect(measurement !== undefined, `the driver made no measurement of declared token ${token}`);
      if (measurement === undefined) continue;
      findings.expect(measurement.honored, `${token} is declared but not honored: ${measurement.detail}`);
      findings.observe(`${token}: ${measurement.detail} (${measurement.evidence})`);
    }
  }
  return findings.verdict(provocation.evidence);
}
