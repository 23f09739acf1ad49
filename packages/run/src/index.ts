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
 * - launch/launch-run.ts        several attempts of one run: the lock taken once for the run, each attempt launched in turn-taking appends, then what ends the run
 * - launch/before-intent.ts       what an intent needs besides the readings, started once the workspace's directory exists: TMPDIR, environment, request, boundary
 * - launch/conclude-attempt.ts    after the adapter: the result kept, the candidate identified (R13.2), the outcome appended
 * - launch/build-request.ts       the request file the adapter is pointed at (R1.2)
 * - launch/compose-posture.ts     the posture on the intent and on the outcome (R6)
 * - launch/temporary-directory.ts the private per-attempt TMPDIR (R5.5)
 * - launch/launch-boundary.ts     the protected evidence boundary for one launch: request handed over, managed paths checked, profile, probe (R12)
 * - launch/targets-the-home-names.ts every repository the product home keeps records for, and its git directories: no managed path may reach them (R12)
 * - launch/outcome-reserve.ts     room held from the intent to the outcome, so a home the stream filled still takes the outcome (R8.4)
 * - reconcile/reconcile-dangling-intents.ts under the lock, each intent whose supervisor was lost concluded interrupted (supervisor-lost) (R8.3)
 * - reconcile/lost-attempt-result.ts the result of such an attempt: its kept stream read again, each kept file's digest as it stands
 * - reconcile/restore-lost-workspace-git.ts such an attempt's workspace git put back as statecraft made it (issue 29 item 3)
 * - launch/end-of-attempt-bound.ts the bound on the end's git (the tree the agent left is read within 10-60 s, or at the operator's interrupt)
 * - launch/intent-files.ts       the intent's request, prompt and reserve, written beside the probe and withdrawn when no intent follows
 * - launch/workspace-start.ts    the workspace as the attempt finds it, read before the intent (bounded); unread, the attempt is refused
 * - land/land-commit.ts           brings a candidate into the checkout's branch, every refusal decided before anything moves
 * - land/land-and-record.ts      the last step of every landing: the candidate moved, then the land record appended
 * - land/remove-run-workspace.ts  removes a concluded run's worktree and branch, running no git inside the worktree
 * - land/land-attempt.ts          `land`: an accepted attempt with a current receipt taken into the operator's branch, recorded
 * - land/land-from-bundle.ts     `land --group`: the chosen attempt of a collected group, fetched from its bundle and landed
 * - land/prune-target.ts          `prune`: concluded runs' worktrees and branches removed under the lock, recorded
 * - coverage/*                    command coverage (R9), every reading of it: from the working tree at planning, at the base commit at launch
 * - workspace/*                   the target and its base commit (one rev-parse), the git worktree under .statecraft/state (R8.6)
 * - workspace/attempt-start.ts    a retry's workspace as the attempt finds it: HEAD, its tree with uncommitted changes, what it is to the run
 * - workspace/identify-candidate.ts a completed attempt's candidate, before its outcome: HEAD, or a statecraft commit of the tree (R13.2)
 * - workspace/workspace-git-from-outside.ts git over an agent's workspace from outside the sandbox: its registered git directory, no hooks, killed at a bound
 * - workspace/who-made-candidate.ts statecraft, the agent, or earlier: told from the attempt's start, never from a commit's author
 * - workspace/stopped-git-index-lock.ts the index lock a git killed at the attempt's end leaves, removed
 * - workspace/uncommitted-paths.ts the checkout's uncommitted paths (one git status): not part of an attempt, said at its start
 * - workspace/end-of-attempt-git.ts what the end's git runs under: the bound's signal, and what follows a stopped git
 * - refusal.ts                    refusals (exit 2) and i/o failures (exit 4) as values
 * - attempt/attempt-request.ts the request file of one attempt (R1.2)
 * - attempt/run-attempt.ts   the attempt core `run` and `qualify` share: supervise, then classify
 * - suite/index.ts           the negative suite: case table, runner, runAdapterOnce, the fixture driver (R4)
 * - supervise/check-executable.ts the adapter executable checked before the spawn
 * - supervise/check-workspace.ts the workspace checked before the spawn (R7.1)
 * - supervise/deadline.ts    the deadline timer started at spawn (R7.2)
 * - supervise/keep-bound.ts  how many bytes of each evidence file are kept (STATECRAFT_KEEP_BOUND, 1 GiB): past it the attempt or check is stopped (R8.4)
 * - supervise/kill-tree.ts   the process tree killed: the namespace's first process, or the group and the tagged escapees (R7.2, R7.3)
 * - supervise/options.ts     what the supervisor needs, and its answer
 * - supervise/spawn-adapter.ts the adapter spawned with execa: no shell, the constructed environment, the attempt tag (R7.1)
 * - supervise/stream-tee.ts  the evidence files written as the stream is read; an attempt whose evidence cannot be written is stopped
 * - supervise/supervise-adapter.ts one adapter process supervised: spawn, deadline, stream, kill, survivors (R7)
 * - supervise/supervise-check.ts one acceptance check (not a protocol speaker) under the adapter's supervision, inside the boundary when given (R13.3, R12)
 * - supervise/supervisor-death-warden.ts the tree ended should the supervisor die outright, where the kernel alone does not (PID namespace, process group): a shell that kills the group and the tagged processes (R7.2, R7.3)
 * - supervise/survivors.ts   the bounded survivor probe after the kill (R7.3)
 * - supervise/watch-child.ts the child's exit and pipes watched, never awaited past the deadline
 *
 * What this package does not claim: that a record is safe from a process running as the same
 * user outside the boundary (with `--boundary none`, or any other process of the operator's: the
 * chain is tamper-evident, not tamper-proof, and the last record has no successor to vouch for
 * it); that the boundary denies the network or Unix sockets (R12's named residuals).
 */
