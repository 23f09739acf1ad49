import { readRegularFile } from '@statecraft/adapter';
import { resolveTarget, targetKey, type ChainEntry, type ChainPaths } from '@statecraft/run';
import type { Finding } from './examine-product-home.js';

/** The target's name: a line of JSON; a file larger than this at its path is not one (examine-product-home.ts reads it the same way). */
const TARGET_NAME_BYTES = 64 * 1024;

/**
 * `target.json` against what it names: `run` writes it before a chain's first intent (launch-attempt.ts)
 * from the very target that intent records, filed under the key of that target's path (resolve-target.ts,
 * `targetKey`). A name whose key is not its directory's, whose path no intent records, or whose path
 * does not derive to its key attributes the chain to another repository — `doctor` lists the chain
 * under that repository's name — and is a finding. A name that cannot be read is read as `not-recorded`
 * where it is shown, and not judged here.
 */
export async function checkTargetName(paths: Pick<ChainPaths, 'target'>, key: string, entries: readonly ChainEntry[]): Promise<Finding[]> {
  const named = await readRegularFile(paths.target, TARGET_NAME_BYTES)
    .then((text) => JSON.parse(text) as { path?: unknown; key?: unknown })
    .catch(() => undefined);
  if (named === undefined || typeof named.path !== 'string' || typeof named.key !== 'string') return [];
  const { path } = named;
  const wrong: string[] = [];
  if (named.key !== key) wrong.push(`it names the key ${named.key}, but is filed under ${key}`);
  const recorded = [...new Set(entries.flatMap((entry) => (entry.record.kind === 'intent' ? [entry.record.target.path] : [])))];
  if (recorded.length > 0 && !recorded.includes(path)) {
    wrong.push(`the chain's intents record the target ${recorded.join(', ')}, never ${path}`);
  }
  const derived = await derivedKey(path, key);
  if (derived !== 'unknown' && derived !== key) wrong.push(`the path ${path} derives to the key ${derived}, not ${key}`);
  if (wrong.length === 0) return [];
  return [
    {
      kind: 'target-name-disagrees',
      path: paths.target,
      message: `${paths.target}: names the repository ${path}, but ${wrong.join('; and ')}: the chain is attributed to a repository it does not belong to; doctor repairs nothing`,
    },
  ];
}

/**
 * The key `run` files the path's records under: the digest of the path itself for a checkout; for a
 * linked worktree (`git worktree add`), its main worktree's, which only git can say — asked only
 * when the path's own digest is not the key, and `unknown` when the path no longer resolves (a
 * linked worktree since removed is as likely as a forged name there): never a finding then.
 */
async function derivedKey(path: string, key: string): Promise<string> {
  const direct = targetKey(path);
  if (direct === key) return direct;
  const resolution = await resolveTarget(path).catch(() => undefined);
  return resolution?.kind === 'resolved' ? resolution.target.key : 'unknown';
}
