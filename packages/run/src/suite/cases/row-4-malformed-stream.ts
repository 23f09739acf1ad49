import type { DriverScenario } from '@statecraft/adapter';
import type { SuiteContext } from '../suite-context.js';
import { Findings, notRun, resultOf, type CaseVerdict } from './verdict.js';

/** Each stream defect and the diagnostic it must produce (R7.5). */
const DEFECTS = [
  { scenario: 'malformed', diagnostic: 'malformed', cause: 'stream-malformed' },
  { scenario: 'read-failure', diagnostic: 'read-failure', cause: 'stream-read-failure' },
  { scenario: 'no-result', diagnostic: 'no-result', cause: 'stream-no-result' },
] as const satisfies readonly { scenario: DriverScenario; diagnostic: string; cause: string }[];

/**
 * Row 4 (R7.5): a malformed line, a line that is not UTF-8 and a stream without a result are each
 * reported as such and read `interrupted`; never `completed`, never success.
 */
export async function checkMalformedStream(context: SuiteContext): Promise<CaseVerdict> {
  const findings = new Findings();
  let evidence: ReturnType<typeof context.provocationFor> = 'not-applicable';
  for (const defect of DEFECTS) {
    const provocation = context.provocationFor(defect.scenario);
    if (provocation === 'not-applicable') return notRun(`the driver cannot provoke the ${defect.scenario} stream`);
    if (evidence === 'not-applicable') evidence = provocation;
    const ran = resultOf(await context.provoke(provocation));
    if ('verdict' in ran) return ran.verdict;
    const { result } = ran;
    const diagnostic = result.streamDiagnostic === 'none' ? 'none' : result.streamDiagnostic.kind;
    findings.expect(diagnostic === defect.diagnostic, `${defect.scenario}: the diagnostic is ${diagnostic}, expected ${defect.diagnostic}`);
    findings.expect(result.outcome === 'interrupted', `${defect.scenario}: outcome is ${result.outcome}, expected interrupted`);
    findings.expect(result.cause === defect.cause, `${defect.scenario}: cause is ${result.cause}, expected ${defect.cause}`);
    findings.observe(`${defect.scenario} → ${diagnostic}, ${result.outcome}`);
  }
  if (evidence === 'not-applicable') return notRun('nothing was provoked');
  return findings.verdict(evidence.evidence);
}
