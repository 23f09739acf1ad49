import { isAbsolute, resolve } from 'node:path';
import { boundaryContainment, chooseContainment, readContainmentOverride } from '@statecraft/environment';
import {
  checkExecutableFile,
  EXECUTABLE_CHECK_WORDS,
  findExecutableOnPath,
  type KnownDigest,
  negotiateCapabilities,
  readManifest,
  sidecarManifestPath,
  type AdapterIdentity,
  type CapabilityToken,
  type Containment,
  type Manifest,
  type Negotiation,
  type PermissionMode,
} from '@statecraft/adapter';
import type { ManifestToCheck, TrustedKey } from '@statecraft/records';
import { digestFileCached, productHomeLayout } from '@statecraft/records';
import { selectPassedNames, type BoundaryChoice, type NameSelection } from '@statecraft/environment';
import { chainPaths, type ChainPaths } from '@statecraft/records';
import { openChain, type ChainEntry } from '@statecraft/records';
import type { IntentRecord, RunGroup } from '@statecraft/records';
import type { CoverageVerdict, QualificationLabel } from '@statecraft/records';
import { refused, type RunFailure, type RunRefusal } from '../refusal.js';
import { isRunId } from '@statecraft/records';
import { resolveTarget, type ResolvedTarget } from '@statecraft/records';
import type { EarlierCandidate } from '../workspace/attempt-start.js';
import { labelQualification } from './label-qualification.js';
import { refuseMissingCredential } from './credential-present.js';
import { homeOverlapsTarget } from './home-outside-target.js';
import { targetInsideManagedPath, targetInWritablePlace } from './target-outside-managed-paths.js';
import { planCommandCoverage } from '../coverage/working-tree-reading.js';
import type { PlannedCoverage } from '../coverage/assess-reading.js';

/** What the operator asked for (`statecraft run`). */
export interface RunRequest {
  /** The product home (R8.4). */
  home: string;
  target: string;
  adapter: { executable: string; manifest?: string };
  /** A provider executable to name in the request; the adapter resolves its own when absent. */
  provider?: string;
  /** Absent with `spec`: the spec's text (as planning read it) is the prompt. */
  prompt?: string;
  required: readonly CapabilityToken[];
  preferred: readonly CapabilityToken[];
  deadlineMs: number;
  maxTurns: number | null;
  allow: readonly string[];
  deny: readonly string[];
  /** Extra names the operator asks to pass into the child (`--pass`). */
  pass: readonly string[];
  /** Retry an existing run: a new attempt in its workspace, at its base (R8.5). */
  retryOf?: string;
  /** The revision the workspace is based on; default HEAD, resolved and recorded at launch. */
  base?: string;
  spec?: string;
  /** `--group`: the run group this attempt is one of, recorded in its intent (decision 0321). */
  group?: RunGroup;
  /** The operator's environment: only allowlisted names are read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
  /** The protected evidence boundary (R12): on unless the operator chose `none`; default on. */
  boundary?: BoundaryChoice;
  /**
   * What the provider may do on its own (`--permissions`): default `sandboxed` inside the boundary
   * (every tool permitted in the workspace but the denied ones), `strict` without it, where
   * `sandboxed` is refused.
   */
  permissions?: PermissionMode;
  /** `--allow-missing-credential`: start the adapter even when the credential its manifest declares is absent. */
  allowMissingCredential?: boolean;
  /** `--trust` and STATECRAFT_TRUSTED_KEYS: where any is given, only a record one of them signed qualifies the adapter. */
  trustedKeys?: readonly TrustedKey[];
}

/** Everything decided before anything is appended. */
export interface RunPlan {
  /** The request, its prompt settled (given, or the spec's text). */
  request: RunRequest & { prompt: string };
  target: ResolvedTarget;
  /** The commit the workspace is based on: resolved at planning for a new run, the run's recorded one for a retry (R8.6). */
  baseCommit: string;
  /** The base commit's tree, when planning resolved the base (a new run); a retry's is not read. */
  baseTree?: string;
  paths: ChainPaths;
  adapter: AdapterIdentity & { path: string };
  manifest: Manifest;
  negotiation: Extract<Negotiation, { kind: 'negotiated' }>;
  qualification: QualificationLabel;
  selection: Extract<NameSelection, { kind: 'selected' }>;
  coverage: CoverageVerdict;
  /** The planning reading of command coverage, whose digests launch compares (R9.4). */
  coverageReading: PlannedCoverage;
  containment: Containment;
  /** The boundary the operator chose (R12); established and probed at launch, before the intent. */
  boundary: BoundaryChoice;
  /** The permission mode the request carries: the operator's, or the boundary's default. */
  permissions: PermissionMode;
  /**
   * For a retry: the run's first intent, whose base commit and workspace the attempt reuses, and
   * the candidates its earlier attempts recorded (what the new attempt's start is, R13.2).
   */
  retry: 'none' | { firstIntent: IntentRecord; lastAttempt: number; candidates: EarlierCandidate[] };
  /** Digests taken at planning that the adapter may reuse (the provider's): handed over in the request. */
  knownDigests: KnownDigest[];
}

