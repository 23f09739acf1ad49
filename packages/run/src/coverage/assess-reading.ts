import { assessCoverage, type CoverageAssessment, type CoverageDigests } from './assess-coverage.js';
import type { CheckedCoverage, DeclarationInput } from '@statecraft/adapter';
import { describeChecksSource, describeCoverage } from '@statecraft/adapter';
import type { VerificationRefusalReason } from './verification-commands.js';
import { parseProjectDeclaration } from '@statecraft/environment';
import { readCoverageInputs, type CoverageInputsRefusalReason } from './read-coverage-inputs.js';
import type { CoverageSource } from './read-input-file.js';

/** A coverage that was compared (`refused` / `partial` / `direct` / `not-applicable`). */
type AssessedCoverage = Extract<CoverageAssessment, { kind: 'assessed' }>['coverage'];

type CoverageRefusalReason =
  | CoverageInputsRefusalReason
  | VerificationRefusalReason
  | 'declaration-invalid'
  /** The comparison itself: a program the checks name is missing from the allowance (R9.3). */
  | 'missing-programs';

export interface CoverageRefusal {
  kind: 'refused';
  /** The input the refusal is about; `repository` when git could not read the commit at all. */
  input: 'suite plan' | 'allowance' | 'repository';
  reason: CoverageRefusalReason;
  /** Names the file, the field, the program or the command; ends with the coverage and its limits when compared. */
  message: string;
  /** Set for `missing-programs`: the comparison that refused, for `--json`. */
  coverage?: AssessedCoverage;
}

/** A reading that may go ahead: the coverage to show or record, and the digests launch compares. */
export interface PlannedCoverage {
  kind: 'planned';
  /** The spec's text as this reading found it (`none` without `--spec`): the prompt when none is given. */
  specText: { text: string } | 'none';
  /** `partial`, `direct` or `not-applicable`: a `refused` verdict is returned as a refusal. */
  coverage: AssessedCoverage;
  digests: CoverageDigests;
}

/** A reading compared, whatever the verdict, with the digests launch compares (R9.4). */
export interface CoverageReading {
  kind: 'assessed';
  specText: { text: string } | 'none';
  coverage: AssessedCoverage;
  digests: CoverageDigests;
}

/**
 * Reads both inputs from one source and compares them (R9.1-R9.3). Planning calls it with the
 * working tree, launch with the base commit (R9.4). Any refusal is a value: a plan refusal
 * exits 2 with nothing appended and nothing spawned.
 */
export async function planCoverageAt(input: CoverageReadingRequest): Promise<PlannedCoverage | CoverageRefusal> {
  const reading = await readCoverageAt(input);
  if (reading.kind === 'refused') return reading;
  const { coverage, digests, specText } = reading;
  if (coverage.verdict === 'refused') {
    return { kind: 'refused', input: 'allowance', reason: 'missing-programs', message: describeMissingPrograms(coverage), coverage };
  }
  return { kind: 'planned', coverage, digests, specText };
}

export interface CoverageReadingRequest {
  repository: string;
  spec?: string | undefined;
  source: CoverageSource;
  /** The adapter manifest's `requiresCommands`. */
  adapterCommands: readonly string[];
}

/**
 * The reading without the verdict's refusal lifted out: launch needs the digests of a reading
 * whose verdict is `refused`, to name drift before the missing program.
 */
export async function readCoverageAt(input: CoverageReadingRequest): Promise<CoverageReading | CoverageRefusal> {
  const inputs = await readCoverageInputs(input);
  if (inputs.kind === 'refused') return inputs;

  let declaration: DeclarationInput = { kind: 'absent', path: inputs.declaration.path };
  let declaredChecks: string[] | 'none' = 'none';
  if (inputs.declaration.kind === 'present') {
    const parsed = parseProjectDeclaration(inputs.declaration.text, describeWhere(inputs.declaration.path, inputs.readFrom));
    if (parsed.kind === 'refused') return { kind: 'refused', input: 'allowance', reason: 'declaration-invalid', message: parsed.message };
    declaration = { kind: 'declared', path: inputs.declaration.path, digest: inputs.declaration.digest, commands: parsed.commands };
    // A run without a spec is judged by these (R13.3): every command its acceptance will run is compared.
    declaredChecks = parsed.acceptance.checks;
  }

  const assessment = assessCoverage({ readFrom: inputs.readFrom, spec: inputs.spec, declaration, declaredChecks, adapterCommands: input.adapterCommands });
  if (assessment.kind === 'refused') {
    return {
      kind: 'refused',
      input: 'suite plan',
      reason: assessment.reason,
      message: assessment.message.replace(/^[^:]*/, (file) => describeWhere(file, inputs.readFrom)),
    };
  }
  return { ...assessment, specText: inputs.spec === 'none' ? 'none' : { text: inputs.spec.text } };
}

/** `specs/004.md` in the working tree; `specs/004.md at <commit>` when read through git. */
function describeWhere(path: string, readFrom: AssessedCoverage['readFrom']): string {
  return readFrom.kind === 'commit' ? `${path} at ${readFrom.commit}` : path;
}

export function describeMissingPrograms(coverage: CheckedCoverage): string {
  const programs = coverage.missing.map((missing) => missing.program);
  return [
    `command coverage refused: ${coverage.spec === 'none' ? describeChecksSource(coverage) : `the checks of ${describeChecksSource(coverage)}`} name ${programs.join(', ')}, ` +
      `which the allowance omits; declare ${programs.length === 1 ? 'it' : 'each'} in ` +
      `${coverage.allowance.declaration.path} under "project.commands" and commit it. Nothing was started, nothing appended.`,
    ...describeCoverage(coverage),
  ].join('\n');
}
