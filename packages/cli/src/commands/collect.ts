import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { collectGroup, RANKING_RULE_VERSION } from '@statecraft/records';
import type { Answer } from '../answer.js';
import { CliError, IoFailure, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CollectAnswerSchema } from '../json-schemas/index.js';
import { targetOrCurrentRepository } from './default-target.js';
import { renderCollection } from './collect-render.js';
import { trustedKeysOrRefusal } from './signing-options.js';

type CollectAnswer = z.infer<typeof CollectAnswerSchema>;

/**
 * `statecraft collect <bundle>… [target]` (decision 0322): the records package verifies, refuses
 * and ranks, and appends the selection; this reads the words and the trusted keys, and renders.
 * The last word is the target when it is a directory that holds no bundle manifest.
 */
export async function collect(options: { home: string; words: readonly string[]; trust: readonly string[]; group?: string }): Promise<Answer<CollectAnswer>> {
  const last = options.words.at(-1);
  const lastIsTarget = last !== undefined && options.words.length > 1 && isCheckout(last);
  const bundles = lastIsTarget ? options.words.slice(0, -1) : [...options.words];
  if (bundles.length === 0) throw new UsageError('name the bundles to collect', 'statecraft collect bundles/*.tar --trust ci.pub');
  const trusted = await trustedKeysOrRefusal(options.trust, process.env);
  if (trusted.length === 0)
    throw new UsageError(
      'collect needs the keys whose signatures it believes',
      'give --trust <public key> for each machine that signed (or STATECRAFT_TRUSTED_KEYS)',
    );
  const target = await targetOrCurrentRepository(lastIsTarget ? last : undefined);
  const collection = await collectGroup({
    home: options.home,
    target,
    bundles: bundles.map((bundle) => resolve(bundle)),
    trusted,
    ...(options.group === undefined ? {} : { group: options.group }),
  });
  if (collection.kind === 'failed') throw new IoFailure(collection.path, collection.message);
  if (collection.kind === 'refused') {
    const named = collection.refused.map((bundle) => `\n  ${bundle.path}: ${bundle.why}`).join('');
    throw new CliError(`refused: ${collection.message}${named}`, EXIT.refused, { hint: 'statecraft verify <bundle> --trust <key> names what does not hold' });
  }
  const value: CollectAnswer = {
    target: collection.target,
    group: collection.group,
    baseCommit: collection.baseCommit,
    rule: { version: RANKING_RULE_VERSION },
    ranked: collection.ranked.map((attempt, place) => ({
      bundle: attempt.path,
      digest: attempt.bundle.digest,
      index: attempt.bundle.index,
      runId: attempt.runId,
      attempt: attempt.attempt,
      key: attempt.key,
      chosen: place === 0,
    })),
    refused: collection.refused.map((bundle) => ({ bundle: bundle.path, why: bundle.why })),
    record: collection.record,
  };
  return { value, exitCode: value.refused.length === 0 ? EXIT.ok : EXIT.finding, human: renderCollection };
}

/** A directory that is not a bundle: a checkout to collect into. */
function isCheckout(word: string): boolean {
  try {
    return statSync(word).isDirectory() && !existsSync(join(word, 'manifest.json'));
  } catch {
    return false;
  }
}
