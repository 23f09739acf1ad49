/**
 * Command coverage as a run reads it (R9.4): the spec and the declaration, from the working tree
 * at planning and from the base commit at launch, compared by digest.
 *
 * - spec-lookup.ts            `--spec <id>` → `specs/<id>/spec.md`, then `specs/<id>.md`
 * - git-for-reading.ts        git with a constructed environment: no GIT_*, no system/global config
 * - read-input-file.ts        one file from the working tree, or from a commit via ls-tree + cat-file
 * - read-coverage-inputs.ts   both inputs, their texts and digests
 * - plan-coverage-at.ts       a reading compared into a verdict; refusals as values
 * - compare-readings.ts       planning vs launch digests: same, or drifted naming the input
 * - check-launch-coverage.ts  the launch reading, checked against the plan, ready to record
 *
 * Does not claim: that the allowance is enforced, or that programs run by other programs are seen.
 */
export * from './spec-lookup.js';
export * from './git-for-reading.js';
export * from './read-input-file.js';
export * from './read-coverage-inputs.js';
export * from './plan-coverage-at.js';
export * from './compare-readings.js';
export * from './check-launch-coverage.js';
