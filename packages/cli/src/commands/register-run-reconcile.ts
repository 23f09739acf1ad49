import type { Command } from 'commander';
import { emit } from '../answer.js';
import { loadRecords } from './load-packages.js';

/** Registers `run reconcile` (R8.3): closing the attempts whose supervisor was lost. Computing is in run-reconcile.ts. */
export function registerRunReconcile(runCommand: Command): void {
  runCommand
    .command('reconcile')
    .description(
      'Conclude every dangling intent of <target> — an attempt whose supervisor was lost (kill -9, a crash, a reboot) before it ' +
        "recorded an outcome — as interrupted (supervisor-lost), appended to its chain under the target's lock. A live attempt is never touched.",
    )
    .argument('<target>', 'the git repository')
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
A supervisor killed with SIGKILL leaves an intent and no outcome: \`run list\`
shows the attempt dangling and \`doctor\` reports it (exit 1) on every call.
reconcile takes the target's lock — refused (exit 2) while a live attempt or an
acceptance holds it, so a running attempt is never reconciled — and appends,
for each intent without an outcome, an outcome \`interrupted\` with cause
\`supervisor-lost\`. Its evidence is what the supervisor kept: the stream (read
again with the supervisor's own reader), stderr, and their digests, sealed in
the chain; a file it never wrote is named as not kept. Processes of the attempt
still running are recorded as survivors, never killed. Nothing is rewritten;
run it again and it appends nothing.

Examples:
  statecraft doctor                      finds: dangling-intent
  statecraft run reconcile ./repo        concludes it
  statecraft run show ./repo <run-id>    interrupted (supervisor-lost)
  statecraft run reconcile ./repo --json

JSON: { target, chain, reconciled }: each a { runId, attempt, intentLine,
outcomeLine, outcome, cause, stream, stderr, survivors }; [] when nothing
dangled.
Exit: 0 done (also when nothing dangled); 2 refused (a live attempt or
acceptance holds the target, a broken chain, not a repository); 3 usage; 4 an
i/o error (the file is named, with how many outcomes were appended before it).`,
    )
    .action(async (target: string, _flags: { json: boolean }, command: Command) => {
      const { runReconcile } = await import('./run-reconcile.js');
      const { checkProductHomeWritable, resolveProductHome } = await loadRecords();
      const home = resolveProductHome().path;
      checkProductHomeWritable(home);
      emit(await runReconcile({ home, target }), command.optsWithGlobals<{ json?: boolean }>().json === true);
    });
}
