import type { Command } from 'commander';
import { resolveProductHome } from '@statecraft/environment';
import { emit } from '../answer.js';
import { doctor } from './doctor.js';

/** Registers `doctor` (issue 3 item 8). Computing is in doctor.ts. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .summary('check the product home and every record chain in it; repair nothing')
    .description(
      'Verify every chain in $STATECRAFT_HOME: broken links (corruption), torn final lines, intents with no\n' +
        'outcome (a supervisor that died), stale locks. Reports findings; repairs nothing.\n' +
        'Exit: 0 nothing found; 1 findings.',
    )
    .option('--json', 'print one JSON document instead of text', false)
    .action(async (flags: { json: boolean }) => {
      emit(await doctor({ home: resolveProductHome().path }), flags.json);
    });
}
