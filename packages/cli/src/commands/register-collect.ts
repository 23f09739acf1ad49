import type { Command } from 'commander';
import type { collect } from './collect.js';
import { registerVerb } from './register-verb.js';
import { once } from './option-parsers.js';

/** Registers `collect`. Computing is in collect.ts. */
export function registerCollect(program: Command): void {
  registerVerb<{ trust: string[]; group?: string }, Awaited<ReturnType<typeof collect>>['value']>(program, {
    name: 'collect',
    summary: "rank the attempts of a run group from their bundles, spread over an engine's jobs",
    description:
      'Verify each bundle `statecraft export` wrote on the jobs of a run group, offline and with the trusted keys; ' +
      'refuse, by name, any that does not verify, belongs to another group or starts from another base; rank the rest ' +
      "by the same rule as one run's attempts; record the selection in this home and print the table. " +
      '`statecraft land --group` then takes the chosen candidate from its bundle.',
    usage: '<bundle>... [target] --trust <key> [options]',
    arguments: [
      ['<words...>', 'the bundles (tar or directory), then optionally the git repository to record into (default: the one containing the current directory)'],
    ],
    options: [
      [
        '--trust <key>',
        'a public key file whose signatures are believed (repeatable; or STATECRAFT_TRUSTED_KEYS; at least one)',
        (value: string, previous: unknown) => [...(previous as string[]), value],
        [],
      ],
      ['--group <id>', 'the run group to collect (default: the group of the first bundle that verifies)', once('--group')],
    ],
    help: `
Examples:
  statecraft collect bundles/*.tar --trust ci.pub
  statecraft collect a.tar b.tar c.tar ./repo --trust m1.pub --trust m2.pub
  statecraft collect bundles/*.tar --group "$GROUP" --trust ci.pub --json
  statecraft land ./repo --group "$GROUP" --bundle bundles/attempt-1.tar \\
      --trust ci.pub                    land the chosen candidate

A bundle is refused, by its path and why, when it does not verify with the
trusted keys, is not an attempt of a group (run --group), belongs to another
group, starts from another base commit than the others or from one the
target repository does not hold, or repeats an index already collected.
JSON: { target, group, baseCommit, rule, ranked, refused, record }: ranked
best first, each { bundle, digest, index, runId, attempt, key, chosen }.
Exit: 0 every bundle ranked; 1 some refused, the rest ranked and recorded;
2 none could be collected, nothing recorded; 3 usage; 4 an i/o error.`,
    answer: async ([words], flags, home) => {
      const { collect } = await import('./collect.js');
      return collect({
        home,
        words: (words as unknown as string[] | undefined) ?? [],
        trust: flags.trust,
        ...(flags.group === undefined ? {} : { group: flags.group }),
      });
    },
  });
}
