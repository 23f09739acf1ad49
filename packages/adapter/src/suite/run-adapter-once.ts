import { randomUUID } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { CapabilityToken } from '../capabilities.js';
import { classifyAttempt } from '../classify.js';
import { digestFile, sha256Hex } from '../content-digest.js';
import { negotiateCapabilities, type Negotiation } from '../negotiate.js';
import type { ProtocolEvent } from '../protocol/events.js';
import type { Manifest } from '../protocol/manifest.js';
import type { Request } from '../protocol/request.js';
import { PROTOCOL_VERSION } from '../protocol/version.js';
import { readManifest, sidecarManifestPath, type ManifestReading } from '../read-manifest.js';
import type { AttemptResult } from '../result.js';
import type { ContainmentMechanism } from '../supervise/attempt.js';
import type { SuperviseAnswer } from '../supervise/options.js';
import { superviseAdapter } from '../supervise/supervise-adapter.js';
import type { BoundaryProfile } from '../supervise/boundary-record.js';
import { establishBoundary, type BoundaryRefusalReason, type EstablishedBoundary } from '../supervise/bwrap-boundary.js';

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
  /** The tag every process of the attempt inherits; default: a fresh unique one. */
  attemptTag?: string;
  containment?: 'auto' | Exclude<ContainmentMechanism, 'bwrap'>;
  /**
   * The evidence boundary's profile (R12): when given, the boundary is established and probed
   * before the spawn and the adapter runs inside it; a boundary that cannot be made refuses.
   */
  boundary?: BoundaryProfile;
}

export interface AttemptFiles {
  request: string;
  stream: string;
  stderr: string;
}

/** Expected refusals are values (STYLE.md practice 3); each says which step refused. */
export type RunAdapterOnceAnswer =
  | { kind: 'refused'; stage: 'manifest'; reading: Extract<ManifestReading, { kind: 'refused' }>; message: string }
  | { kind: 'refused'; stage: 'negotiation'; negotiation: Extract<Negotiation, { kind: 'refused' }>; message: string; attemptTag: string; files: AttemptFiles }
  | { kind: 'refused'; stage: 'supervision'; answer: Extract<SuperviseAnswer, { kind: 'refused' }>; message: string; attemptTag: string; files: AttemptFiles }
  | { kind: 'refused'; stage: 'boundary'; reason: BoundaryRefusalReason; message: string; attemptTag: string; files: AttemptFiles }
  | {
      kind: 'ran';
      result: AttemptResult;
      request: Request;
      manifest: Manifest;
      attemptTag: string;
      files: AttemptFiles;
    };

const NO_LIMITS: Request['limits'] = { maxTurns: null, allow: [], deny: [], removeTools: [], hooks: [] };

/**
 * Plans and supervises one attempt: read the manifest (nothing executed) → negotiate the tokens
 * (a missing required token refuses before anything is written or spawned, R2.3) → write the
 * request file → supervise the process → classify what was observed (R8.2). The supervisor, not
 * the adapter, decides the outcome.
 */
export async function runAdapterOnce(options: RunAdapterOnceOptions): Promise<RunAdapterOnceAnswer> {
  const manifestPath = options.manifestPath ?? sidecarManifestPath(options.executable);
  const reading = await readManifest(manifestPath);
  if (reading.kind === 'refused') return { kind: 'refused', stage: 'manifest', reading, message: reading.message };
  const manifest = reading.manifest;

  const attemptTag = options.attemptTag ?? `statecraft-${options.attempt.runId}-${options.attempt.number}-${randomUUID()}`;
  const files: AttemptFiles = {
    request: join(options.attemptDir, 'request.json'),
    stream: join(options.attemptDir, 'stream.ndjson'),
    stderr: join(options.attemptDir, 'stderr.log'),
  };
  const negotiation = negotiateCapabilities(manifest, options.required, options.preferred);
  if (negotiation.kind === 'refused') {
    return { kind: 'refused', stage: 'negotiation', negotiation, message: negotiation.message, attemptTag, files };
  }

  const request = buildRequest(options);
  await mkdir(options.attemptDir, { recursive: true });
  await writeDurably(files.request, `${JSON.stringify(request, null, 2)}\n`);
  const digest = await digestFile(options.executable);
  let boundary: EstablishedBoundary | undefined;
  if (options.boundary !== undefined) {
    const established = await establishBoundary({ profile: options.boundary, environment: options.environment, workspace: options.workspace });
    if (established.kind === 'refused') return { kind: 'refused', stage: 'boundary', reason: established.reason, message: established.message, attemptTag, files };
    boundary = established.boundary;
  }

  const answer = await superviseAdapter({
    executable: options.executable,
    args: ['run', '--request', files.request],
    workspace: options.workspace,
    environment: options.environment,
    prompt: options.prompt,
    deadlineMs: options.deadlineMs,
    attemptTag,
    streamFile: files.stream,
    stderrFile: files.stderr,
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.containment === undefined ? {} : { containment: options.containment }),
    ...(boundary === undefined ? {} : { boundary }),
  });
  if (answer.kind === 'refused') return { kind: 'refused', stage: 'supervision', answer, message: answer.message, attemptTag, files };

  const result = classifyAttempt(answer.attempt, {
    manifest,
    negotiation,
    adapter: { name: manifest.name, version: manifest.version, digest },
  });
  return { kind: 'ran', result, request, manifest, attemptTag, files };
}

function buildRequest(options: RunAdapterOnceOptions): Request {
  const prompt = Buffer.from(options.prompt, 'utf8');
  return {
    protocol: PROTOCOL_VERSION,
    attempt: { runId: options.attempt.runId, number: options.attempt.number },
    workspace: options.workspace,
    baseRevision: options.baseRevision,
    capabilities: { required: [...options.required], preferred: [...options.preferred] },
    limits: { ...NO_LIMITS, ...options.limits },
    deadline: { milliseconds: options.deadlineMs, at: new Date(Date.now() + options.deadlineMs).toISOString() },
    prompt: { sha256: sha256Hex(prompt), bytes: prompt.length },
    provider: options.provider === undefined ? null : { executable: options.provider },
  };
}

/** Written exclusively and fsync'd: the request is evidence of what the adapter was asked (R8.4). */
async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
