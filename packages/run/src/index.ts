/**
 * @statecraft/run — one attempt's life: plan → intent → launch → conclusion, and the records
 * that make it durable and tamper-evident.
 *
 * Modules:
 * - workspace/read-operator-git-identity.ts the operator's git identity, read with statecraft's git, to carry into the boundary
 * - plan/plan-run.ts              everything decided before anything is appended; refusals exit 2
 * - plan/label-qualification.ts   the qualification label: unqualified adapters run, labelled (R3.2)
 * - plan/credential-present.ts    a credential the adapter declares, absent: refused before spawn
 * - plan/home-outside-target.ts   the product home and the target must not hold each other (R8.4, R12)
 * - plan/target-outside-managed-paths.ts a target inside a path the adapter declares managed, statecraft's state directory (workspaces, check worktrees), or a path any attempt had writable, is refused before git runs in it (R12)
 * - launch/launch-attempt.ts      lock → workspace → environment → intent (fsync) → supervise → classify → outcome
 * - launch/before-intent.ts       what an intent needs besides the readings, started once the workspace's directory exists: TMPDIR, environment, request, boundary
 * - launch/conclude-attempt.ts    after the adapter: the result kept, the candidate identified (R13.2), the outcome appended
 * - launch/build-request.ts       the request file the adapter is pointed at (R1.2)
 * - launch/compose-posture.ts     the posture on the intent and on the outcome (R6)
 * - launch/artifacts.ts           request, prompt, stream, stderr, result kept beside the chain with digests (R8.4)
 * - launch/read-kept-file.ts      the one reader of a kept file's digest as it stands (acceptance, doctor, reconcile)
 * - launch/temporary-directory.ts the private per-attempt TMPDIR (R5.5)
 * - launch/launch-boundary.ts     the protected evidence boundary for one launch: request handed over, managed paths checked, profile, probe (R12)
 * - launch/targets-the-home-names.ts every repository the product home keeps records for, and its git directories: no managed path may reach them (R12)
 * - launch/outcome-reserve.ts     room held from the intent to the outcome, so a home the stream filled still takes the outcome (R8.4)
 * - reconcile/reconcile-dangling-intents.ts under the lock, each intent whose supervisor was lost concluded interrupted (supervisor-lost) (R8.3)
 * - reconcile/lost-attempt-result.ts the result of such an attempt: its kept stream read again, each kept file's digest as it stands
 * - launch/end-of-attempt-bound.ts the bound on the end's git (the tree the agent left is read within 10-60 s, or at the operator's interrupt)
 * - launch/intent-files.ts       the intent's request, prompt and reserve, written beside the probe and withdrawn when no intent follows
 * - launch/workspace-start.ts    the workspace as the attempt finds it, read before the intent (bounded); unread, the attempt is refused
 * - launch/failed-file.ts         a failed write step carries the file it was writing, so the failure names it
 * - chain/record-schemas.ts       the chain's record kinds (intent, outcome, acceptance), one zod schema each
 * - chain/acceptance-record.ts    the acceptance record: verdict, reason, checks, receipt (R13)
 * - chain/land-record.ts         the land and prune records: a candidate taken into the operator's branch; workspaces removed
 * - land/land-commit.ts           brings a candidate into the checkout's branch, every refusal decided before anything moves
 * - land/remove-run-workspace.ts  removes a concluded run's worktree and branch, running no git inside the worktree
 * - chain/open-chain.ts           reads and verifies every link; torn tail reported, corruption refused (R8.4)
 * - chain/read-chain-lines.ts     the chain's complete lines from an offset, read in chunks: memory flat whatever its length
 * - chain/digest-lines.ts        each line's sha256, for the links: in this thread for short readings, on a worker for long ones
 * - chain/digest-lines-on-worker.ts the worker that hashes lines in the shared buffer they were read into, beside the parsing
 * - chain/chain-checkpoint.ts     the last verified tip (digest, seq, offset) kept beside the chain, checked against its bytes
 * - chain/open-chain-for-append.ts an append's reading: from the checkpoint if it matches, else from the beginning
 * - chain/append-record.ts        links, appends and fsyncs one record; truncates a torn tail first
 * - chain/check-chain-tip.ts      before an append: the position is still the chain's tip, read from its tail only
 * - chain/refuse-unreadable-record.ts before an append: the record parses with the reader's schema and is within the bound, or nothing is written
 * - chain/record-bound.ts        the most bytes a record takes: a longer line is refused, never read whole nor cut as torn
 * - chain/chain-summary.ts        `run list`'s reading: every link verified, only each record's leading fields parsed
 * - chain/open-chain-for-run.ts  `accept`'s reading: every link verified, the judged run's intents and outcomes read whole, the rest by leading fields
 * - chain/summary-fast-check.ts  accepts a summary the schema certainly accepts without the schema's parse; the rest go to it
 * - chain/leading-fields.ts      where a line's leading fields end: the text `run list` parses of each record
 * - chain/summary-reading-on-worker.ts the hashing worker reads every other batch's leading fields too, as far as it is certain
 * - chain/chain-paths.ts          where a target's records live in the product home
 * - chain/target-name.ts          target.json: the repository a target's records belong to, one schema for its writer and readers
 * - lock/repository-lock.ts       one live attempt per target; stale locks of dead supervisors taken over (R8.5)
 * - lock/take-over-stale-lock.ts  a stale lock has exactly one taker: a claim per lock file, created with link(2)
 * - lock/lock-holder.ts           the lock record, its identity (inode and bytes), and whether its holder lives
 * - lock/dead-attempt-temporary-directory.ts  the TMPDIR of an attempt whose supervisor died, removed by the one taking its lock over (R5.5)
 * - coverage/*                    command coverage (R9), every reading of it: from the working tree at planning, at the base commit at launch
 * - workspace/*                   the target and its base commit (one rev-parse), the git worktree under .statecraft/state (R8.6)
 * - workspace/candidate.ts        the candidate's shape: commit, tree, who made it, the attempt's start, changed paths (R13.2)
 * - workspace/attempt-start.ts    a retry's workspace as the attempt finds it: HEAD, its tree with uncommitted changes, what it is to the run
 * - workspace/identify-candidate.ts a completed attempt's candidate, before its outcome: HEAD, or a statecraft commit of the tree (R13.2)
 * - workspace/workspace-git-from-outside.ts git over an agent's workspace from outside the sandbox: its registered git directory, no hooks, killed at a bound
 * - workspace/who-made-candidate.ts statecraft, the agent, or earlier: told from the attempt's start, never from a commit's author
 * - workspace/registered-git-directory.ts a worktree's git directory found from the repository's side, and git's options for a worktree an agent could write (R12)
 * - workspace/stopped-git-index-lock.ts the index lock a git killed at the attempt's end leaves, removed
 * - workspace/workspace-git-as-made.ts the workspace's .git pointer and registration as statecraft made them: compared, and put back at an attempt's end
 * - workspace/uncommitted-paths.ts the checkout's uncommitted paths (one git status): not part of an attempt, said at its start
 * - workspace/end-of-attempt-git.ts what the end's git runs under: the bound's signal, and what follows a stopped git
 * - posture.ts                    the posture schema (R6)
 * - git-process.ts                one short git process, run to its end (workspace/git.ts, coverage/git-for-reading.ts)
 * - run-id.ts                     run ids
 * - refusal.ts                    refusals (exit 2) and i/o failures (exit 4) as values
 *
 * What this package does not claim: that a record is safe from a process running as the same
 * user outside the boundary (with `--boundary none`, or any other process of the operator's: the
 * chain is tamper-evident, not tamper-proof, and the last record has no successor to vouch for
 * it); that the boundary denies the network or Unix sockets (R12's named residuals).
 */
