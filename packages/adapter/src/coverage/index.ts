/**
 * Command coverage (R9): the programs a run's checks name, compared with the posture's allowance.
 * Pure: nothing here reads a file, runs git or looks at PATH.
 *
 * - command-reading.ts        one check command → simple / path / unparsed (R9.2)
 * - allowance.ts              adapter `requiresCommands` + declared `project.commands`, with sources (R9.1)
 * - compare-coverage.ts       the verdict: refused / partial / direct / not-applicable (R9.3)
 * - limits.ts                 the two sentences every rendering shows (R9.3)
 * - coverage-record.ts        `posture.coverage` as recorded, and `not-checked` for older records (R9.4)
 * - describe-coverage.ts      human lines for a recorded coverage
 *
 * Does not claim: that a program run by another program is seen, or that the allowance is enforced.
 */
export * from './command-reading.js';
export * from './allowance.js';
export * from './compare-coverage.js';
export * from './limits.js';
export * from './coverage-record.js';
export * from './describe-coverage.js';
