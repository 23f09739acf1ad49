import type { EvidenceKind } from '@statecraft/adapter';
import type { Provoked } from '../suite-context.js';
import type { AttemptResult } from '@statecraft/adapter';

type CaseStatus = 'pass' | 'fail' | 'not-run';

/** One case's verdict; `evidence` is `none` only when nothing was run. */
export interface CaseVerdict {
  status: CaseStatus;
  evidence: EvidenceKind | 'none';
  /** What was observed, in sentences: why it passed, or what failed. */
  detail: string;
}

function pass(evidence: EvidenceKind, detail: string): CaseVerdict {
  return { status: 'pass', evidence, detail };
}

export function fail(evidence: EvidenceKind | 'none', detail: string): CaseVerdict {
  return { status: 'fail', evidence, detail };
}

export function notRun(detail: string): CaseVerdict {
  return { status: 'not-run', evidence: 'none', detail };
}

/** The result of a provocation that ran, or the failing verdict explaining why none exists. */
export function resultOf(provoked: Provoked): { result: AttemptResult } | { verdict: CaseVerdict } {
  const answer = provoked.answer;
  if (answer.kind === 'ran') return { result: answer.result };
  return { verdict: fail(provoked.provocation.evidence, `the attempt was refused at ${answer.stage}: ${answer.message}`) };
}

/** Collects the sentences of every check that did not hold; an empty list is a pass. */
export class Findings {
  private readonly problems: string[] = [];
  private readonly observations: string[] = [];

  expect(holds: boolean, problem: string): void {
    if (!holds) this.problems.push(problem);
  }

  observe(sentence: string): void {
    this.observations.push(sentence);
  }

  verdict(evidence: EvidenceKind): CaseVerdict {
    if (this.problems.length > 0) return fail(evidence, this.problems.join('; '));
    return pass(evidence, this.observations.join('; '));
  }
}
