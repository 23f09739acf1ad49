import type { SuiteContext } from '../suite-context.js';
import { Findings, notRun, resultOf, type CaseVerdict } from './verdict.js';

/** Row 5 (R8.3): a result event without a cost is recorded as `unknown`, never as zero. */
export async function checkAbsentCost(context: SuiteContext): Promise<CaseVerdict> {
  const provocation = context.provocationFor('no-cost');
  if (provocation === 'not-applicable') return notRun('the driver cannot provoke a result without a cost');
  const ran = resultOf(await context.provoke(provocation));
  if ('verdict' in ran) return ran.verdict;
  const { result } = ran;
  const findings = new Findings();
  // The cost must be absent because the result lacked it, not because no result was read.
  findings.expect(result.terminal !== 'not-recorded', 'no result event was read, so the absent cost proves nothing');
  findings.expect(result.cost === 'unknown', `cost is ${String(result.cost)}, expected unknown`);
  findings.observe('a result without a cost is recorded with cost unknown');
  return findings.verdict(provocation.evidence);
}
