import type { Command } from 'commander';
import { resolveProductHome } from '@statecraft/records';
import { emit } from '../answer.js';
import { UsageError } from '../errors.js';
import { prune } from './prune.js';
import { once } from './run-options.js';

/** Registers `prune` (issue 30 item 6). Computing is in prune.ts. */
export function registerPrune(program: Command): void {
  program
    .command('prune')
    .summary('remove the worktrees and branches of concluded attempts; records stay')
    .description(
      "Remove the worktrees and statecraft/<run> branches of runs whose attempts all concluded, under the target's lock " +
        '(refused while a live attempt holds it). The chain and the files kept beside it are never removed; one prune ' +
        'record names what went.',
    )
    .argument('<target>', 'the git repository')
    .option('--older-than <age>', 'only runs last recorded longer ago than this (e.g. 7d, 12h, 30m; default: any age)', once('--older-than'))
    .option('--keep-accepted', 'keep runs with an accepted attempt', false)
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft prune ./repo --older-than 7d
  statecraft prune ./repo --keep-accepted --json

A landed run's branch goes only while the landed commit is still in the
branch it landed on. A second prune finds nothing and appends nothing.
JSON: { target, removed: [{ runId, workspace, branch, branchCommit }],
kept: [{ runId, why }], record }.
Exit: 0 done (nothing to remove included); 2 refused (the target's lock is
held); 3 usage; 4 an i/o error.`,
    )
    .action(async (target: string, flags: { olderThan?: string; keepAccepted: boolean; json: boolean }) => {
      const olderThanMs = flags.olderThan === undefined ? 0 : parseAge(flags.olderThan);
      emit(await prune({ home: resolveProductHome().path, target, olderThanMs, keepAccepted: flags.keepAccepted }), flags.json);
    });
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An age: a whole number and a unit, s, m, h or d. */
function parseAge(text: string): number {
  const match = /^(\d{1,6})(s|m|h|d)$/.exec(text.trim());
  if (match === null) throw new UsageError(`--older-than ${JSON.stringify(text)}: not an age`, 'write e.g. 7d, 12h or 30m');
  return Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1000);
}
