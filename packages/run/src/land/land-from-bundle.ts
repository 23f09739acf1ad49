import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chainPaths,
  extractBundleFile,
  failedPath,
  landingsIn,
  openChainToAppend,
  readGroupBundle,
  readLandedIsReachable,
  resolveTarget,
  runGit,
  targetDirectoryIn,
  underTargetLock,
  type ChainPaths,
  type OpenedChain,
  type ResolvedTarget,
  type SelectionRecord,
  type TrustedKey,
} from '@statecraft/records';
import { findAcceptance, type Landed } from './land-attempt.js';
import { landAndRecord } from './land-and-record.js';

export interface LandFromBundleRequest {
  home: string;
  target: string;
  group: string;
  bundles: readonly string[];
  trusted: readonly TrustedKey[];
  squash: boolean;
}

/**
 * `statecraft land --group` (decision 0323): the attempt the target's latest selection of the group
 * chose, taken from its bundle. Under the target's lock: the bundle whose manifest digest the
 * selection holds is verified again with the trusted keys, its attempt must stand accepted, its git
 * bundle is fetched into the target, and the commit fetched must be the candidate the verified
 * receipt names; it is then landed as `land` lands, and a land record appended here. A refusal
 * after the fetch deletes the branch the fetch made: a refused landing leaves the target as it was.
 */
export async function landFromBundle(request: LandFromBundleRequest): Promise<Landed> {
  const resolution = await resolveTarget(request.target);
  if (resolution.kind === 'refused') return { kind: 'refused', reason: 'target', message: resolution.message };
  const target = resolution.target;
  const paths = chainPaths(targetDirectoryIn(request.home, target.key));
  return underTargetLock({
    paths,
    holder: { runId: request.group, attempt: 1, holding: 'land' },
    nothing: 'nothing landed',
    open: openChainToAppend,
    failed: (error) => ({ kind: 'failed', path: failedPath(error, paths.chain), message: `cannot land or record the landing (${(error as Error).message})` }),
    work: (opening) => landChosen(request, target, paths, opening),
  });
}

async function landChosen(request: LandFromBundleRequest, target: ResolvedTarget, paths: ChainPaths, opening: OpenedChain): Promise<Landed> {
  const refused = (reason: string, message: string): Landed => ({ kind: 'refused', reason, message: `${message}; nothing landed` });
  const selection = opening.entries
    .flatMap((entry) => (entry.record.kind === 'selection' && entry.record.ranked.some((r) => r.bundle?.group === request.group) ? [entry.record] : []))
    .at(-1);
  if (selection === undefined)
    return refused('not-collected', `group ${request.group} was never collected for ${target.path}: statecraft collect its bundles first`);
  const chosen = chosenOf(selection);
  if (chosen?.bundle === undefined) return refused('not-collected', `the selection of group ${request.group} names no bundle for its chosen attempt`);
  const reasons: string[] = [];
  let found: Exclude<Awaited<ReturnType<typeof readGroupBundle>>, { why: string }> | undefined;
  for (const path of request.bundles) {
    const read = await readGroupBundle(path, request.trusted);
    if ('why' in read) reasons.push(`${path} ${read.why}`);
    else if (read.digest !== chosen.bundle.digest) reasons.push(`${path} is index ${read.intent.group.index}, not the chosen one`);
    else {
      found = read;
      break;
    }
  }
  if (found === undefined)
    return refused(
      'not-chosen',
      `no bundle given is the chosen attempt of group ${request.group} (index ${chosen.bundle.index}, manifest sha256 ${chosen.bundle.digest.slice(0, 12)}…): ${reasons.join('; ')}`,
    );
  const acceptance = findAcceptance(found.entries, chosen.runId, chosen.attempt);
  if (typeof acceptance === 'string') return refused('not-accepted', `${found.path}: ${acceptance}`);
  if (acceptance.record.receipt === 'none' || acceptance.record.receiptFile === 'none')
    return refused('not-accepted', `${found.path}: the acceptance holds no receipt`);
  const receiptFile = acceptance.record.receiptFile;
  const candidate = acceptance.record.receipt.candidate.commit;
  const { runId, attempt } = acceptance.record;
  if (await readLandedIsReachable(target.path, landingsIn(opening.entries), runId, attempt, candidate))
    return { kind: 'refused', reason: 'already-landed', message: `run ${runId} attempt ${attempt} is already landed; nothing landed` };
  const gitBundle = found.reading.manifest.files.find((file) => file.role === 'git-bundle');
  if (gitBundle === undefined) return refused('no-candidate', `${found.path} carries no git bundle of its candidate: export it again with this statecraft`);
  const scratch = mkdtempSync(join(tmpdir(), 'statecraft-land-'));
  let branch = '';
  let made = false;
  const withdrawn = async (refusal: Landed): Promise<Landed> =>
    refusal.kind === 'refused' && made ? { ...refusal, message: `${refusal.message}${await withdrawFetchedBranch(target.path, branch)}` } : refusal;
  try {
    const extracted = await extractBundleFile(found.path, gitBundle, scratch);
    if (typeof extracted === 'string') return refused('receipt-changed', extracted);
    branch = `refs/heads/${found.intent.branch}`;
    made = !(await runGit(target.path, ['rev-parse', '--verify', '--quiet', branch])).ok;
    // The pack is untrusted bytes: git checks every object it brings before any ref moves.
    const fetched = await runGit(target.path, ['-c', 'transfer.fsckObjects=true', 'fetch', '--quiet', '--no-tags', extracted.path, `${branch}:${branch}`]);
    if (!fetched.ok) return await withdrawn(refused('fetch', `git fetch of the candidate from ${found.path} into ${target.path}: ${fetched.stderr}`));
    const tip = await runGit(target.path, ['rev-parse', '--verify', '--quiet', `${branch}^{commit}`]);
    if (!tip.ok || tip.stdout !== candidate)
      return await withdrawn(
        refused('stale', `${found.path}: the git bundle brought ${tip.ok ? tip.stdout : 'nothing'}, not the candidate ${candidate} the receipt names`),
      );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const how = request.squash ? 'Squash' : 'Merge';
  const message = `${how} statecraft run ${runId} attempt ${attempt} (group ${request.group}, index ${found.intent.group.index})\n\nAccepted by statecraft; receipt sha256 ${receiptFile.sha256}.\n`;
  const landed = await landAndRecord({
    target: target.path,
    paths,
    opening,
    candidate,
    squash: request.squash,
    message,
    runId,
    attempt,
    acceptance: acceptance.digest,
    receipt: { path: receiptFile.path, sha256: receiptFile.sha256 },
  });
  return landed.kind === 'refused' ? withdrawn(landed) : landed;
}

/**
 * Deletes the branch a refused landing's fetch made, where it still points at what was fetched:
 * a refusal changes nothing in the target, and no record of this home names that branch, so no
 * `prune` would ever remove it. A branch that was there before the fetch is left as it is.
 */
async function withdrawFetchedBranch(target: string, branch: string): Promise<string> {
  const tip = await runGit(target, ['rev-parse', '--verify', '--quiet', branch]);
  if (!tip.ok) return '';
  const deleted = await runGit(target, ['update-ref', '-d', branch, tip.stdout]);
  return deleted.ok ? '' : `; the branch ${branch} it fetched could not be deleted (${deleted.stderr})`;
}

function chosenOf(selection: SelectionRecord): SelectionRecord['ranked'][number] | undefined {
  return selection.ranked.find((entry) => entry.runId === selection.chosen.runId && entry.attempt === selection.chosen.attempt);
}