export * from './posture.js';
export * from './refusal.js';
export * from './run-id.js';
export * from './chain/chain-paths.js';
export * from './chain/target-name.js';
export * from './chain/record-schemas.js';
export * from './chain/acceptance-record.js';
export * from './chain/land-record.js';
export * from './chain/open-chain.js';
export * from './chain/append-record.js';
export * from './chain/check-chain-tip.js';
export * from './chain/refuse-unreadable-record.js';
export { MAX_RECORD_BYTES } from './chain/record-bound.js';
export * from './chain/chain-checkpoint.js';
export * from './chain/open-chain-for-append.js';
export * from './chain/read-chain-lines.js';
export { WORKER_DIGEST_THRESHOLD } from './chain/digest-lines.js';
export * from './lock/repository-lock.js';
export * from './workspace/git.js';
export * from './workspace/resolve-target.js';
export * from './workspace/exclude-state.js';
export * from './workspace/prepare-workspace.js';
export * from './workspace/candidate.js';
export * from './workspace/identify-candidate.js';
export { registeredGitDirectory, untrustedWorktreeGitOptions } from './workspace/registered-git-directory.js';
export { workspaceGitChanges, type WorkspaceGitChange, type WorkspaceGitRestoration } from './workspace/workspace-git-as-made.js';
export * from './plan/plan-run.js';
export { targetInsideManagedPath, targetInWritablePlace } from './plan/target-outside-managed-paths.js';
export * from './plan/label-qualification.js';
export * from './plan/credential-present.js';
export * from './launch/failed-file.js';
export * from './launch/read-kept-file.js';
export { managedPathsMustNotReach } from './launch/launch-boundary.js';
export { targetsTheHomeNames } from './launch/targets-the-home-names.js';
export { endOfAttempt, endOfAttemptBoundMs, type EndOfAttempt } from './launch/end-of-attempt-bound.js';
export * from './launch/launch-attempt.js';
export * from './launch/compose-posture.js';
export * from './chain/chain-summary.js';
export * from './chain/summary-fast-check.js';
export * from './chain/open-chain-for-run.js';
export { readOperatorGitIdentity } from './workspace/read-operator-git-identity.js';
export { readUncommittedPaths, type UncommittedPaths } from './workspace/uncommitted-paths.js';
export * from './coverage/index.js'; // command coverage read from the working tree and the base commit (R9.4)
export * from './reconcile/reconcile-dangling-intents.js';
export * from './land/land-commit.js';
export * from './land/remove-run-workspace.js';
