import { join } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import { ATTEMPT_FILE_NAMES, newAttemptTag } from '@statecraft/records';
import { buildAttemptRequest } from '../attempt/attempt-request.js';
import { runAttempt } from '../attempt/run-attempt.js';
import type { CapabilityToken } from '@statecraft/adapter';
import { digestFile } from '@statecraft/adapter';
import { writeFileDurably } from '@statecraft/records';
import { negotiateCapabilities, type Negotiation } from '@statecraft/adapter';
import type { ProtocolEvent } from '@statecraft/adapter';
import type { Manifest } from '@statecraft/adapter';
import type { Request } from '@statecraft/adapter';
import { readManifest, sidecarManifestPath, type ManifestReading } from '@statecraft/adapter';
import type { AttemptResult } from '@statecraft/adapter';
import type { ContainmentMechanism } from '@statecraft/adapter';
import type { SuperviseAnswer } from '../supervise/options.js';
import type { BoundaryProfile } from '@statecraft/adapter';
import { establishBoundary, type BoundaryRefusalReason, type EstablishedBoundary } from '@statecraft/environment';
import { prepareManagedPaths, type ProtectedLocation } from '@statecraft/environment';
import { supervisorProtectedLocations } from '@statecraft/environment';
import { rememberWritablePaths } from '@statecraft/records';

/** Everything needed to plan and supervise one attempt of one adapter. */
export interface RunAdapterOnceOptions {
  executable: string;
  /** The manifest file; default: the sidecar `<executable>.manifest.json` (R2.2). */
  manifestPath?: string;
  workspace: string;
  baseRevision: string;
  attempt: { runId: string; number: number };
  required: readonly CapabilityToken[];
  preferred: readonly CapabilityToken[];
  limits?: Partial<Request['limits']>;
  prompt: string;
  deadlineMs: number;
  /** The constructed environment, passed whole (R5.1). Nothing is added to it here. */
  environment: Readonly<Record<string, string>>;
  /** A provider executable to name in the request; default none (the adapter resolves its own). */
  provider?: string;
  /** Where request.json, stream.ndjson and stderr.log are written; created if absent. */
  attemptDir: string;
  onEvent?: (event: ProtocolEvent) => void;
  /** The operator's interrupt: the attempt is cancelled, its tree killed (as `run` does, R8.1). */
  signal?: AbortSignal;
  /** The tag every process of the attempt inherits; default: a fresh unique one. */
  attemptTag?: string;
  containment?: 'auto' | Exclude<ContainmentMechanism, 'bwrap'>;
  /**
   * The evidence boundary's profile (R12): when given, the boundary is established and probed
   * before the spawn and the adapter runs inside it; a boundary that cannot be made refuses.
   */
  boundary?: BoundaryProfile;
  /**
   * Where the managed paths bound writable are remembered (writable-paths-remembered.ts), but for
   * those inside `besides` (the suite's scratch directory, removed after): `run` then refuses a
   * target inside one, whatever adapter it uses (R12).
   */
  rememberWritablePathsIn?: { directory: string; besides: string };
  /** What the managed paths must not reach besides the attempt's own files (every repository the product home names). */
  protectedLocations?: readonly ProtectedLocation[];
}

interface AttemptFiles {
  request: string;
  stream: string;
  stderr: string;
}

/** Expected refusals are values (docs/architecture.md, convention 3); each says which step refused. */
export type RunAdapterOnceAnswer =
  | { kind: 'refused'; stage: 'manifest'; reading: Extract<ManifestReading, { kind: 'refused' }>; message: string }
  | { kind: 'refused'; stage: 'negotiation'; negotiation: Extract<Negotiation, { kind: 'refused' }>; message: string; attemptTag: string; files: AttemptFiles }
  | { kind: 'refused'; stage: 'supervision'; answer: Extract<SuperviseAnswer, { kind: 'refused' }>; message: string; attemptTag: string; files: AttemptFiles }
  | { kind: 'refused'; stage: 'boundary'; reason: BoundaryRefusalReason | 'managed-path'; message: string; attemptTag: string; files: AttemptFiles }
  | {
      kind: 'ran';
      result: AttemptResult;
      request: Request;
      manifest: Manifest;
      attemptTag: string;
      files: AttemptFiles;
    };

/**
 * Plans and runs one attempt of the negative suite through the same attempt core as `run`
 * (attempt/*): read the manifest (nothing executed) → negotiate the tokens (a missing required
 * token refuses before anything is written or spawned, R2.3) → write the request → supervise and
 * classify (R8.2). The supervisor, not the adapter, decides the outcome.
 */