export type Planning = { kind: 'planned'; plan: RunPlan } | RunRefusal | RunFailure;

/** A step of planning: its value, or the refusal or failure that ends the plan. */
type Step<T> = T | RunRefusal | RunFailure;

function stopped<T>(step: Step<T>): step is RunRefusal | RunFailure {
  return typeof step === 'object' && step !== null && 'kind' in step && (step.kind === 'refused' || step.kind === 'failed');
}

/**
 * Plans one attempt without appending or spawning anything: resolve the target, read the
 * manifest (nothing executed, R2.2), negotiate the tokens (R2.3), label the qualification
 * (R3.2), select the environment's names and refuse credentials (R5.2), refuse a target that
 * lies in a path the adapter declares managed (R12), compare command coverage from the working
 * tree (R9), and, for a retry, find its run in the chain.
 */
export async function planRun(request: RunRequest): Promise<Planning> {
  const boundary = request.boundary ?? { kind: 'bwrap' };
  // The containment may spawn a probe: let it run while the rest is planned (it is awaited, and
  // its failure surfaces, only once the plan needs it).
  const containmentChoice = planContainment(boundary);
  containmentChoice.catch(() => undefined);
  // The adapter's manifest is read (nothing written, nothing executed) while git resolves the
  // target; a refusal of the target still comes first.
  const [located, adapterReading] = await Promise.all([resolveTargetAndBase(request), readAdapter(request)]);
  if (stopped(located)) return located;
  if (stopped(adapterReading)) return adapterReading;
  const { executable, manifest, manifestFile } = adapterReading;
  const negotiation = negotiateUnderBoundary(manifest, request, boundary);
  if (stopped(negotiation)) return negotiation;
  const permissions = permissionsUnderBoundary(request, boundary);
  if (stopped(permissions)) return permissions;

  const selection = selectPassedNames({ source: request.source, adapterPass: manifest.environment?.pass ?? [], operatorPass: request.pass });
  if (selection.kind === 'refused') {
    return refused('plan', 'environment', `${selection.message}\nrefused before spawn, nothing appended`, { state: 'refused', refusals: selection.refusals });
  }
  if (request.allowMissingCredential !== true) {
    const missing = refuseMissingCredential(manifest, Object.fromEntries(selection.values));
    if (missing !== undefined) return missing;
  }
  // Before the workspace is checked out: a repository an agent could have written is one whose filters statecraft's git would run.
  const managedOver = targetInsideManagedPath(located.target, manifest.managedPaths ?? [], selection.values.get('HOME'));
  if (managedOver !== undefined) return refused('plan', 'target', managedOver, { target: located.target.path, managedPaths: manifest.managedPaths ?? [] });
  const writable = await targetInWritablePlace(located.target, request.home);
  if (writable !== undefined) return refused('plan', 'target', writable.message, { target: located.target.path, ...writable.detail });
  const coverage = await planCommandCoverage({ targetPath: located.target.path, spec: request.spec, requiresCommands: manifest.requiresCommands });
  if (coverage.kind === 'refused') return refused('plan', 'coverage', coverage.message, coverage.detail);
  const prompt = request.prompt ?? (coverage.reading.specText === 'none' ? undefined : coverage.reading.specText.text);
  if (prompt === undefined)
    return refused('plan', 'target', 'no prompt and no --spec whose text could stand for it; refused before spawn, nothing appended', null);

  // The chain is verified once, under the lock, right before the intent is appended
  // (launch-attempt.ts): a broken one is refused there, before anything is written (R8.4).
  const paths = chainPaths(productHomeLayout(request.home).target(located.target.key));
  const retry = await findRetry(request, located.target, paths);
  if (stopped(retry)) return retry;
  const identified = await identifyAdapter(request, executable, manifest, manifestFile);
  if (stopped(identified)) return identified;
  const containment = await containmentChoice;
  const baseCommit = retry === 'none' ? located.newRunBase?.commit : retry.firstIntent.baseCommit;
  // Unreachable: a new run asked for its base above. Refused rather than assumed.
  if (baseCommit === undefined) return refused('plan', 'base-commit', 'no base commit was resolved; refused before spawn, nothing appended', null);
  return {
    kind: 'planned',
    plan: {
      request: { ...request, prompt, ...(identified.provider === undefined ? {} : { provider: identified.provider }) },
      target: located.target,
      baseCommit,
      ...(retry === 'none' && located.newRunBase !== undefined ? { baseTree: located.newRunBase.tree } : {}),
      paths,
      adapter: identified.adapter,
      manifest,
      negotiation,
      qualification: identified.qualification,
      selection,
      coverage: coverage.coverage,
      coverageReading: coverage.reading,
      containment,
      boundary,
      permissions,
      retry,
      knownDigests: identified.providerDigest === undefined ? [] : [identified.providerDigest],
    },
  };
}

