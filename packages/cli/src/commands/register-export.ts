import type { Command } from 'commander';
import type { exportRun } from './export.js';
import { registerVerb } from './register-verb.js';
import { once } from './option-parsers.js';
import { targetAndRun } from './target-and-run.js';

/** Registers `export`. Computing is in export.ts. */
export function registerExport(program: Command): void {
  registerVerb<{ output?: string }, Awaited<ReturnType<typeof exportRun>>['value']>(program, {
    name: 'export',
    summary: 'write one file holding everything needed to check a run elsewhere',
    description:
      "Write one run's evidence as a bundle: its chain records and the lines they link to, every kept file " +
      '(request, prompt, stream, stderr, result, check outputs, receipts), the qualification records, their ' +
      "signatures and the public keys, the reviewer's page, and a manifest of every file's sha256. " +
      '`statecraft verify` checks it on any machine.',
    usage: '[target] <run> [-o <file>]',
    arguments: [
      ['[target]', 'the git repository (default: the one containing the current directory)'],
      ['[run]', 'the run: its id, a unique start of it, or latest'],
    ],
    options: [['-o, --output <file>', 'where to write it (default: statecraft-<run>.tar); ending in / writes a directory', once('--output')]],
    help: `
Examples:
  statecraft export latest               statecraft-<run>.tar, here
  statecraft export ./repo <run> -o evidence.tar
  statecraft export ./repo <run> -o evidence/
                                         the same files, in a directory

An existing file is never written over.
JSON: { path, form, runId, target, files, bytes, notExported }.
Exit: 0 written; 2 refused (no such run, the path exists); 4 an i/o error.`,
    answer: async ([first, second], flags, home) => {
      const { exportRun } = await import('./export.js');
      return exportRun({ home, ...(await targetAndRun(home, first, second)), ...(flags.output === undefined ? {} : { output: flags.output }) });
    },
  });
}