export { type RunFailure, type RunRefusal } from './refusal.js';
export { prepareWorkspace } from './workspace/prepare-workspace.js';
export { planRun, type RunPlan } from './plan/plan-run.js';
export { targetInsideManagedPath, targetInWritablePlace } from './plan/target-outside-managed-paths.js';
export { type MissingCredentialDetail } from './plan/credential-present.js';
export { managedPathsMustNotReach } from './launch/launch-boundary.js';
export { targetsTheHomeNames } from './launch/targets-the-home-names.js';
export { endOfAttempt, endOfAttemptBoundMs } from './launch/end-of-attempt-bound.js';
export { type Launch, launchAttempt } from './launch/launch-attempt.js';
export { launchRun, parallelBound, type RunAttempt, type RunLaunch } from './launch/launch-run.js';
export { readOperatorGitIdentity } from './workspace/read-operator-git-identity.js';
export { readUncommittedPaths, type UncommittedPaths } from './workspace/uncommitted-paths.js';
export {
  assessCoverage,
  checkCoverageAtLaunch,
  compareReadings,
  extractVerificationCommands,
  gitReadingEnvironment,
  planCoverageAt,
  type PlannedCoverage,
  readCoverageInputs,
  runGitForReading,
  specCandidatePaths,
  suitePlanDigest,
} from './coverage/index.js';
export { reconcileDanglingIntents } from './reconcile/reconcile-dangling-intents.js';
export type { LostWorkspaceGit } from './reconcile/restore-lost-workspace-git.js';
export { landAttempt } from './land/land-attempt.js';
export { landFromBundle } from './land/land-from-bundle.js';
export { pruneTarget } from './land/prune-target.js';
export { type SuperviseOptions } from './supervise/options.js';
export { superviseAdapter } from './supervise/supervise-adapter.js';
export { buildAttemptRequest } from './attempt/attempt-request.js';
export { readKeepBound } from './supervise/keep-bound.js';
export { WARDEN_NAME } from './supervise/supervisor-death-warden.js';
export {
  comparableResult,
  findTaggedProcesses,
  type NegativeSuiteAnswer,
  reportedDescendant,
  runAdapterOnce,
  type RunAdapterOnceAnswer,
  type RunAdapterOnceOptions,
  runNegativeSuite,
  type RunNegativeSuiteOptions,
} from './suite/index.js';
export { superviseCheck, type SupervisedCheck } from './supervise/supervise-check.js';