/**
 * The containment the plan records (R6, R7.3). With the boundary on, bwrap's PID namespace is the
 * containment (R12), so unshare's probe — a process of its own on every run — is not made; the
 * override is still read strictly. Without it, the probed choice.
 */
async function planContainment(boundary: BoundaryChoice): Promise<Containment> {
  if (boundary.kind === 'none') return (await chooseContainment('auto')).containment;
  readContainmentOverride();
  return boundaryContainment();
}

/**
 * The target, and for a new run its base commit, resolved at run start in the target's own git
 * call (R8.6); a retry reuses its run's recorded base.
 */
async function resolveTargetAndBase(request: RunRequest): Promise<Step<{ target: ResolvedTarget; newRunBase: { commit: string; tree: string } | undefined }>> {
  const resolution = await resolveTarget(request.target, request.retryOf === undefined ? (request.base ?? 'HEAD') : undefined);
  if (resolution.kind === 'refused') return refused('plan', 'target', `${resolution.message}; refused before spawn, nothing appended`, resolution);
  const overlap = homeOverlapsTarget(request.home, resolution.target.path);
  if (overlap !== undefined) return refused('plan', 'target', `${overlap}; refused before spawn, nothing appended`, { home: request.home });
  if (resolution.base !== 'not-asked' && resolution.base.kind === 'refused') {
    return refused('plan', 'base-commit', `${resolution.base.message}; refused before spawn, nothing appended`, { revision: request.base ?? 'HEAD' });
  }
  return {
    target: resolution.target,
    newRunBase: resolution.base === 'not-asked' ? undefined : { commit: resolution.base.commit, tree: resolution.base.tree },
  };
}

/** The adapter's executable, usable, and its manifest, read without executing anything (R2.2). */
async function readAdapter(request: RunRequest): Promise<Step<{ executable: string; manifest: Manifest; manifestFile: ManifestToCheck }>> {
  const executable = isAbsolute(request.adapter.executable) ? request.adapter.executable : resolve(request.adapter.executable);
  const usable = await checkExecutableFile(executable);
  if (usable !== 'usable') {
    return refused('plan', 'adapter', `${executable}: the adapter is ${EXECUTABLE_CHECK_WORDS[usable]}; refused before spawn, nothing appended`, {
      path: executable,
    });
  }
  const reading = await readManifest(request.adapter.manifest ?? sidecarManifestPath(executable));
  if (reading.kind === 'refused') return refused('plan', 'manifest', `${reading.message}; refused before spawn, nothing appended`, reading);
  return { executable, manifest: reading.manifest, manifestFile: { path: reading.path, digest: reading.digest } };
}

/** The tokens negotiated against the manifest (R2.3), and what the boundary's absence rules out (R12). */
function negotiateUnderBoundary(manifest: Manifest, request: RunRequest, boundary: BoundaryChoice): Step<RunPlan['negotiation']> {
  const negotiation = negotiateCapabilities(manifest, request.required, request.preferred);
  if (negotiation.kind === 'refused') return refused('plan', 'negotiation', negotiation.message, negotiation);
  // R2.3, R12: "writes only its workspace" is something the boundary enforces; without it, a run
  // that requires workspace-write is refused before spawn, whatever the manifest declares.
  if (boundary.kind === 'none' && request.required.includes('workspace-write')) {
    return refused(
      'plan',
      'negotiation',
      `workspace-write is required, but the evidence boundary is off (${boundary.chosenBy}): without it nothing keeps the agent's writes in the workspace; run with the boundary, or drop --require workspace-write; refused before spawn, nothing appended`,
      { required: ['workspace-write'], boundary: 'none' },
    );
  }
  return negotiation;
}

/**
 * The permission mode: `sandboxed` unless asked otherwise inside the boundary, `strict` without it.
 * `sandboxed` with no boundary would let the provider do anything with the records in reach, and
 * allow rules under `sandboxed` would narrow nothing (every tool is already permitted): both refused.
 */
