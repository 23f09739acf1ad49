import type { z } from 'zod';
import { reconcileDanglingIntents } from '@statecraft/run';
import type { RunReconcileAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { CliError, IoFailure } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { renderReconciliation } from './run-reconcile-render.js';

export type RunReconcileValue = z.infer<typeof RunReconcileAnswerSchema>;

/**
 * `statecraft run reconcile <target>`: every dangling intent of the target — its supervisor gone,
 * the lock free — concluded `interrupted (supervisor-lost)`. Exit 0 whether or not one was found
 * (nothing dangling is nothing to do); 2 refused (a live attempt or acceptance holds the target, a
 * broken chain); 4 an i/o failure, naming the file and how many outcomes were appended before it.
 */
export async function runReconcile(options: { home: string; target: string }): Promise<Answer<RunReconcileValue>> {
  const reconciliation = await reconcileDanglingIntents(options);
  if (reconciliation.kind === 'refused') {
    const hint = reconciliation.reason === 'chain-broken' ? 'statecraft doctor reports every chain; nothing was repaired' : undefined;
    throw new CliError(`refused: ${reconciliation.message}`, EXIT.refused, hint === undefined ? {} : { hint });
  }
  if (reconciliation.kind === 'failed') throw new IoFailure(reconciliation.path, reconciliation.message);
  const value: RunReconcileValue = {
    target: reconciliation.target,
    chain: reconciliation.chain,
    reconciled: reconciliation.reconciled.map((closed) => ({ ...closed, outcome: 'interrupted' as const, cause: 'supervisor-lost' as const })),
  };
  return { value, exitCode: EXIT.ok, human: renderReconciliation };
}
