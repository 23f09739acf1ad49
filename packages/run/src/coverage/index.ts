/**
 * Command coverage as a run reads it (R9.4), all of it here: the spec and the declaration, from the
 * working tree at planning and from the base commit at launch, compared by digest.
 *
 * - spec-lookup.ts            `--spec <id>` → `specs/<id>/spec.md`, then `specs/<id>.md`
 * - git-for-reading.ts        git with a constructed environment: no GIT_*, no system/global config
 * - read-input-file.ts        one file from the working tree, or from a commit via ls-tree + cat-file
 * - read-coverage-inputs.ts   both inputs from either source, their texts and digests
 * - assess-reading.ts         a reading from either source compared into a verdict; refusals as values
 * - working-tree-reading.ts   the planning reading: from the working tree, a refusal exits 2 (R9.4)
 * - base-commit-reading.ts    the launch reading: at the base commit, checked against the plan, ready to record
 * - compare-readings.ts       planning vs launch digests: same, or drifted naming the input
 *
 * Does not claim: that the allowance is enforced, or that programs run by other programs are seen.
 */
export * from './spec-lookup.js';
export * from './git-for-reading.js';
export * from './read-input-file.js';
export * from './read-coverage-inputs.js';
export * from './assess-reading.js';
export * from './working-tree-reading.js';
export * from './compare-readings.js';
export * from './base-commit-reading.js';
export * from './assess-coverage.js';
export * from './verification-commands.js';
