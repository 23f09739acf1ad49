import { closeSync, fstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { openRegularFileSync } from '@statecraft/adapter';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { readAt, readLineEndingAt } from './check-chain-tip.js';
import { sha256Of, type ChainStart, type LinkedRecord } from './open-chain.js';
import type { ChainPosition } from './append-record.js';

/**
 * The last point of the chain an append verified: the digest and seq of the line that ends at
 * `offset`. A cache, never a record: appends start verifying there instead of at the beginning.
 * `run list`, `run show` and `doctor` never read it; they verify every link.
 */
export const ChainCheckpointSchema = z.strictObject({
  format: z.literal(1),
  /** Bytes of the chain up to and including the verified line's newline. */
  offset: z.int().positive(),
  seq: z.int().nonnegative(),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
type ChainCheckpoint = z.infer<typeof ChainCheckpointSchema>;

/** Kept beside the chain it describes. */
export function checkpointPathOf(chainFile: string): string {
  return join(dirname(chainFile), 'chain.checkpoint.json');
}

/** Why a checkpoint was not used; every one of them means: verify from the beginning. */
type CheckpointMiss = 'missing' | 'unreadable' | 'malformed' | 'past-the-end' | 'not-a-line-end' | 'digest-differs' | 'seq-differs';

export type CheckpointReading = { kind: 'usable'; start: ChainStart } | { kind: 'not-used'; why: CheckpointMiss; checkpoint?: ChainCheckpoint };

/**
 * The misses that only a chain cut or rewritten after its checkpoint was written can give. A
 * checkpoint names a line already fsync'd when it was written, and nothing statecraft does removes
 * a verified line (a torn tail it cuts lies past it), so the chain no longer holding that line is
 * damage — never a crash's leftovers, which give `missing` or `malformed` at worst.
 */
const CONTRADICTIONS: ReadonlySet<CheckpointMiss> = new Set(['past-the-end', 'not-a-line-end', 'digest-differs', 'seq-differs']);

/** What a contradicted checkpoint says of its chain, or nothing when the checkpoint is usable or merely absent. */
export function checkpointContradiction(reading: CheckpointReading): string | undefined {
  if (reading.kind === 'usable' || !CONTRADICTIONS.has(reading.why) || reading.checkpoint === undefined) return undefined;
  const { seq, offset } = reading.checkpoint;
  const what =
    reading.why === 'past-the-end'
      ? `is shorter than the ${offset} bytes verified up to record ${seq + 1}`
      : `no longer holds, ending at byte ${offset}, the record ${seq + 1} it held when verified (${reading.why})`;
  return `the chain ${what}: records were cut or rewritten after they were verified`;
}

/**
 * Reads the checkpoint and checks it against the chain's own bytes: the line that ends at its
 * offset must hash to its digest and carry its seq. Only that line is read (from the tail end
 * backwards), so the check costs the same whatever the chain's length. Anything else — missing,
 * torn, edited, a chain cut shorter or rewritten — is a miss, and the caller verifies in full.
 */
export function readChainCheckpoint(chainFile: string): CheckpointReading {
  let text: string;
  try {
    text = readTextFile(checkpointPathOf(chainFile));
  } catch (error) {
    return { kind: 'not-used', why: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'not-used', why: 'malformed' };
  }
  const parsed = ChainCheckpointSchema.safeParse(json);
  if (!parsed.success) return { kind: 'not-used', why: 'malformed' };
  const checkpoint = parsed.data;
  let fd: number;
  try {
    fd = openRegularFileSync(chainFile);
  } catch {
    return { kind: 'not-used', why: 'unreadable' };
  }
  try {
    if (fstatSync(fd).size < checkpoint.offset) return { kind: 'not-used', why: 'past-the-end', checkpoint };
    const line = readLineEndingAt(fd, checkpoint.offset);
    if (line === undefined) return { kind: 'not-used', why: 'not-a-line-end', checkpoint };
    if (sha256Of(line) !== checkpoint.digest) return { kind: 'not-used', why: 'digest-differs', checkpoint };
    const record = readLink(line);
    if (record === undefined || record.seq !== checkpoint.seq) return { kind: 'not-used', why: 'seq-differs', checkpoint };
    return {
      kind: 'usable',
      start: { offset: checkpoint.offset, head: checkpoint.digest, nextSeq: checkpoint.seq + 1, previous: { lineNumber: checkpoint.seq + 1, record } },
    };
  } catch {
    return { kind: 'not-used', why: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the checkpoint for a position just appended and fsync'd, under the repository lock:
 * to a file of its own, renamed into place, so a reader sees the old checkpoint or the new one,
 * never half of one. Not fsync'd: after a crash a lost or empty checkpoint is only a miss, and
 * the chain bytes it names were fsync'd before it was written. A failure to write it is not the
 * append's failure: the next append verifies from the beginning. Synchronous, as its reading is:
 * ~150 bytes and a rename cost less than the thread pool's round trips, and a process whose last
 * step is an append then has nothing left to wait for when it ends.
 */
export function writeChainCheckpoint(chainFile: string, position: ChainPosition): void {
  if (position.nextSeq === 0 || position.torn !== 'none') return;
  const checkpoint: ChainCheckpoint = { format: 1, offset: position.length, seq: position.nextSeq - 1, digest: position.head };
  const path = checkpointPathOf(chainFile);
  const partial = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(partial, `${JSON.stringify(checkpoint)}\n`, { mode: 0o600 });
    renameSync(partial, path);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing more to do: a partial checkpoint is never read (only the renamed name is).
    }
  }
}

function readTextFile(path: string): string {
  const fd = openRegularFileSync(path);
  try {
    // A checkpoint is ~150 bytes; anything much larger is not one.
    return readAt(fd, 0, 4096).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The link fields of a line, read loosely: enough to name the record and compare its seq. */
function readLink(line: Buffer): LinkedRecord | undefined {
  try {
    const json = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
    const { prev, seq, kind, runId, attempt } = json;
    if (typeof prev !== 'string' || typeof seq !== 'number' || typeof kind !== 'string') return undefined;
    // A prune names no single attempt: it has neither field; a selection names its run alone; any other record has both.
    if (runId === undefined && attempt === undefined && kind === 'prune') return { prev, seq, kind };
    if (typeof runId === 'string' && attempt === undefined && kind === 'selection') return { prev, seq, kind, runId };
    if (typeof runId !== 'string' || typeof attempt !== 'number') return undefined;
    return { prev, seq, kind, runId, attempt };
  } catch {
    return undefined;
  }
}

/**
 * The refusal every opener that appends gives a chain its checkpoint contradicts (`run`'s and
 * `accept`'s), so neither cuts verified bytes as a torn append nor appends past a loss — and then
 * overwrites the checkpoint that showed it. Nothing when the checkpoint is usable or merely absent.
 * An opener that goes on to use the checkpoint passes the reading it made, so it is read once.
 */
export function refusalOfContradictedChain(
  chainFile: string,
  reading: CheckpointReading = readChainCheckpoint(chainFile),
): { kind: 'broken'; path: string; lineNumber: number; reason: 'cut-after-verified'; message: string } | undefined {
  const contradiction = checkpointContradiction(reading);
  if (contradiction === undefined || reading.kind !== 'not-used' || reading.checkpoint === undefined) return undefined;
  return {
    kind: 'broken',
    path: chainFile,
    lineNumber: reading.checkpoint.seq + 1,
    reason: 'cut-after-verified',
    message: `${chainFile}: ${contradiction}; the chain is refused as corrupt and nothing was repaired`,
  };
}
