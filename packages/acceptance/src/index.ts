/**
 * @statecraft/acceptance — judgment: the independent acceptance of a completed attempt (R13: the
 * candidate's suite read at the base, run over a fresh worktree of the candidate, a verdict, a
 * receipt, one acceptance record appended under the lock). Landing and pruning are @statecraft/run's,
 * the read side (fold, list, show, doctor) @statecraft/records'.
 *
 * Modules:
 * - judge/accept-attempt.ts  `accept`: lock → verified chain → leftovers removed → judge → receipt file → acceptance record (R13)
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
 * - judge/worktree-shape.ts  the worktree's entries, types, modes and index as checked out, brought back after each check (R13.3)
 * - judge/run-suite.ts       the checks in order, each supervised with its deadline, the worktree read after each; the unrun counted
 * - judge/decide-verdict.ts  the closed set of verdicts, each with its reason (R13.4), before the suite and after it
 * - judge/mint-receipt.ts    the receipt of an accepted candidate (R13.6)
 *
 * What this package does not claim: that a verified chain was not rewritten whole by someone
 * who recomputed every link (tamper-evident, not tamper-proof: R12 keeps what statecraft launches
 * out of the product home, not every other process of the operator's user) — an outcome so
 * rewritten is found only while its kept stream was left as it was; that a receipt is a
 * permission — it is evidence that the suite read at the base passed over the candidate's bytes,
 * and says nothing about what the checks do not test, or about a program the checks ran that
 * reached outside the worktree (R5.3).
 */
export { type Acceptance, acceptAttempt, type AcceptRequest } from './judge/accept-attempt.js';
export { type SuiteHooks } from './judge/run-suite.js';
