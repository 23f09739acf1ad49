import type { Command } from 'commander';
import { emit } from '../answer.js';
import { productHomePath } from './load-packages.js';

/** Registers `doctor`. Computing is in doctor.ts. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .summary('check the product home and every record chain in it; repair nothing')
    .description(
      'Verify every chain in $STATECRAFT_HOME: broken links (corruption), torn final lines, intents with no ' +
        'outcome (a supervisor that died: `statecraft run reconcile <target>` concludes them), stale locks; every file kept beside a chain against the digest the ' +
        "chain holds; every outcome against its kept event stream, classified again by the supervisor's own " +
        'classifier. Reports findings; repairs nothing.',
    )
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft doctor                      every chain, and what was found in it
  statecraft doctor --json               CI: exit 1 when anything was found
  STATECRAFT_HOME=/srv/sc statecraft doctor
                                         another product home

JSON: { home, exists, targets, findings }: each target's chain state, record
and attempt counts, dangling intents and how many outcomes were re-classified;
each finding a { kind, path, message } (kinds include altered-artifact,
missing-artifact, outcome-disagrees-with-stream).
Exit: 0 nothing found; 1 findings.`,
    )
    .action(async (flags: { json: boolean }) => {
      const { doctor } = await import('./doctor.js');
      emit(await doctor({ home: await productHomePath() }), flags.json);
    });
}
