import type { Candidate } from '@statecraft/records';

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Who made a candidate (R13.2), as `run`, `run show` and `accept` say it: statecraft's commit of the
 * tree the attempt left, the agent's commit, or a commit that was there before the attempt — named
 * (the base, an earlier attempt's candidate), never "made by agent" for work the attempt inherited.
 */
export function describeCandidateMaker(candidate: Candidate): string {
  if (candidate.madeBy !== 'earlier') return `made by ${candidate.madeBy}`;
  const what =
    candidate.earlier === 'base'
      ? 'the base'
      : typeof candidate.earlier === 'object'
        ? `attempt ${candidate.earlier.candidateOf}'s candidate`
        : candidate.earlier === 'other'
          ? "a commit on the run branch that is no attempt's candidate"
          : 'a commit of unrecorded origin';
  const where = candidate.start === 'not-recorded' || candidate.start.commit === candidate.commit ? 'where the attempt started' : 'HEAD moved back to it';
  return `made before the attempt: ${what}, ${where}`;
}

/**
 * How many paths the candidate changed, counted from the base and from the attempt's start, so the
 * words say what the numbers count: the two are one count when the attempt started at the base
 * itself (a new run), and a record from before starts were recorded has only the first.
 */
export function describeCandidateChanges(candidate: Candidate): string {
  const fromBase = `${plural(candidate.changedPaths.length, 'path')} changed from the base`;
  const start = candidate.start;
  if (candidate.changedSinceStart === 'not-recorded' || start === 'not-recorded') return fromBase;
  if (start.is === 'base' && !start.uncommitted) return fromBase;
  const uncommitted = start.uncommitted ? ', which held changes left uncommitted before it' : '';
  return `${fromBase}, ${candidate.changedSinceStart} since the attempt's start${uncommitted}`;
}
