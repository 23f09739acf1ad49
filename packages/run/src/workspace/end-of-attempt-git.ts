/**
 * What the git run over a workspace at the end of an attempt runs under (launch/end-of-attempt-bound.ts):
 * a signal that kills it at the end's bound or the operator's interrupt, and what to do once a git
 * was stopped — its index lock removed, once nothing else can hold it.
 */
export interface EndOfAttemptGit {
  signal: AbortSignal;
  /** Called after a git in this worktree (its registered git directory) was killed by `signal`. Never rejects. */
  stopped(gitDirectory: string): Promise<void>;
}
