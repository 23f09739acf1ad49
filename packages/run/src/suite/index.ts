/**
 * The negative suite (R4), runnable against any adapter binary.
 *
 * - attack-targets.ts          row 9's targets, named to the adapter in the environment, and the files its attack leaves
 * - case-checks.ts             each row's check
 * - cases/*                    one file per row (`row-N-*.ts`) and the verdict helper they share
 * - run-adapter-once.ts        plan and supervise one attempt: manifest → negotiate → request → supervise → classify
 * - suite-context.ts           what every case is given: the adapter, its driver, a way to provoke
 * - run-negative-suite.ts      runs every row and reports, binding the adapter (and provider) identity
 * - bound-files.ts             the digests the report binds, taken again between rows: a change fails the suite
 * - tagged-processes.ts        the suite's own witness of an attempt's processes (/proc)
 * - suite-environment-failure.ts  the machine's failure met while a case sets up: ends the suite (exit 4), fails no case
 */
export * from './attack-targets.js';
export * from './run-adapter-once.js';
export * from './suite-context.js';
export * from './run-negative-suite.js';
export * from './tagged-processes.js';
export * from './suite-environment-failure.js';
export { comparableResult } from './cases/row-7-records-identical.js';
export { reportedDescendant } from './cases/row-3-hung-child-killed.js';
