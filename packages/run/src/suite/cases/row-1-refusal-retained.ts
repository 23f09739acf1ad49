import type { SuiteContext } from '../suite-context.js';
import { Findings, notRun, resultOf, type CaseVerdict } from './verdict.js';

/**
 * Row 1 (R1.4, R8.1, R8.2): a refusal in the stream makes the attempt `refused` even beside a
 * completed result; the count is the supervisor's, taken from the stream; the claim is kept.
 */
export async function checkRefusalRetained(context: SuiteContext): Promise<CaseVerdict> {
  const provocation = context.provocationFor('refuse');
  if (provocation === 'not-applicable') return notRun('the driver cannot provoke a refusal');
  const provoked = await context.provoke(provocation);
  const ran = resultOf(provoked);
  if ('verdict' in ran) return ran.verdict;
  const { result } = ran;
  const refusalsInStream = provoked.events.filter((event) => event.type === 'refusal').length;
  const findings = new Findings();
  findings.expect(result.outcome === 'refused', `outcome is ${result.outcome}, expected refused`);
  findings.expect(refusalsInStream > 0, 'the stream carried no refusal event');
  findings.expect(result.refusalCount === refusalsInStream, `refusalCount is ${result.refusalCount} but the stream carried ${refusalsInStream} refusal events`);
  findings.expect(result.terminal === 'completed', `the terminal state is ${result.terminal}, expected the completed result to be retained`);
  findings.expect(result.providerClaim !== 'not-recorded', 'the provider claim was not kept');
  const claim = result.providerClaim === 'not-recorded' ? 'not-recorded' : result.providerClaim.status;
  findings.observe(
    `outcome refused with ${result.refusalCount} refusal(s) counted from the stream; terminal completed retained; provider claim "${claim}" kept as a claim`,
  );
  return findings.verdict(provocation.evidence);
}
