import { isAbsolute, resolve } from 'node:path';
import {
  chooseContainment,
  checkExecutableFile,
  digestFileCached,
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
} from '@statecraft/adapter';
import { productHomeLayout, selectPassedNames, type BoundaryChoice, type NameSelection } from '@statecraft/environment';
import { chainPaths, type ChainPaths } from '../chain/chain-paths.js';
import { openChain, type ChainEntry } from '../chain/open-chain.js';
import type { IntentRecord } from '../chain/record-schemas.js';
import type { CoverageVerdict, QualificationLabel } from '../posture.js';
import { refused, type RunFailure, type RunRefusal } from '../refusal.js';
import { isRunId } from '../run-id.js';
import { resolveTarget, type ResolvedTarget } from '../workspace/resolve-target.js';
import { labelQualification } from './label-qualification.js';
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
  /** Absent with `spec`: the spec's text (as planning read it) is the prompt (issue 5, item 2). */
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
  /** The operator's environment: only allowlisted names are read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
  /** The protected evidence boundary (R12): on unless the operator chose `none`; default on. */
  boundary?: BoundaryChoice;
}

/** Everything decided before anything is appended (issue 3, item 2). */
export interface RunPlan {
  /** The request, its prompt settled (given, or the spec's text). */
  request: RunRequest & { prompt: string };
  target: ResolvedTarget;
  /** The commit the workspace is based on: resolved at planning for a new run, the run's recorded one for a retry (R8.6). */
  baseCommit: string;
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
  /** For a retry: the run's first intent, whose base commit and workspace the attempt reuses. */
  retry: 'none' | { firstIntent: IntentRecord; lastAttempt: number };
  /** Digests taken at planning that the adapter may reuse (the provider's): handed over in the request. */
  knownDigests: KnownDigest[];
}

export type Planning = { kind: 'planned'; plan: RunPlan } | RunRefusal | RunFailure;

/**
 * Plans one attempt without appending or spawning anything: resolve the target, read the
 * manifest (nothing executed, R2.2), negotiate the tokens (R2.3), label the qualification
 * (R3.2), select the environment's names and refuse credentials (R5.2), compare command
 * coverage from the working tree (R9), and, for a retry, find its run in the chain.
 */
