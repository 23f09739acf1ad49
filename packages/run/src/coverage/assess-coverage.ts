import { sha256Hex } from '@statecraft/adapter';
import { buildAllowance, type DeclarationInput } from '@statecraft/adapter';
import { classifyCommand } from '@statecraft/adapter';
import { compareCoverage } from '@statecraft/adapter';
import type { CoverageReadFrom, RecordedCoverage } from '@statecraft/adapter';
import { extractVerificationCommands, type VerificationRefusalReason } from './verification-commands.js';

/** The two inputs whose digests the launch compares with the plan's (R9.4). */
export type CoverageInputName = 'allowance' | 'suite plan';

/**
 * One digest per input. `allowance`: the declaration file's bytes, or `absent`. `suite plan`: the
 * Verification commands only (not the rest of the spec), the declared `acceptance.checks` for a run
 * without a spec, or `none` when there is neither.
 */
export interface CoverageDigests {
  allowance: string;
  suitePlan: string;
}

export type CoverageAssessment =
  | { kind: 'assessed'; coverage: Exclude<RecordedCoverage, { verdict: 'not-checked' }>; digests: CoverageDigests }
  | { kind: 'refused'; input: 'suite plan'; reason: VerificationRefusalReason; message: string };

/**
 * Everything between reading the two inputs and a verdict, with no I/O (R9.2, R9.3): extract and
 * classify the Verification commands (or, for a run without a spec, the declared acceptance
 * checks: the commands its acceptance will run, R13.3), build the allowance, compare. The caller
 * reads the spec and validates the declaration (`parseProjectDeclaration`); the negative suite
 * (row 8) calls this directly with texts it holds.
 */
export function assessCoverage(input: {
  readFrom: CoverageReadFrom;
  /** `digest`: of the file's bytes when the caller read them; else of the text. */
  spec: { id: string; path: string; text: string; digest?: string } | 'none';
  declaration: DeclarationInput;
  /** The declaration's `acceptance.checks`, as validated; compared only for a run without a spec. */
  declaredChecks?: readonly string[] | 'none';
  adapterCommands: readonly string[];
}): CoverageAssessment {
  const allowance = buildAllowance({ adapterCommands: input.adapterCommands, declaration: input.declaration });
  const allowanceDigest = input.declaration.kind === 'declared' ? input.declaration.digest : 'absent';
  const { spec } = input;
  const declaredChecks = input.declaredChecks ?? 'none';
  if (spec === 'none' && declaredChecks !== 'none') {
    const commands = declaredChecks.map(classifyCommand);
    const { verdict, missing, notChecked, limits } = compareCoverage({ allowance, commands });
    if (verdict === 'not-applicable') throw new Error('declared checks were given, yet the comparison read none');
    const planDigest = suitePlanDigest(declaredChecks);
    return {
      kind: 'assessed',
      coverage: { verdict, readFrom: input.readFrom, spec: 'none', checksFrom: 'declaration', planDigest, commands, allowance, missing, notChecked, limits },
      digests: { allowance: allowanceDigest, suitePlan: planDigest },
    };
  }
  if (spec === 'none') {
    const { limits } = compareCoverage({ allowance, commands: 'no-spec' });
    return {
      kind: 'assessed',
      coverage: { verdict: 'not-applicable', readFrom: input.readFrom, spec: 'none', allowance, limits },
      digests: { allowance: allowanceDigest, suitePlan: 'none' },
    };
  }
  const extraction = extractVerificationCommands(spec.text, spec.path);
  if (extraction.kind === 'refused') {
    return { kind: 'refused', input: 'suite plan', reason: extraction.reason, message: extraction.message };
  }
  const texts = extraction.commands.map((command) => command.text);
  const commands = texts.map(classifyCommand);
  const { verdict, missing, notChecked, limits } = compareCoverage({ allowance, commands });
  if (verdict === 'not-applicable') throw new Error('a spec was given, yet the comparison read no spec');
  const planDigest = suitePlanDigest(texts);
  return {
    kind: 'assessed',
    coverage: {
      verdict,
      readFrom: input.readFrom,
      spec: { id: spec.id, path: spec.path, digest: spec.digest ?? `sha256:${sha256Hex(spec.text)}` },
      checksFrom: 'spec',
      planDigest,
      commands,
      allowance,
      missing,
      notChecked,
      limits,
    },
    digests: { allowance: allowanceDigest, suitePlan: planDigest },
  };
}

/** `sha256:` of the command texts in order; comments, blank lines and line numbers do not count. */
export function suitePlanDigest(commandTexts: readonly string[]): string {
  return `sha256:${sha256Hex(JSON.stringify(commandTexts))}`;
}
