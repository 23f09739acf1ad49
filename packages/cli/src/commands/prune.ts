import type { z } from 'zod';
import { pruneTarget } from '@statecraft/run';
import type { Answer } from '../answer.js';
import type { HumanLines } from '../render/human-lines.js';
import { CliError, IoFailure } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { PruneAnswerSchema } from '../json-schemas/land-answers.js';

export type PruneValue = z.infer<typeof PruneAnswerSchema>;

/**
 * `statecraft prune <target>`: removes the worktrees and branches of concluded
 * runs; records and kept files stay. Exit 0 (also when nothing was left to remove); 2 refused (the
 * target's lock is held: a live attempt, a judgement or a landing); 4 an i/o failure.
 */
export async function prune(options: {
  home: string;
  target: string;
  olderThanMs: number;
  keepAccepted: boolean;
  runId?: string;
}): Promise<Answer<PruneValue>> {
  const pruned = await pruneTarget(options);
  if (pruned.kind === 'refused') throw new CliError(`refused (${pruned.reason}): ${pruned.message}`, EXIT.refused);
  if (pruned.kind === 'failed') throw new IoFailure(pruned.path, pruned.message);
  const value: PruneValue = { target: pruned.target, removed: pruned.removed, kept: pruned.kept, record: pruned.record };
  return { value, exitCode: EXIT.ok, human: renderPruned };
}

const WHY: Record<PruneValue['kept'][number]['why'], string> = {
  'not-concluded': 'an attempt has no outcome',
  newer: 'newer than --older-than',
  accepted: 'accepted (--keep-accepted)',
  'landed-only-here': 'branch kept: its landed commit is no longer in the branch it landed on',
};

function renderPruned(value: PruneValue): HumanLines {
  const lines = [value.removed.length === 0 ? `nothing to remove in ${value.target}` : `removed from ${value.target}:`];
  for (const entry of value.removed) {
    lines.push(`  run ${entry.runId}`);
    if (entry.workspace !== 'none') lines.push(`    worktree ${entry.workspace}`);
    if (entry.branch !== 'none') lines.push(`    branch   ${entry.branch.replace(/^refs\/heads\//, '')} (was ${entry.branchCommit.slice(0, 12)})`);
  }
  for (const entry of value.kept) lines.push(`  kept run ${entry.runId}: ${WHY[entry.why]}`);
  if (value.record !== 'none') lines.push(`recorded at chain line ${value.record.line}; records and kept files stay`);
  return lines;
}
