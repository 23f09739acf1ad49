import type { Command } from 'commander';
import type { verifyBundle } from './verify.js';
import { registerVerb } from './register-verb.js';

/** Registers `verify`. Computing is in verify.ts. */
export function registerVerify(program: Command): void {
  registerVerb<{ trust: string[] }, Awaited<ReturnType<typeof verifyBundle>>['value']>(program, {
    name: 'verify',
    summary: 'check an exported bundle with its own bytes, on any machine',
    description:
      'Check a bundle `statecraft export` wrote, with no product home: every file against its digest, the ' +
      'records against the links that anchor them, the outcome classified again from the kept stream, the ' +
      "receipt's checks and candidate against the records, and each signature against a trusted key.",
    usage: '<bundle> [--trust <key>]...',
    arguments: [['<bundle>', 'the tar or directory `statecraft export` wrote']],
    options: [
      [
        '--trust <key>',
        'a public key file whose signatures are believed (repeatable; or STATECRAFT_TRUSTED_KEYS)',
        (value: string, previous: unknown) => [...(previous as string[]), value],
        [],
      ],
    ],
    help: `
Examples:
  statecraft verify evidence.tar
  statecraft verify evidence.tar --trust ci.pub
  statecraft verify evidence/ --json     a directory bundle

JSON: { bundle, runId, target, holds, findings }: each finding a
{ check, file, field?, message }, the file relative to the bundle.
Exit: 0 everything holds; 1 a finding; 2 the bundle cannot be read.`,
    answer: async ([bundle], flags) => {
      const { verifyBundle } = await import('./verify.js');
      return verifyBundle({ bundle: bundle ?? '', trust: flags.trust });
    },
  });
}
