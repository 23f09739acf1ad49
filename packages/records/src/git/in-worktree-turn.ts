/** Changes started and not yet ended in this process, and the last of them. */
let underWay = 0;
let last: Promise<unknown> = Promise.resolve();

/**
 * Runs one change to the repository's worktree registrations (`git worktree add`, `remove` or
 * `prune`, a branch deleted, a worktree's git directory removed) once every change this process
 * started before it has ended. Git reads every registration when it adds a worktree or deletes a
 * branch (is the branch checked out elsewhere?), and dies on one another git is still writing or
 * removing ("failed to read .git/worktrees/<id>/commondir"): the attempts of one run, or an
 * attempt and another's acceptance, would refuse each other at random. Another statecraft process
 * on the target waits on the target's lock instead.
 *
 * With none under way the change starts at once, before this returns: callers start git before
 * CPU work of their own that it runs beside.
 */
export function inWorktreeTurn<T>(change: () => Promise<T>): Promise<T> {
  const turn = underWay === 0 ? startNow(change) : last.then(change);
  underWay += 1;
  const ended = (): void => {
    underWay -= 1;
  };
  last = turn.then(ended, ended);
  return turn;
}

/** `change` called before this returns; a throw of its own becomes the rejection. */
function startNow<T>(change: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => resolve(change()));
}
