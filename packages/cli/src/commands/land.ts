import { resolve } from 'node:path';
import type { z } from 'zod';
import { landAttempt, landFromBundle } from '@statecraft/run';
import type { Answer } from '../answer.js';
import type { HumanLines } from '../render/human-lines.js';
import { CliError, IoFailure, UsageError } from '../errors.js';
import { trustedKeysOrRefusal } from './signing-options.js';
import { EXIT } from '../exit-codes.js';
import type { LandAnswerSchema } from '../json-schemas/land-answers.js';

export type LandValue = z.infer<typeof LandAnswerSchema>;

/**
 * `statecraft land <target> <run>`: an accepted attempt whose receipt is current,
 * brought into the operator's current branch. Exit 0 landed; 2 refused (not accepted, a stale
 * receipt, a dirty checkout, a conflict, a live attempt), nothing changed; 4 an i/o failure.
 */
export async function land(options: { home: string; target: string; runId: string; attempt?: number; squash: boolean }): Promise<Answer<LandValue>> {
  return answerOf(await landAttempt(options), options);
}

/** `statecraft land [target] --group <id> --bundle <file>…` (decision 0323): the chosen attempt of a collected group, from its bundle. */
export async function landGroupFromBundles(
  options: Omit<Parameters<typeof landFromBundle>[0], 'trusted'> & { trust: readonly string[] },
): Promise<Answer<LandValue>> {
  const trusted = await trustedKeysOrRefusal(options.trust, process.env);
  if (trusted.length === 0)
    throw new UsageError('--group needs the keys whose signatures it believes', 'give --trust <public key> (or STATECRAFT_TRUSTED_KEYS)');
  const bundles = options.bundles.map((bundle) => resolve(bundle));
  return answerOf(await landFromBundle({ ...options, bundles, trusted }), { target: options.target, runId: options.group });
}

function answerOf(landed: Awaited<ReturnType<typeof landAttempt>>, options: { target: string; runId: string }): Answer<LandValue> {
  if (landed.kind === 'refused') {
    const hint = hintFor(landed.reason, options);
    throw new CliError(`refused (${landed.reason}): ${landed.message}`, EXIT.refused, hint === undefined ? {} : { hint });
  }
  if (landed.kind === 'failed') throw new IoFailure(landed.path, landed.message);
  const { record } = landed;
  const value: LandValue = {
    target: landed.target,
    runId: record.runId,
    attempt: record.attempt,
    candidate: record.candidate,
    branch: record.branch,
    before: record.before,
    commit: record.commit,
    method: record.method,
    receipt: record.receipt,
    record: { line: landed.line, sha256: landed.sha256 },
  };
  return { value, exitCode: EXIT.ok, human: renderLanded };
}

function renderLanded(value: LandValue): HumanLines {
  const branch = value.branch.replace(/^refs\/heads\//, '');
  return [
    `landed run ${value.runId} attempt ${value.attempt} on ${branch} (${value.method})`,
    `  candidate  ${value.candidate}`,
    `  ${branch === '' ? 'branch' : 'now at'}     ${value.commit}`,
    `  was at     ${value.before}`,
    `  receipt    ${value.receipt.path}`,
    `  record     chain line ${value.record.line}`,
  ];
}

function hintFor(reason: string, options: { target: string; runId: string }): string | undefined {
  if (reason === 'dirty') return 'commit or stash your changes, then run land again';
  if (reason === 'conflict')
    // The attempt's branch is the run's own or, for one of several attempts, `<run>-<n>`: run show names it.
    return `merge the attempt's branch by hand (statecraft run show ${options.target} ${options.runId} names it), or make a new attempt: statecraft run ${options.target} --retry ${options.runId}`;
  if (reason === 'stale' || reason === 'not-accepted') return `statecraft run show ${options.target} ${options.runId}`;
  if (reason === 'not-collected') return `statecraft collect <bundle>... ${options.target} --trust <key>`;
  if (reason === 'not-chosen') return 'give --bundle the bundle `statecraft collect` printed as chosen (or every bundle of the group)';
  return undefined;
}