export async function runAdapterOnce(options: RunAdapterOnceOptions): Promise<RunAdapterOnceAnswer> {
  const manifestPath = options.manifestPath ?? sidecarManifestPath(options.executable);
  const reading = await readManifest(manifestPath);
  if (reading.kind === 'refused') return { kind: 'refused', stage: 'manifest', reading, message: reading.message };
  const manifest = reading.manifest;

  const attemptTag = options.attemptTag ?? newAttemptTag(options.attempt.runId, options.attempt.number);
  const files = attemptFilesIn(options.attemptDir);
  const negotiation = negotiateCapabilities(manifest, options.required, options.preferred);
  if (negotiation.kind === 'refused') {
    return { kind: 'refused', stage: 'negotiation', negotiation, message: negotiation.message, attemptTag, files };
  }

  const request = await writeAttemptRequest(options, negotiation, files);
  const digest = await digestFile(options.executable);
  let boundary: EstablishedBoundary | undefined;
  if (options.boundary !== undefined) {
    // The adapter's managed paths are writable inside once checked, as for `run` (R10.6, R12).
    const managed = await prepareManagedPaths(manifest.managedPaths ?? [], {
      home: options.environment.HOME,
      protectedLocations: [
        // The homes are not among them, as for `run`: the constructed HOME may lie in one, and what is
        // bound over a home's tmpfs is what the child may reach.
        ...options.boundary.hidden
          .filter(({ role }) => role !== 'operator-home' && role !== 'other-home')
          .map(({ path }) => ({ path, what: 'a path the sandbox hides (the product home)' })),
        { path: options.workspace, what: "the attempt's workspace" },
        { path: options.attemptDir, what: "the attempt's request and kept stream, which stay read-only" },
        ...supervisorProtectedLocations([process.env, options.environment]),
        ...(options.protectedLocations ?? []),
      ],
    });
    if (managed.kind === 'refused') return { kind: 'refused', stage: 'boundary', reason: 'managed-path', message: managed.message, attemptTag, files };
    const memory = options.rememberWritablePathsIn;
    if (memory !== undefined) {
      const outside = managed.paths.filter((path) => path !== memory.besides && !path.startsWith(`${memory.besides}/`));
      await rememberWritablePaths(memory.directory, manifest.name, outside);
    }
    const known = new Set(options.boundary.writable.map((entry) => entry.path));
    const profile = {
      ...options.boundary,
      writable: [...options.boundary.writable, ...managed.paths.filter((path) => !known.has(path)).map((path) => ({ path, role: 'managed-path' as const }))],
    };
    const established = await establishBoundary({ profile, environment: options.environment, workspace: options.workspace });
    if (established.kind === 'refused')
      return { kind: 'refused', stage: 'boundary', reason: established.reason, message: established.message, attemptTag, files };
    boundary = established.boundary;
  }

  const ran = await runAttempt({
    executable: options.executable,
    requestFile: files.request,
    workspace: options.workspace,
    environment: options.environment,
    prompt: options.prompt,
    deadlineMs: options.deadlineMs,
    attemptTag,
    streamFile: files.stream,
    stderrFile: files.stderr,
    manifest,
    negotiation,
    adapter: { name: manifest.name, version: manifest.version, digest },
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.containment === undefined ? {} : { containment: options.containment }),
    ...(boundary === undefined ? {} : { boundary }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (ran.kind === 'refused') return { kind: 'refused', stage: 'supervision', answer: ran, message: ran.message, attemptTag, files };
  // The suite gives no gate: the adapter starts as soon as its sandbox is up, and is never withdrawn.
  if (ran.kind === 'withdrawn') throw new Error('an attempt of the negative suite was withdrawn, though it was given no gate');
  return { kind: 'ran', result: ran.result, request, manifest, attemptTag, files };
}

/** Where the attempt's request, event stream and stderr are kept. */
function attemptFilesIn(attemptDir: string): AttemptFiles {
  return {
    request: join(attemptDir, ATTEMPT_FILE_NAMES.request),
    stream: join(attemptDir, ATTEMPT_FILE_NAMES.stream),
    stderr: join(attemptDir, ATTEMPT_FILE_NAMES.stderr),
  };
}

/** The request the negotiation allows, written once and fsync'd: evidence of what the adapter was asked (R8.4). */
async function writeAttemptRequest(
  options: RunAdapterOnceOptions,
  negotiation: Extract<Negotiation, { kind: 'negotiated' }>,
  files: AttemptFiles,
): Promise<Request> {
  const request = buildAttemptRequest(
    {
      attempt: options.attempt,
      workspace: options.workspace,
      baseRevision: options.baseRevision,
      required: negotiation.required,
      preferred: negotiation.preferred,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      deadlineMs: options.deadlineMs,
      prompt: options.prompt,
      ...(options.provider === undefined ? {} : { provider: options.provider }),
      boundary: options.boundary === undefined ? 'none' : 'bwrap',
    },
    new Date(),
  );
  makeDirectories(options.attemptDir, 0o755);
  // Written once and fsync'd: the request is evidence of what the adapter was asked (R8.4).
  await writeFileDurably(files.request, `${JSON.stringify(request, null, 2)}\n`, { exclusive: true });
  return request;
}
