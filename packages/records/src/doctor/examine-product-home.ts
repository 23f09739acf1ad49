import { constants, type Dirent, type Stats } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { chainPaths, targetDirectoryIn, targetsDirectoryIn } from '../chain/chain-paths.js';
import { checkpointContradiction, readChainCheckpoint } from '../chain/chain-checkpoint.js';
import { openChain, type ChainEntry } from '../chain/open-chain.js';
import { parseTargetName, TARGET_NAME_BYTES } from '../chain/target-name.js';
import { ATTEMPT_TAG_VARIABLE, findAttemptProcesses, readRegularFile } from '@statecraft/adapter';
import { readRememberedWritablePaths } from '../writable-paths-remembered.js';
import { listQualificationRecords } from '../qualification/qualification-store.js';
import { checkProductHomeWritable, productHomeLayout } from '../product-home.js';
import type { AttemptAccount } from '../read/attempt-account.js';
import { describeEvidenceFindings, examineAttemptEvidence } from './examine-attempt-evidence.js';
import { foldAttempts } from '../read/fold-attempts.js';
import { checkRunIds } from './check-run-ids.js';
import { checkTargetLock } from './check-target-lock.js';
import { examineRecordFindings } from './attempt-record-findings.js';
import { findUnrecordedAttemptFiles } from './unrecorded-attempt-files.js';
import { findUnrecordedAcceptanceFiles } from './unrecorded-acceptance-files.js';
import { examineRecordsAgainstKeptFiles } from '../read/records-against-kept-files.js';
import { checkTargetName } from './check-target-name.js';
import { checkCheckpointPresence } from './check-checkpoint-presence.js';
import { checkWorkspaceGit } from './check-workspace-git.js';
import type { RecordedResult } from '../read/reclassify-attempt.js';

type FindingKind =
  | 'broken-chain'
  | 'unreadable-chain'
  | 'torn-tail'
  | 'dangling-intent'
  | 'orphaned-processes'
  | 'stale-lock'
  | 'home-not-directory'
  /** A product home `run` could not use: its path does not resolve, it cannot be read or written, or a target's lock is no file `run` can open. */
  | 'home-unusable'
  /** Something in the targets directory that is not a target's directory. */
  | 'unexpected-entry'
  /** A chain that no longer holds the line its checkpoint verified: records cut from its end, or rewritten. */
  | 'chain-cut'
  /** A file among the qualification records that is not a valid one. */
  | 'invalid-qualification-record'
  /** An attempt's directory that no intent names: its supervisor stopped before writing the intent. */
  | 'unrecorded-attempt-files'
  | 'altered-acceptance-evidence'
  /** An acceptance directory with a receipt or check outputs that no acceptance record names: its record was never appended. */
  | 'unrecorded-acceptance-files'
  /** A file kept beside the chain whose bytes no longer have the digest the chain holds (R8.4). */
  | 'altered-artifact'
  | 'missing-artifact'
  /** A recorded outcome that its own kept, verified stream does not give (R8.2). */
  | 'outcome-disagrees-with-stream'
  /** A record whose copy of what a kept, digest-verified file holds differs from the file (R8.4). */
  | 'record-disagrees-with-kept-file'
  /** A target.json naming another repository than the chain's intents, or a key its path does not derive to. */
  | 'target-name-disagrees'
  /** A chain with intents whose target.json is missing, not a regular file, or not a target's name. */
  | 'target-name-unreadable'
  /** A record naming a kept file elsewhere than where its attempt keeps it: evidence that is not the attempt's own. */
  | 'evidence-elsewhere'
  /** An acceptance recorded after a final verdict (accepted, failed, authority-change) of the same outcome. */
  | 'verdict-after-final-verdict'
  /** An intent whose run id is not one `run` makes: no path is derived from it, and it is in no account. */
  | 'run-id-malformed'
  /** An outcome recorded for an intent an earlier outcome already concluded: `run` writes one per intent, and every reader reads the first. */
  | 'second-outcome'
  /** An outcome naming no intent before it, or an intent whose run or attempt is not the outcome's own. */
  | 'outcome-disagrees-with-intent'
  /** An acceptance whose run, attempt or candidate (or its receipt's) is not the outcome's it names, or that names no outcome of the chain. */
  | 'acceptance-disagrees-with-outcome'
  /** A chain with records and no checkpoint, or something other than a regular file in its place. */
  | 'checkpoint-missing'
  /** An attempt's directory no record names that holds files written only after an intent: its records are gone. */
  | 'missing-attempt-records'
  /** A workspace whose `.git` pointer or registration is not what statecraft made: the operator's git there obeys what the agent wrote. */
  | 'workspace-git-changed';

