import type { Command } from 'commander';
import type { land } from './land.js';
import { registerVerb } from './register-verb.js';
import { once, parsePositiveInteger } from './option-parsers.js';
import { targetAndRun } from './target-and-run.js';
import { targetOrCurrentRepository } from './default-target.js';
import { UsageError } from '../errors.js';

const repeatable = (value: string, previous: unknown): string[] => [...(previous as string[]), value];

/** Registers `land`. Computing is in land.ts. */
export function registerLand(program: Command): void {
  registerVerb<{ attempt?: string; squash: boolean; group?: string; bundle: string[]; trust: string[] }, Awaited<ReturnType<typeof land>>['value']>(program, {
    name: 'land',
    summary: "bring an accepted attempt's candidate into your current branch",
    description:
      "Land one accepted attempt whose receipt is current: its candidate is brought into the checkout's current branch " +
      '(a fast-forward when possible, else a merge commit; --squash for one commit), authored by your git identity. ' +
      'A land record naming the receipt and the new commit is appended to the chain.',
    usage: '[target] <run> [options]',
    arguments: [
      ['[target]', 'the git repository, your checkout (default: the one containing the current directory)'],
      ['[run]', 'the run: its id, a unique start of it, or latest'],
    ],
    options: [
      ['--attempt <n>', 'which attempt of the run (default: its latest)', once('--attempt')],
      ['--squash', 'make one commit on your branch holding the merged tree'],
      ['--group <id>', 'land the attempt `statecraft collect` chose for this run group, from its bundle (with --bundle, --trust)', once('--group')],
      ['--bundle <file>', 'with --group: a bundle of the group; the chosen one is found among them (repeatable)', repeatable, []],
      ['--trust <key>', 'with --group: a public key file whose signatures are believed (repeatable; or STATECRAFT_TRUSTED_KEYS)', repeatable, []],
    ],
    help: `
Examples:
  statecraft land latest                 the latest run, in this repository
  statecraft land ./repo 20261202T0      a unique start of a run id
  statecraft land ./repo <run-id> --squash --json
  statecraft land ./repo --group "$GROUP" --bundle bundles/*.tar \\
      --trust ci.pub                     the attempt collect chose, fetched
                                         from its bundle and landed

Only an accepted attempt is landed, and only while its receipt is current
(its candidate still the tip of statecraft/<run>, or already landed and
still in that branch). Refused, with nothing changed: uncommitted changes
to tracked files, a merge in progress, a detached HEAD, a conflict (the
merge is computed first; your branch, index and work tree stay as they
were). Once landed the receipt stays current while the landed commit is in
your branch, even after statecraft/<run> is deleted.
JSON: { target, runId, attempt, candidate, branch, before, commit, method,
receipt: { path, sha256 }, record: { line, sha256 } }.
Exit: 0 landed; 2 refused (also no such run); 3 usage (also an ambiguous
start of a run id); 4 an i/o error.`,
    answer: async ([first, second], flags, home) => {
      if (flags.group !== undefined) return landGroup(home, first, second, flags);
      if (flags.bundle.length > 0 || flags.trust.length > 0)
        throw new UsageError('--bundle and --trust apply only with --group', 'name the collected group: --group <id>');
      const attempt = flags.attempt === undefined ? undefined : parsePositiveInteger('--attempt', flags.attempt, Number.MAX_SAFE_INTEGER);
      const { land } = await import('./land.js');
      return land({ home, ...(await targetAndRun(home, first, second)), ...(attempt === undefined ? {} : { attempt }), squash: flags.squash });
    },
  });
}

/** `land --group`: the target alone (no run: the selection names it), the bundles and the keys to believe. */
async function landGroup(
  home: string,
  first: string | undefined,
  second: string | undefined,
  flags: { attempt?: string; squash: boolean; group?: string; bundle: string[]; trust: string[] },
) {
  if (second !== undefined || flags.attempt !== undefined)
    throw new UsageError('--group names the attempt to land: give no run and no --attempt', 'statecraft land [target] --group <id> --bundle <file>');
  if (flags.bundle.length === 0) throw new UsageError('--group needs the bundles', 'give --bundle <file> for the chosen bundle, or for each of the group');
  const { landGroupFromBundles } = await import('./land.js');
  return landGroupFromBundles({
    home,
    target: await targetOrCurrentRepository(first),
    group: flags.group ?? '',
    bundles: flags.bundle,
    trust: flags.trust,
    squash: flags.squash,
  });
}
