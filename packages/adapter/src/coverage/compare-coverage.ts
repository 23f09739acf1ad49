import * as z from 'zod';
import type { Allowance } from './allowance.js';
import type { CommandReading } from './command-reading.js';
import { coverageLimits, type CoverageLimits } from './limits.js';

/** A required program the allowance omits, with every command that names it (R9.3). */
export const MissingProgramSchema = z.strictObject({
  program: z.string().min(1),
  commands: z.array(z.string()).min(1),
});
type MissingProgram = z.infer<typeof MissingProgramSchema>;

/**
 * The four verdicts (R9.3). None says "complete": see `COVERAGE_LIMITS`.
 * @public the schema of a published shape, kept whole though only its type is read here
 */
export const CoverageVerdictKindSchema = z.enum(['refused', 'partial', 'direct', 'not-applicable']);
type CoverageVerdictKind = z.infer<typeof CoverageVerdictKindSchema>;

export interface CoverageComparison {
  verdict: CoverageVerdictKind;
  /** Empty unless the verdict is `refused`. */
  missing: MissingProgram[];
  /** Commands that were not read (`unparsed`), by text: named as not checked. */
  notChecked: string[];
  limits: CoverageLimits;
}

/**
 * Compares the requirement (the programs the check commands name) with the allowance (R9.3).
 * `path` commands consult no PATH, so they need no allowance entry and do not make the verdict
 * `partial`; what such a script runs is the first limit. `no-spec`: the run has no checks.
 */
export function compareCoverage(input: { allowance: Allowance; commands: readonly CommandReading[] | 'no-spec' }): CoverageComparison {
  const limits = coverageLimits();
  if (input.commands === 'no-spec') return { verdict: 'not-applicable', missing: [], notChecked: [], limits };
  const allowed = new Set(input.allowance.entries.map((entry) => entry.program));
  const missing = new Map<string, string[]>();
  const notChecked: string[] = [];
  for (const command of input.commands) {
    if (command.kind === 'unparsed') notChecked.push(command.text);
    if (command.kind !== 'simple' || allowed.has(command.program)) continue;
    const naming = missing.get(command.program);
    if (naming === undefined) missing.set(command.program, [command.text]);
    else naming.push(command.text);
  }
  const missingPrograms = [...missing].map(([program, commands]) => ({ program, commands }));
  const verdict = missingPrograms.length > 0 ? 'refused' : notChecked.length > 0 ? 'partial' : 'direct';
  return { verdict, missing: missingPrograms, notChecked, limits };
}