/** Something `doctor` found. It repairs nothing; it names what it saw and what follows. */
export interface Finding {
  kind: FindingKind;
  /** The chain, lock or directory concerned. */
  path: string;
  message: string;
}

interface TargetExamination {
  key: string;
  /** The repository these records belong to, as recorded; `not-recorded` when no attempt wrote it. */
  target: string;
  chain: string;
  state: 'verified' | 'broken' | 'unreadable' | 'empty';
  records: number;
  attempts: number;
  /** Intents with no outcome and no live supervisor; `orphans`: processes of that attempt still alive. */
  dangling: { runId: string; attempt: number; startedAt: string; orphans: number[] }[];
  running: { runId: string; attempt: number }[];
  /** Concluded attempts whose outcome was classified again from their kept, verified stream. */
  reclassified: number;
}

export interface HomeExamination {
  home: string;
  exists: boolean;
  targets: TargetExamination[];
  findings: Finding[];
}

/**
 * Checks the product home and every chain it holds — links, torn tails, dangling intents, stale
 * locks — and every attempt's kept files: re-digested against the chain, and the outcome classified
 * again from the kept stream. Read-only, but for the probe of a missing home's place (a directory
 * made and removed at once, as `run` probes it). A missing home is an empty home, not a finding,
 * where it could be made; a home `run` could not use (a path that does not resolve or cannot be
 * made, no permission, a read-only file system) is one, so doctor never reports health where `run`
 * would fail.
 */
export async function examineProductHome(home: string): Promise<HomeExamination> {
  // Attempt files made from here on belong to runs that started while doctor read: not judged.
  const startedAtMs = Date.now();
  let info: Stats;
  try {
    info = await stat(home);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { home, exists: false, targets: [], findings: homeThatCannotBeMade(home) };
    return { home, exists: false, targets: [], findings: [unusable(home, `the product home's path does not resolve (${code ?? (error as Error).message})`)] };
  }
  if (!info.isDirectory()) {
    return { home, exists: true, targets: [], findings: [{ kind: 'home-not-directory', path: home, message: `${home}: the product home is not a directory` }] };
  }
  const findings: Finding[] = [];
  // What every `run` needs of the home: to list, read and write it (a read-only mount says EROFS).
  const access = await checkAccess(home, constants.R_OK | constants.W_OK | constants.X_OK);
  if (access !== undefined) findings.push(unusable(home, `statecraft cannot read and write the product home (${access})`));
  // Every run's planning reads the paths earlier boundaries bound writable, and refuses when one cannot be read.
  const remembered = await readRememberedWritablePaths(productHomeLayout(home).writablePaths);
  if (remembered.kind === 'unreadable') {
    findings.push(
      unusable(
        remembered.file,
        `${remembered.message}: every run's planning refuses while it stands (statecraft cannot tell what it would have protected); remove it only if the path it named holds no repository an agent could have written`,
      ),
    );
  }
  const targetsDirectory = targetsDirectoryIn(home);
  let entries: Dirent[] = [];
  try {
    entries = await readdir(targetsDirectory, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') findings.push(unusable(targetsDirectory, `cannot list the targets' records (${code ?? (error as Error).message})`));
  }
  const targets: TargetExamination[] = [];
  for (const entry of entries.sort((left, right) => left.name.localeCompare(right.name))) {
    if (!entry.isDirectory()) {
      const path = join(targetsDirectory, entry.name);
      findings.push({ kind: 'unexpected-entry', path, message: `${path}: not a target's directory (statecraft wrote no such file; nothing reads it)` });
      continue;
    }
    const examined = await examineTarget(targetDirectoryIn(home, entry.name), entry.name, startedAtMs);
    targets.push(examined.target);
    findings.push(...examined.findings);
  }
  findings.push(...(await examineQualificationRecords(home)));
  return { home, exists: true, targets, findings };
}