function permissionsUnderBoundary(request: RunRequest, boundary: BoundaryChoice): Step<PermissionMode> {
  const mode = request.permissions ?? (boundary.kind === 'bwrap' ? 'sandboxed' : 'strict');
  if (mode === 'sandboxed' && boundary.kind === 'none') {
    return refused(
      'plan',
      'negotiation',
      `permissions sandboxed needs the evidence boundary, which is off (${boundary.chosenBy}): without it only strict permissions are given; refused before spawn, nothing appended`,
      { permissions: mode, boundary: 'none' },
    );
  }
  if (mode === 'sandboxed' && request.allow.length > 0) {
    return refused(
      'plan',
      'negotiation',
      `allow rules (${request.allow.join(', ')}) apply only under strict permissions: sandboxed already permits every tool but the denied ones; refused before spawn, nothing appended`,
      { permissions: mode, allow: [...request.allow] },
    );
  }
  return mode;
}

/** For a retry, its run's first intent and last attempt, read from the whole chain; `none` for a new run. */
async function findRetry(request: RunRequest, target: ResolvedTarget, paths: ChainPaths): Promise<Step<RunPlan['retry']>> {
  if (request.retryOf === undefined) return 'none';
  // A retry needs its run's first intent whole (base commit, workspace): read the chain in full.
  const full = await openChain(paths.chain);
  if (full.kind === 'unreadable') return { kind: 'failed', stage: 'plan', path: paths.chain, message: full.message, spawned: false };
  if (full.kind === 'broken') return refused('plan', 'chain-broken', full.message, { path: full.path, lineNumber: full.lineNumber, reason: full.reason });
  const found = findRun(full.entries, request.retryOf);
  if (found === undefined) {
    return refused('plan', 'unknown-run', `run ${request.retryOf} has no record for ${target.path}; refused, nothing appended`, { runId: request.retryOf });
  }
  return found;
}

/**
 * The adapter's identity (its digest, from the product home's cache) and its qualification label,
 * which the manifest it is read with is part of (R3.1). What is qualified is the pair (R3.1): without --provider, the provider is the one the adapter
 * will itself resolve — its `command` prerequisite on the same PATH the child receives.
 */
async function identifyAdapter(
  request: RunRequest,
  executable: string,
  manifest: Manifest,
  manifestFile: ManifestToCheck,
): Promise<Step<{ adapter: RunPlan['adapter']; provider: string | undefined; qualification: QualificationLabel; providerDigest: KnownDigest | undefined }>> {
  const digests = productHomeLayout(request.home).digests;
  let digest: string;
  try {
    digest = await digestFileCached(executable, digests);
  } catch (error) {
    return { kind: 'failed', stage: 'plan', path: executable, message: `cannot read the adapter to digest it (${(error as Error).message})`, spawned: false };
  }
  const adapter = { name: manifest.name, version: manifest.version, digest, path: executable };
  const provider = request.provider === undefined ? undefined : isAbsolute(request.provider) ? request.provider : resolve(request.provider);
  const providerCommand = manifest.prerequisites?.find((entry) => entry.kind === 'command');
  const labelledProvider = provider ?? (providerCommand === undefined ? undefined : findExecutableOnPath(providerCommand.command, request.source.PATH));
  const { qualification, providerDigest } = await labelQualification({
    home: request.home,
    adapter,
    manifest: manifestFile,
    identityFiles: manifest.providerIdentityFiles,
    provider: labelledProvider,
    digestCache: digests,
    trustedKeys: request.trustedKeys ?? [],
  });
  return { adapter, provider, qualification, providerDigest };
}

function findRun(entries: readonly ChainEntry[], runId: string): Exclude<RunPlan['retry'], 'none'> | undefined {
  if (!isRunId(runId)) return undefined;
  let firstIntent: IntentRecord | undefined;
  let lastAttempt = 0;
  const candidates: EarlierCandidate[] = [];
  for (const { record } of entries) {
    if (!('runId' in record) || record.runId !== runId) continue;
    if (record.kind === 'outcome') {
      // Each commit once, under the first attempt whose candidate it was: a later attempt that left it as it found it made none.
      const candidate = record.candidate;
      if (typeof candidate === 'object' && 'commit' in candidate && !candidates.some((entry) => entry.commit === candidate.commit))
        candidates.push({ commit: candidate.commit, attempt: record.attempt });
    }
    if (record.kind !== 'intent') continue;
    firstIntent ??= record;
    lastAttempt = Math.max(lastAttempt, record.attempt);
  }
  return firstIntent === undefined ? undefined : { firstIntent, lastAttempt, candidates };
}
