import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { targetOrCurrentRepository } from './default-target.js';
import type { prune } from './prune.js';
import { registerVerb } from './register-verb.js';
import { resolveRunReference } from './run-reference.js';
import { once } from './option-parsers.js';

/** Registers `prune`. Computing is in prune.ts. */
export function registerPrune(program: Command): void {
  registerVerb<{ olderThan?: string; keepAccepted: boolean }, Awaited<ReturnType<typeof prune>>['value']>(program, {
    name: 'prune',
    summary: 'remove the worktrees and branches of concluded attempts; records stay',
    description:
      "Remove the worktrees and statecraft/<run> branches of runs whose attempts all concluded, under the target's lock " +
      '(refused while a live attempt holds it); with a run, only that run. The chain and the files kept beside it are ' +
      'never removed; one prune record names what went.',
    usage: '[target] [run] [options]',
    arguments: [
      ['[target]', 'the git repository (default: the one containing the current directory)'],
      ['[run]', 'only this run: its id, a unique start of it, or latest (name the target too)'],
    ],
    options: [
      ['--older-than <age>', 'only runs last recorded longer ago than this (e.g. 7d, 12h, 30m; default: any age)', once('--older-than')],
      ['--keep-accepted', 'keep runs with an accepted attempt'],
    ],
    help: `
Examples:
  statecraft prune ./repo --older-than 7d
  statecraft prune . latest              only the latest run, in this repository
  statecraft prune ./repo 20261202T0     only the run whose id starts so
  statecraft prune ./repo --keep-accepted --json

A landed run's branch goes only while the landed commit is still in the
branch it landed on. A second prune finds nothing and appends nothing.
JSON: { target, removed: [{ runId, workspace, branch, branchCommit }],
kept: [{ runId, why }], record }.
Exit: 0 done (nothing to remove included); 2 refused (the target's lock is
held, no such run); 3 usage (also an ambiguous start of a run id); 4 an
i/o error.`,
    answer: async ([given, reference], flags, home) => {
      const olderThanMs = flags.olderThan === undefined ? 0 : parseAge(flags.olderThan);
      const target = await targetOrCurrentRepository(given);
      const runId = reference === undefined ? undefined : await resolveRunReference(home, target, reference);
      const { prune } = await import('./prune.js');
      return prune({ home, target, olderThanMs, keepAccepted: flags.keepAccepted, ...(runId === undefined ? {} : { runId }) });
    },
  });
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An age: a whole number and a unit, s, m, h or d. */
function parseAge(text: string): number {
  const match = /^(\d{1,6})(s|m|h|d)$/.exec(text.trim());
  if (match === null) throw new UsageError(`--older-than ${JSON.stringify(text)}: not an age`, 'write e.g. 7d, 12h or 30m');
  return Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1000);
}
