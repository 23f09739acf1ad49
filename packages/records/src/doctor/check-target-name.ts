import { describeUnopenable, readRegularFile } from '@statecraft/adapter';
import { parseTargetName, TARGET_NAME_BYTES } from '../chain/target-name.js';
import { resolveTarget } from '../git/resolve-target.js';
import type { ChainPaths } from '../chain/chain-paths.js';
import { targetKey } from '../product-home.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { Finding } from './examine-product-home.js';

/**
 * `target.json` against what it names: `run` writes it before a chain's first intent (launch-attempt.ts)
 * from the very target that intent records, filed under the key of that target's path (resolve-target.ts,
 * `targetKey`). A name whose key is not its directory's, whose path no intent records, or whose path
 * does not derive to its key attributes the chain to another repository — `doctor` lists the chain
 * under that repository's name — and is a finding. So is a chain with intents whose name is gone or
 * cannot be read (missing, not a regular file, not JSON, no path or key): doctor then lists the
 * chain as `not-recorded`, and nothing else would say that the file every such chain has is not
 * there.
 */
export async function checkTargetName(paths: Pick<ChainPaths, 'target'>, key: string, entries: readonly ChainEntry[]): Promise<Finding[]> {
  const recorded = [...new Set(entries.flatMap((entry) => (entry.record.kind === 'intent' ? [entry.record.target.path] : [])))];
  const named = await readTargetName(paths.target);
  if (named.kind === 'unreadable') return recorded.length === 0 ? [] : [unreadableName(paths.target, named.why, recorded)];
  const { path } = named;
  const wrong: string[] = [];
  if (named.key !== key) wrong.push(`it names the key ${named.key}, but is filed under ${key}`);
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

/** target.json read as a target's name, or what stands there instead, in a few plain words. */
async function readTargetName(file: string): Promise<{ kind: 'read'; path: string; key: string } | { kind: 'unreadable'; why: string }> {
  let text: string;
  try {
    text = await readRegularFile(file, TARGET_NAME_BYTES);
  } catch (error) {
    return { kind: 'unreadable', why: describeUnopenable(error) };
  }
  const named = parseTargetName(text);
  return named.kind === 'read' ? { kind: 'read', ...named.name } : named;
}

function unreadableName(file: string, why: string, recorded: readonly string[]): Finding {
  return {
    kind: 'target-name-unreadable',
    path: file,
    message: `${file} ${why}, while the chain beside it holds intents recording the target ${recorded.join(', ')}: run writes it before a chain's first intent, so it was removed or replaced since; doctor lists this chain as not-recorded and repairs nothing`,
  };
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