export async function planRun(request: RunRequest): Promise<Planning> {
  // The PID-namespace probe spawns a process: let it run while the rest is planned (it is
  // awaited, and its failure surfaces, only once the plan needs it).
  const containmentChoice = chooseContainment('auto');
  containmentChoice.catch(() => undefined);
  // A new run's base commit is resolved here, at run start, in the target's own git call (R8.6);
  // a retry reuses its run's recorded base.
  const resolution = await resolveTarget(request.target, request.retryOf === undefined ? (request.base ?? 'HEAD') : undefined);
  if (resolution.kind === 'refused') return refused('plan', 'target', `${resolution.message}; refused before spawn, nothing appended`, resolution);
  const target = resolution.target;
  if (resolution.base !== 'not-asked' && resolution.base.kind === 'refused') {
    return refused('plan', 'base-commit', `${resolution.base.message}; refused before spawn, nothing appended`, { revision: request.base ?? 'HEAD' });
  }
  const newRunBase = resolution.base === 'not-asked' ? undefined : resolution.base.commit;

  const executable = isAbsolute(request.adapter.executable) ? request.adapter.executable : resolve(request.adapter.executable);
  const usable = await checkExecutableFile(executable);
  if (usable !== 'usable') {
    return refused('plan', 'adapter', `${executable}: the adapter is ${EXECUTABLE_CHECK_WORDS[usable]}; refused before spawn, nothing appended`, {
      path: executable,
    });
  }
  const manifestPath = request.adapter.manifest ?? sidecarManifestPath(executable);
  const reading = await readManifest(manifestPath);
  if (reading.kind === 'refused') return refused('plan', 'manifest', `${reading.message}; refused before spawn, nothing appended`, reading);
  const manifest = reading.manifest;

  const negotiation = negotiateCapabilities(manifest, request.required, request.preferred);
  if (negotiation.kind === 'refused') return refused('plan', 'negotiation', negotiation.message, negotiation);
  // R2.3, R12: "writes only its workspace" is something the boundary enforces; without it, a run
  // that requires workspace-write is refused before spawn, whatever the manifest declares.
  if (request.boundary?.kind === 'none' && request.required.includes('workspace-write')) {
    return refused(
      'plan',
      'negotiation',
      `workspace-write is required, but the evidence boundary is off (${request.boundary.chosenBy}): without it nothing keeps the agent's writes in the workspace; run with the boundary, or drop --require workspace-write; refused before spawn, nothing appended`,
      { required: ['workspace-write'], boundary: 'none' },
    );
  }

  const selection = selectPassedNames({ source: request.source, adapterPass: manifest.environment?.pass ?? [], operatorPass: request.pass });
  if (selection.kind === 'refused') {
    return refused('plan', 'environment', `${selection.message}\nrefused before spawn, nothing appended`, { state: 'refused', refusals: selection.refusals });
  }

  const coverage = await planCommandCoverage({ targetPath: target.path, spec: request.spec, requiresCommands: manifest.requiresCommands });
  if (coverage.kind === 'refused') return refused('plan', 'coverage', coverage.message, coverage.detail);
  const prompt = request.prompt ?? (coverage.reading.specText === 'none' ? undefined : coverage.reading.specText.text);
  if (prompt === undefined)
    return refused('plan', 'target', 'no prompt and no --spec whose text could stand for it; refused before spawn, nothing appended', null);

  // The chain is verified once, under the lock, right before the intent is appended
  // (launch-attempt.ts): a broken one is refused there, before anything is written (R8.4).
  const paths = chainPaths(productHomeLayout(request.home).target(target.key));
  let retry: RunPlan['retry'] = 'none';
  if (request.retryOf !== undefined) {
    // A retry needs its run's first intent whole (base commit, workspace): read the chain in full.
    const full = await openChain(paths.chain);
    if (full.kind === 'unreadable') return { kind: 'failed', stage: 'plan', path: paths.chain, message: full.message, spawned: false };
    if (full.kind === 'broken') return refused('plan', 'chain-broken', full.message, { path: full.path, lineNumber: full.lineNumber, reason: full.reason });
    const found = findRun(full.entries, request.retryOf);
    if (found === undefined) {
      return refused('plan', 'unknown-run', `run ${request.retryOf} has no record for ${target.path}; refused, nothing appended`, { runId: request.retryOf });
    }
    retry = found;
  }

  const digests = productHomeLayout(request.home).digests;
  let digest: string;
  try {
    digest = await digestFileCached(executable, digests);
  } catch (error) {
    return { kind: 'failed', stage: 'plan', path: executable, message: `cannot read the adapter to digest it (${(error as Error).message})`, spawned: false };
  }
  const adapter = { name: manifest.name, version: manifest.version, digest, path: executable };
  const provider = request.provider === undefined ? undefined : isAbsolute(request.provider) ? request.provider : resolve(request.provider);
  // What is qualified is the pair (R3.1): without --provider, the provider is the one the adapter
  // will itself resolve — its `command` prerequisite on the same PATH the child receives.
  const providerCommand = manifest.prerequisites?.find((entry) => entry.kind === 'command');
  const labelledProvider = provider ?? (providerCommand === undefined ? undefined : findExecutableOnPath(providerCommand.command, request.source.PATH));
  const { qualification, providerDigest } = await labelQualification(request.home, adapter, labelledProvider, digests);
  const { containment } = await containmentChoice;
  const baseCommit = retry === 'none' ? newRunBase : retry.firstIntent.baseCommit;
  // Unreachable: a new run asked for its base above. Refused rather than assumed.
  if (baseCommit === undefined) return refused('plan', 'base-commit', 'no base commit was resolved; refused before spawn, nothing appended', null);
  return {
    kind: 'planned',
    plan: {
      request: { ...request, prompt, ...(provider === undefined ? {} : { provider }) },
      target,
      baseCommit,
      paths,
      adapter,
      manifest,
      negotiation,
      qualification,
      selection,
      coverage: coverage.coverage,
      coverageReading: coverage.reading,
      containment,
      boundary: request.boundary ?? { kind: 'bwrap' },
      retry,
      knownDigests: providerDigest === undefined ? [] : [providerDigest],
    },
  };
}

function findRun(entries: readonly ChainEntry[], runId: string): { firstIntent: IntentRecord; lastAttempt: number } | undefined {
  if (!isRunId(runId)) return undefined;
  let firstIntent: IntentRecord | undefined;
  let lastAttempt = 0;
  for (const { record } of entries) {
    if (record.runId !== runId || record.kind !== 'intent') continue;
    firstIntent ??= record;
    lastAttempt = Math.max(lastAttempt, record.attempt);
  }
  return firstIntent === undefined ? undefined : { firstIntent, lastAttempt };
}
