import type { Command } from 'commander';
import type { AcceptFlags } from './accept-from-flags.js';
import { collect, once } from './option-parsers.js';

/** The defaults of the check and suite deadlines. */
export const DEFAULT_CHECK_DEADLINE = '10m';
export const DEFAULT_SUITE_DEADLINE = '60m';

/** Registers `accept` (R13). Computing is in accept.ts. */
export function registerAccept(program: Command): void {
  program
    .command('accept')
    .summary("judge a completed attempt by running the repository's own checks over the exact bytes it left")
    .description(
      "Judge one attempt: its candidate commit, the suite read at the base (the spec's Verification commands, or " +
        '"acceptance.checks" of .statecraft/environment.json), each check run in a fresh worktree of the candidate under ' +
        'the supervision an adapter gets. The verdict is appended to the chain; an accepted candidate gets a receipt.',
    )
    .usage('[target] <run> [options]')
    .argument('[target]', 'the git repository (default: the one containing the current directory)')
    .argument('[run]', 'the run: its id, a unique start of it, or latest')
    .option('--attempt <n>', 'which attempt of the run (default: the one the run chose among several, else its latest)', once('--attempt'))
    .option('--check-deadline <duration>', 'how long each check may run (e.g. 90s, 10m)', once('--check-deadline'), DEFAULT_CHECK_DEADLINE)
    .option('--suite-deadline <duration>', 'how long the whole suite may run', once('--suite-deadline'), DEFAULT_SUITE_DEADLINE)
    .option(
      '--boundary <mode>',
      'the protected evidence boundary the checks run inside: bwrap (default) or none, recorded (also STATECRAFT_BOUNDARY)',
      once('--boundary'),
    )
    .option('--expose <path>', 'a path of a hidden home shown read-only to the checks inside the boundary (repeatable)', collect, [])
    .option('--json', 'print one JSON document instead of text', false)
    .option('--verbose', 'the whole acceptance in text: candidate, suite, each check, boundary, policy, output tails', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft accept ./repo <run-id>
  statecraft accept latest               the latest run, in this repository
  statecraft accept ./repo <run-id> --verbose   every check, boundary, policy
  statecraft accept ./repo <run-id> --attempt 2 --check-deadline 2m --json
  statecraft accept ./repo <run-id> --boundary none

JSON: { verdict, reason, explanation, candidate, checks, checksNotRun,
authority: { touched }, receipt, receiptState, policyDigest, ... }.
Verdicts: accepted (a receipt is minted), failed, no-acceptance, interrupted,
authority-change, not-attempted.
Checks run inside the evidence boundary (product home hidden, only the
candidate's worktree and a private TMPDIR writable; the repository's .git is
read-only inside, so a check can run git status or git diff but not commit).
An attempt already judged accepted, failed or authority-change is not judged
again (refused, exit 2): make a new attempt with statecraft run --retry <run>.
An attempt that changed nothing since it started (its candidate holds the
tree its workspace started with: the base's, or an earlier attempt's) is
not-attempted (attempt-changed-nothing): judge the attempt whose tree it is.
A check whose stdout or stderr passes STATECRAFT_KEEP_BOUND (default 1GiB) is
stopped there: no-acceptance (check-output-bound).
Exit: 0 accepted; 1 any other verdict; 2 refused (a live attempt, a broken
chain, no such run, a verdict already final, a boundary that cannot be
established); 3 usage; 4 an i/o error.`,
    )
    .action(async (first: string | undefined, second: string | undefined, flags: AcceptFlags) =>
      (await import('./accept-from-flags.js')).acceptFromFlags(first, second, flags),
    );
}
