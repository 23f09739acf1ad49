import { sha256Hex } from '@statecraft/adapter';
import { assessCoverage } from '../../coverage/assess-coverage.js';
import type { SuiteContext } from '../suite-context.js';
import { Findings, fail, notRun, type CaseVerdict } from './verdict.js';

/** A program no allowance names: the check suite below invokes it. */
const UNLISTED_PROGRAM = 'statecraft-suite-unlisted-program';

/** A spec whose Verification block runs one allowed program and one the allowance omits. */
function specText(allowedProgram: string): string {
  return ['# A change', '', '## Verification', '', '```sh', `${allowedProgram} --version`, `${UNLISTED_PROGRAM} --check`, '```', ''].join('\n');
}

/**
 * Row 8 (R9.1, R9.3): the posture declares every command the run will need. Planned through the
 * coverage module against this adapter's `requiresCommands` plus a declaration, a check suite
 * invoking a program the allowance omits is refused, naming the program and its command; the same
 * suite with the program declared is not (so the refusal is the omission's, not the suite's).
 */
export function checkCoverageRefused(context: SuiteContext): Promise<CaseVerdict> {
  const provocation = context.provocationFor('complete');
  if (provocation === 'not-applicable') return Promise.resolve(notRun('the driver cannot plan an attempt'));
  const declared = ['git'];
  const allowedProgram = context.manifest.requiresCommands[0] ?? 'git';
  const spec = { id: 'negative-suite-row-8', path: 'specs/negative-suite-row-8.md', text: specText(allowedProgram) };
  const plan = (commands: readonly string[]) =>
    assessCoverage({
      readFrom: { kind: 'working-tree' },
      spec,
      adapterCommands: context.manifest.requiresCommands,
      declaration: { kind: 'declared', path: '.statecraft/environment.json', digest: `sha256:${sha256Hex(JSON.stringify(commands))}`, commands },
    });
  const findings = new Findings();
  const omitted = plan(declared);
  if (omitted.kind === 'refused') return Promise.resolve(fail(provocation.evidence, `the check suite could not be read: ${omitted.message}`));
  const coverage = omitted.coverage;
  const missing = coverage.verdict === 'not-applicable' ? [] : coverage.missing;
  findings.expect(coverage.verdict === 'refused', `the verdict is ${coverage.verdict}, expected refused`);
  const named = missing.find((entry) => entry.program === UNLISTED_PROGRAM);
  findings.expect(named !== undefined, `the refusal does not name ${UNLISTED_PROGRAM}`);
  findings.expect(named?.commands.includes(`${UNLISTED_PROGRAM} --check`) ?? false, 'the refusal does not name the command that invokes it');
  const listed = plan([...declared, UNLISTED_PROGRAM]);
  const listedVerdict = listed.kind === 'assessed' ? listed.coverage.verdict : 'refused';
  findings.expect(listedVerdict === 'direct', `with ${UNLISTED_PROGRAM} declared the verdict is ${listedVerdict}, expected direct`);
  findings.observe(`refused at plan time naming ${UNLISTED_PROGRAM} ("${UNLISTED_PROGRAM} --check"); declared, the same suite reads direct`);
  return Promise.resolve(findings.verdict(provocation.evidence));
}
