/**
 * @statecraft/acceptance — read-only: folds records into the account an operator reads, for
 * `run show`, `run list` and `doctor`. It writes nothing and repairs nothing.
 *
 * Modules:
 * - attempt-account.ts       the account of one attempt: the JSON contract of `run --json` / `run show --json`
 * - fold-attempts.ts         pairs intents with outcomes; an intent alone is dangling, never completed (R8.3)
 * - open-target-records.ts   opens one target's chain and lock read-only; a broken chain is refused
 * - list-attempts.ts         one summary line per attempt, for `run list`
 * - examine-product-home.ts  every chain in the product home: links, torn tails, dangling intents, stale locks
 * - check-artifacts.ts       re-digests the files kept beside the chain: verified, altered or missing
 * - reread-kept-stream.ts    reads a kept event stream once, as a stream: its digest and the supervisor's reading of it
 * - reclassify-attempt.ts    classifies an attempt again from its kept stream with the supervisor's classifier; compares
 * - examine-attempt-evidence.ts  one attempt's kept files and outcome against the chain, and the findings they give
 * - workspace-freshness.ts   whether an attempt's recorded head is still its run's branch tip (`stale` when not, R8.3)
 *
 * What this package does not claim: that a verified chain was not rewritten whole by someone
 * who recomputed every link (tamper-evident, not tamper-proof; R12 is later) — an outcome so
 * rewritten is found only while its kept stream was left as it was; that an attempt
 * `completed` was accepted — acceptance of the work is not judged here (R8.1).
 */
export * from './attempt-account.js';
export * from './fold-attempts.js';
export * from './open-target-records.js';
export * from './list-attempts.js';
export * from './examine-product-home.js';
export * from './check-artifacts.js';
export * from './reread-kept-stream.js';
export * from './reclassify-attempt.js';
export * from './examine-attempt-evidence.js';
export * from './workspace-freshness.js';
