import { UsageError } from '../errors.js';
import { targetOrCurrentRepository } from './default-target.js';
import { resolveRunReference, RUN_REFERENCE_ADVICE } from './run-reference.js';

/**
 * The `[target] <run>` of a verb that reads one run: with two words, the target and the run; with
 * one, the run, in the repository containing the current directory. The run may be its id, a
 * unique start of it, or `latest` (run-reference.ts).
 */
export async function targetAndRun(home: string, first: string | undefined, second: string | undefined): Promise<{ target: string; runId: string }> {
  const [given, reference] = second === undefined ? [undefined, first] : [first, second];
  if (reference === undefined) throw new UsageError('name a run', RUN_REFERENCE_ADVICE);
  const target = await targetOrCurrentRepository(given);
  return { target, runId: await resolveRunReference(home, target, reference) };
}