/**
 * Qualification records are evidence too: one that no longer parses as a record (edited, cut) is
 * a finding, as `qualifications list` already says. Their directory unlistable is the home's fault.
 */
async function examineQualificationRecords(home: string): Promise<Finding[]> {
  try {
    const { unreadable } = await listQualificationRecords(home);
    return unreadable.map(({ path, message }) => ({
      kind: 'invalid-qualification-record',
      path,
      message: `${path}: not a valid qualification record (${message})`,
    }));
  } catch (error) {
    const directory = join(home, 'qualifications');
    return [unusable(directory, `cannot list the qualification records (${(error as Error).message})`)];
  }
}

/**
 * A missing home is an empty one only where `run` could make it: under /proc, /sys, a file, a
 * read-only mount or a link to nothing it cannot (product-home.ts), and `run` exits 4 there.
 */
function homeThatCannotBeMade(home: string): Finding[] {
  try {
    checkProductHomeWritable(home);
    return [];
  } catch (error) {
    // Its message names the home already (product-home.ts), as unusable's own would.
    return [{ kind: 'home-unusable', path: home, message: (error as Error).message }];
  }
}

function unusable(path: string, message: string): Finding {
  return { kind: 'home-unusable', path, message: `${path}: ${message}` };
}

/** Why the path cannot be used as asked, or nothing when it can. */
async function checkAccess(path: string, mode: number): Promise<string | undefined> {
  try {
    await access(path, mode);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

async function examineTarget(directory: string, key: string, startedAtMs: number): Promise<{ target: TargetExamination; findings: Finding[] }> {
  const paths = chainPaths(directory);
  const findings: Finding[] = [];
  const target = await readRegularFile(paths.target, TARGET_NAME_BYTES)
    .then((text) => parseTargetName(text))
    .then((named) => (named.kind === 'read' ? named.name.path : 'not-recorded'))
    .catch(() => 'not-recorded' as const);
  const examination: TargetExamination = {
    key,
    target,
    chain: paths.chain,
    state: 'empty',
    records: 0,
    attempts: 0,
    dangling: [],
    running: [],
    reclassified: 0,
  };

  const lock = await checkTargetLock(paths.lock);
  findings.push(...lock.findings);

  const opening = await openChain(paths.chain);
  if (opening.kind === 'broken') {
    examination.state = 'broken';
    findings.push({ kind: 'broken-chain', path: paths.chain, message: opening.message });
    return { target: examination, findings };
  }
  if (opening.kind === 'unreadable') {
    examination.state = 'unreadable';
    findings.push({ kind: 'unreadable-chain', path: paths.chain, message: opening.message });
    return { target: examination, findings };
  }
  examination.state = opening.entries.length === 0 ? 'empty' : 'verified';
  examination.records = opening.entries.length;
  // Every link holds, yet the chain may have lost records from its end: its checkpoint names the
  // last line an append verified, and a chain that no longer holds it was cut or rewritten since.
  const contradiction = checkpointContradiction(readChainCheckpoint(paths.chain));
  if (contradiction !== undefined) {
    findings.push({ kind: 'chain-cut', path: paths.chain, message: `${paths.chain}: ${contradiction}; the next run refuses it` });
  }
  findings.push(...(await checkCheckpointPresence(paths.chain, opening.entries.length)));
  findings.push(...(await checkTargetName(paths, key, opening.entries)));
  if (opening.torn !== 'none') {
    const next =
      contradiction === undefined ? 'the next run truncates it before appending' : 'not an unfinished append: the chain was cut inside a verified record';
    findings.push({
      kind: 'torn-tail',
      path: paths.chain,
      message: `${paths.chain}: a torn final line of ${opening.torn.bytes} bytes at offset ${opening.torn.offset}; ${contradiction === undefined ? '(an append that never finished) ' : ''}${next}`,
    });
  }
  // Before the accounts: an intent whose run id is not a run id is in none of them.
  findings.push(...checkRunIds(paths.chain, opening.entries));
  const live = lock.live;
  const accounts = foldAttempts(paths.chain, directory, opening.entries, live);
  examination.attempts = accounts.length;
  findings.push(...examineUnconcluded(paths.chain, accounts, examination));
  findings.push(...(await findUnrecordedAttemptFiles(directory, target, opening.entries, live, startedAtMs)));
  findings.push(...(await findUnrecordedAcceptanceFiles(directory, opening.entries, live, startedAtMs)));
  const evidence = examineEvidenceOf(accounts, opening.entries);
  examination.reclassified = evidence.reclassified;
  findings.push(...evidence.findings);
  findings.push(...examineRecordsAgainstKeptFiles(accounts, opening.entries));
  findings.push(...examineRecordFindings(paths.chain, directory, accounts, opening.entries));
  findings.push(...(await checkWorkspaceGit(accounts)));
  return { target: examination, findings };
}

/** Every attempt's kept files, one attempt after another (the reads are synchronous); findings in chain order. */
function examineEvidenceOf(accounts: readonly AttemptAccount[], entries: readonly ChainEntry[]): { reclassified: number; findings: Finding[] } {
  const results = new Map<string, RecordedResult>();
  for (const entry of entries) if (entry.record.kind === 'outcome') results.set(entry.digest, entry.record.result);
  const findings: Finding[] = [];
  let reclassified = 0;
  for (const account of accounts) {
    const outcome = account.records.outcome;
    const evidence = examineAttemptEvidence(account, outcome === 'not-recorded' ? undefined : results.get(outcome.sha256));
    if (evidence.outcomeCheck.state !== 'not-checked') reclassified += 1;
    findings.push(...describeEvidenceFindings(account, evidence));
  }
  return { reclassified, findings };
}

/**
 * The attempts with no outcome: each running one (its supervisor holds the lock) listed, each
 * dangling one listed and a finding (R8.3), with the processes of it still alive.
 */
function examineUnconcluded(chain: string, accounts: readonly AttemptAccount[], examination: TargetExamination): Finding[] {
  const findings: Finding[] = [];
  for (const account of accounts) {
    if (account.state === 'running') examination.running.push({ runId: account.runId, attempt: account.attempt });
    if (account.state !== 'dangling') continue;
    const orphans = findOrphans(account);
    examination.dangling.push({ runId: account.runId, attempt: account.attempt, startedAt: account.startedAt, orphans });
    findings.push({
      kind: 'dangling-intent',
      path: chain,
      message: `${chain}: run ${account.runId} attempt ${account.attempt} has an intent (line ${account.records.intent.line}, ${account.startedAt}) and no outcome: its supervisor stopped before concluding; not completed; \`statecraft run reconcile ${account.target}\` concludes it interrupted (supervisor-lost)`,
    });
    if (orphans.length > 0) {
      findings.push({
        kind: 'orphaned-processes',
        path: chain,
        message: `run ${account.runId} attempt ${account.attempt}: its supervisor is gone but process${orphans.length === 1 ? '' : 'es'} ${orphans.join(', ')} of the attempt ${orphans.length === 1 ? 'is' : 'are'} still running (found by the attempt tag); doctor kills nothing`,
      });
    }
  }
  return findings;
}

/**
 * Processes of a dangling attempt still alive: a supervisor killed with SIGKILL cannot kill its
 * child. Found by the attempt tag the intent recorded among the names the child received.
 */
function findOrphans(account: AttemptAccount): number[] {
  const tag = account.posture.environment.names.find((entry) => entry.name === ATTEMPT_TAG_VARIABLE)?.value;
  if (tag === undefined || tag === 'redacted') return [];
  return findAttemptProcesses(tag.recorded).sort((a, b) => a - b);
}
