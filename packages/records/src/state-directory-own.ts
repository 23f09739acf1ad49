import { lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_DIRECTORY } from './workspace-location.js';

/** The directories statecraft makes in a checkout and removes from: each must be its own directory, never reached through a link. */
const STATE_PATHS = ['.statecraft', STATE_DIRECTORY, join(STATE_DIRECTORY, 'workspaces'), join(STATE_DIRECTORY, 'checks')];

/**
 * Why the target's state directory is not statecraft's own to use, or nothing when it is: each of
 * `.statecraft`, `.statecraft/state` and its `workspaces` and `checks` absent or a directory, none
 * a symbolic link. statecraft makes the agents' workspaces and the checks' worktrees there and
 * removes what it finds left there; a link among them — a commit can carry one into the checkout,
 * a landed candidate's among them — would make it write and delete wherever the link leads (the
 * checkout's own `.git` included). Looked at, never followed (decision 0393).
 */
export function stateDirectoryNotOwn(target: string): string | undefined {
  for (const relative of STATE_PATHS) {
    const path = join(target, relative);
    const found = lstatSync(path, { throwIfNoEntry: false });
    if (found === undefined || found.isDirectory()) continue;
    const what = found.isSymbolicLink() ? `a symbolic link (to ${JSON.stringify(readlinkSync(path))})` : 'not a directory';
    return (
      `${path} is ${what}: statecraft makes and removes the agents' workspaces and the checks' worktrees under ${join(target, STATE_DIRECTORY)} ` +
      `and never follows a link there; remove it (a commit that carries it: git rm it), then run again`
    );
  }
  return undefined;
}
