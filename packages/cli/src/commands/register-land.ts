import type { Command } from 'commander';
import { resolveProductHome } from '@statecraft/records';
import { emit } from '../answer.js';
import { land } from './land.js';
import { once, parsePositiveInteger } from './run-options.js';

/** Registers `land` (issue 30 item 5). Computing is in land.ts. */
export function registerLand(program: Command): void {
  program
    .command('land')
    .summary("bring an accepted attempt's candidate into your current branch")
    .description(
      "Land one accepted attempt whose receipt is current: its candidate is brought into the checkout's current branch " +
        '(a fast-forward when possible, else a merge commit; --squash for one commit), authored by your git identity. ' +
        'A land record naming the receipt and the new commit is appended to the chain.',
    )
    .argument('<target>', 'the git repository (your checkout)')
    .argument('<run>', 'the run id')
    .option('--attempt <n>', 'which attempt of the run (default: its latest)', once('--attempt'))
    .option('--squash', 'make one commit on your branch holding the merged tree', false)
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft land ./repo <run-id>
  statecraft land ./repo <run-id> --squash --json

Only an accepted attempt is landed, and only while its receipt is current
(its candidate still the tip of statecraft/<run>, or already landed and
still in that branch). Refused, with nothing changed: uncommitted changes
to tracked files, a merge in progress, a detached HEAD, a conflict (the
merge is computed first; your branch, index and work tree stay as they
were). Once landed the receipt stays current while the landed commit is in
your branch, even after statecraft/<run> is deleted.
JSON: { target, runId, attempt, candidate, branch, before, commit, method,
receipt: { path, sha256 }, record: { line, sha256 } }.
Exit: 0 landed; 2 refused; 3 usage; 4 an i/o error.`,
    )
    .action(async (target: string, runId: string, flags: { attempt?: string; squash: boolean; json: boolean }) => {
      const attempt = flags.attempt === undefined ? undefined : parsePositiveInteger('--attempt', flags.attempt, Number.MAX_SAFE_INTEGER);
      const answer = await land({ home: resolveProductHome().path, target, runId, ...(attempt === undefined ? {} : { attempt }), squash: flags.squash });
      emit(answer, flags.json);
    });
}
