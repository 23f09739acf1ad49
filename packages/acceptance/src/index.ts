/**
 * @statecraft/acceptance — judgment and reading: the independent acceptance of a completed attempt
 * (R13: the candidate's suite read at the base, run over a fresh worktree of the candidate, a
 * verdict, a receipt, one acceptance record appended under the lock), and the read-only fold of
 * records into the account an operator reads, for `run show`, `run list` and `doctor`.
 *
 * Modules:
 * - attempt-account.ts       the account of one attempt: the JSON contract of `run --json` / `run show --json`
 * - fold-attempts.ts         pairs intents with their first outcomes; an intent alone is dangling, never completed (R8.3); each kept file where its attempt keeps it
 * - open-target-records.ts   opens one target's chain and lock read-only; a broken chain is refused
 * - list-attempts.ts         one summary line per attempt, for `run list`
 * - examine-product-home.ts  every chain in the product home: links, torn tails, dangling intents, and each check below, in order
 * - check-target-lock.ts     a target's lock: the live holder, or stale, or no file run can open (doctor)
 * - unrecorded-attempt-files.ts attempt directories no intent names, and what their run left in the repository (doctor)
 * - check-artifacts.ts       re-digests the files kept beside the chain: verified, altered or missing
 * - reread-kept-stream.ts    reads a kept event stream once, as a stream: its digest and the supervisor's reading of it
 * - reclassify-attempt.ts    classifies an attempt again from its kept stream with the supervisor's classifier; compares
 * - examine-attempt-evidence.ts  one attempt's kept files and outcome against the chain, and the findings they give
 * - attempt-records.ts       the chain's entries by digest, and one account's intent and outcome found among them
 * - records-against-kept-files.ts what the records copy of the kept, verified request and result, compared field by field (doctor, run show)
 * - own-evidence-paths.ts    where an attempt and its judgements keep their files (none without a well-formed run id), and the records that name them elsewhere (doctor, run show, accept)
 * - check-target-name.ts     target.json against the chain's intents and the key its path derives to, or unreadable beside intents (doctor)
 * - check-checkpoint-presence.ts a chain with records and no checkpoint, or not a regular file in its place (doctor)
 * - attempt-files-after-intent.ts an unnamed attempt's files that follow an intent: its records are missing, not never written (doctor)
 * - check-acceptance-evidence.ts re-digests receipts and check outputs (regular files only) against their acceptance records (doctor, run show)
 * - check-run-ids.ts         intents whose run id is not one run makes: no path derived from it, in no account (doctor)
 * - check-outcome-records.ts one outcome per intent: a second names both lines, and every reader reads the first (doctor, run show)
 * - check-acceptance-records.ts acceptance records against what a judgement writes: after a final verdict, evidence elsewhere, another attempt or candidate (doctor, run show)
 * - receipt-against-record.ts the receipt an acceptance record carries against its kept, verified receipt.json
 * - attempt-record-findings.ts what doctor finds of the records beyond the files and their copies: every attempt's (doctor), one attempt's (run show)
 * - unrecorded-acceptance-files.ts acceptance directories holding a receipt or check outputs that no record names (doctor)
 * - workspace-freshness.ts   whether an attempt's recorded head is still its run's branch tip (`stale` when not, R8.3)
 * - acceptance-view.ts       an acceptance as shown (the `accept --json` contract), derived `not-attempted`, receipt `stale`
 * - judge/accept-attempt.ts  `accept`: lock → verified chain → leftovers removed → judge → receipt file → acceptance record (R13)
 * - judge/earlier-final-verdict.ts an attempt already judged accepted, failed or authority-change: not judged again (R13.4, R8.5)
 * - judge/outcome-evidence-own.ts an outcome whose files are another attempt's, or that its own kept result does not bear out: not judged (R13.1)
 * - judge/free-outputs-directory.ts the first acceptance-N directory not on disk: a judgement never writes into another's files (R13.6)
 * - judge/judge-attempt.ts   one attempt judged in steps: not-attempted, the candidate, the suite at the base, the suite run, the verdict
 * - judge/check-sandbox.ts   what every check runs under: the constructed environment and the evidence boundary, probed once (R13.3, R12)
 * - judge/check-temporary-directory.ts the checks' private TMPDIR, named after its worktree so a dead judge's is found and removed
 * - judge/agent-workspaces-hidden.ts the target's agent workspaces hidden from the checks: not the candidate's bytes (R13.3, R12)
 * - judge/authority-read-only.ts the authority set bound read-only in the candidate's worktree for the checks (R13.5, R12)
 * - judge/leftover-check-worktrees.ts check worktrees a killed judge left (owner dead) removed with their TMPDIRs, then `git worktree prune`
 * - judge/suite-at-base.ts   the suite and the authority set read at the base, and the policy digest (R13.3, R13.5)
 * - judge/authority-checked-out.ts each authority file as checked out, against its blob at the base: a conversion or filter changed none (R13.5)
 * - judge/authority-through-links.ts authority entries that are, lie below or hold a symbolic link at the base: not judged on (R13.5)
 * - judge/links-outside-candidate.ts the candidate's symbolic links (mode 120000, as git holds them) whose targets leave its tree
 * - judge/check-invocation.ts a check as argv (simple, R9.2) or through /bin/sh -c (marked shell)
 * - judge/candidate-worktree.ts a fresh detached worktree of the candidate; HEAD and dirty paths after a check
 * - judge/run-suite.ts       the checks in order, each supervised with its deadline, the worktree read after each; the unrun counted
 * - judge/decide-verdict.ts  the closed set of verdicts, each with its reason (R13.4), before the suite and after it
 * - judge/mint-receipt.ts    the receipt of an accepted candidate (R13.6)
 * - land-attempt.ts          `land`: an accepted attempt with a current receipt taken into the operator's branch, recorded
 * - landed-receipt-state.ts  a landed receipt stays current while the landed commit is in its branch
 * - prune-target.ts          `prune`: concluded runs' worktrees and branches removed under the lock, recorded
 * - under-target-lock.ts     the lock, the chain opened and verified, the work, the lock released: accept, land and prune
 * - check-workspace-git.ts   doctor: a workspace whose git is not what statecraft made
 *
 * What this package does not claim: that a verified chain was not rewritten whole by someone
 * who recomputed every link (tamper-evident, not tamper-proof: R12 keeps what statecraft launches
 * out of the product home, not every other process of the operator's user) — an outcome so
 * rewritten is found only while its kept stream was left as it was; that a receipt is a
 * permission — it is evidence that the suite read at the base passed over the candidate's bytes,
 * and says nothing about what the checks do not test, or about a program the checks ran that
 * reached outside the worktree (R5.3).
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
export * from './attempt-records.js';
export * from './records-against-kept-files.js';
export * from './workspace-freshness.js';
export * from './acceptance-view.js';
export * from './judge/accept-attempt.js';
export * from './judge/suite-at-base.js';
export * from './judge/check-invocation.js';
export * from './judge/run-suite.js';
export * from './check-acceptance-evidence.js';
export * from './check-outcome-records.js';
export * from './check-run-ids.js';
export * from './check-acceptance-records.js';
export * from './own-evidence-paths.js';
export * from './attempt-record-findings.js';
export * from './land-attempt.js';
export * from './landed-receipt-state.js';
export * from './prune-target.js';
