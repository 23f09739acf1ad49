import { join } from 'node:path';
import { EventStreamReader, resultReadFromStream, sha256Hex, type AttemptResult } from '@statecraft/adapter';
import { readKeptFile, type attemptArtifactNames, type IntentRecord, type OutcomeRecord } from '@statecraft/records';

type Kept = { kind: 'kept'; sha256: string; bytes: number } | { kind: 'not-found'; message: string };

/**
 * The result of an attempt whose supervisor was lost (R8.3): `interrupted (supervisor-lost)`, its
 * stream's fields read again from the kept file by the supervisor's own reader — stopped at an
 * unfinished last line, as the supervisor stops at a deadline, since it never read the pipe to its
 * end — and each kept file's digest as it stands. What only the supervisor saw (the exit, the
 * end) is `not-observed`; the processes of the attempt still alive are its survivors.
 */
export function lostAttemptResult(
  targetDirectory: string,
  names: ReturnType<typeof attemptArtifactNames>,
  intent: IntentRecord,
  survivors: readonly number[],
  now: Date,
): {
  result: AttemptResult;
  stream: OutcomeRecord['artifacts']['stream'];
  stderr: OutcomeRecord['artifacts']['stderr'];
  evidence: OutcomeRecord['evidence'];
} {
  const reader = new EventStreamReader();
  const stream = readKept(join(targetDirectory, names.stream), (chunk) => reader.push(chunk));
  const stderr = readKept(join(targetDirectory, names.stderr));
  const reading = reader.reading();
  const { appliedCapabilities, ...fromStream } = resultReadFromStream(reading);
  const capabilities = intent.posture.capabilities;
  const digestOf = (kept: Kept) => (kept.kind === 'kept' ? { sha256: kept.sha256, bytes: kept.bytes } : EMPTY);
  const result: AttemptResult = {
    outcome: 'interrupted',
    cause: 'supervisor-lost',
    ...fromStream,
    timedOut: false,
    capabilities: {
      required: capabilities.requested.required,
      preferred: capabilities.requested.preferred,
      declared: capabilities.declared,
      applied: appliedCapabilities,
      degraded: capabilities.degraded,
      notApplied: capabilities.notApplied,
    },
    unverifiableRefusalAccount: capabilities.unverifiableRefusalAccount,
    adapter: { name: intent.posture.adapter.name, version: intent.posture.adapter.version, digest: intent.posture.adapter.digest },
    exit: 'not-observed',
    containment: intent.posture.containment,
    survivors: survivors.map((pid) => ({ pid, command: 'not-recorded' })),
    events: reading.events,
    stdout: digestOf(stream),
    stderr: digestOf(stderr),
    startedAt: intent.at,
    endedAt: now.toISOString(),
    durationMs: Math.max(0, now.getTime() - Date.parse(intent.at)),
  };
  const notKept = [
    ...(stream.kind === 'kept' ? [] : [{ path: names.stream, message: stream.message }]),
    ...(stderr.kind === 'kept' ? [] : [{ path: names.stderr, message: stderr.message }]),
  ];
  return {
    result,
    stream: stream.kind === 'kept' ? { path: names.stream, sha256: stream.sha256, bytes: stream.bytes } : 'not-recorded',
    stderr: stderr.kind === 'kept' ? { path: names.stderr, sha256: stderr.sha256, bytes: stderr.bytes } : 'not-recorded',
    evidence: notKept.length === 0 ? 'kept' : { notKept },
  };
}

const EMPTY = { sha256: sha256Hex(''), bytes: 0 };

/**
 * A kept file's digest as it stands (readKeptFile, the one reader), each chunk handed to `onChunk`;
 * a file that cannot be opened is named with why. One opened that then fails to read is not
 * recorded as not kept: the error is thrown, and nothing is appended.
 */
function readKept(path: string, onChunk?: (chunk: Buffer) => void): Kept {
  const reading = readKeptFile(path, onChunk);
  if (reading.kind === 'read') return { kind: 'kept', sha256: reading.sha256, bytes: reading.bytes };
  if (reading.opened) throw reading.error;
  return { kind: 'not-found', message: `${path}: not kept when the supervisor was lost (${reading.message})` };
}
