import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { runMeasuringPeak } from '../../fixtures/peak-memory.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

/**
 * Issue 9, defect 1 (R7.5, R8.4): an adapter that floods its stream with valid refusal events.
 * The supervisor's memory must stay bounded, the outcome must be recorded with its count, and the
 * chain must stay small — the refusals themselves are in the stream kept beside it.
 */

const FLOOD_ADAPTER = fileURLToPath(new URL('../../fixtures/adapters/refusal-flood-adapter.mjs', import.meta.url));
/** Each refusal line the flood adapter writes is exactly this long, its newline included. */
const REFUSAL_LINE_BYTES = 1024;
const MEBIBYTE = 1024 * 1024;

interface Excerpt {
  type: 'refusal';
  seq: number;
  tool?: string;
  verbatim?: unknown;
  cut?: { lineBytes: number; head: string };
}

interface Account {
  runId: string;
  state: string;
  outcome: string;
  cause: string;
  refusalCount: number;
  refusals: Excerpt[];
  refusalDigest: { sha256: string; bytes: number } | 'not-recorded';
  records: { chain: string };
  artifacts: { stream: { path: string; bytes: number } | 'not-recorded' };
}

const targets = useTestTargets();
const scratch = scratchDirectories();

/** Runs `statecraft <args>` and reports its peak resident set size (VmHWM) in MB beside the answer. */
function measured(args: readonly string[], timeoutMs = 120_000): ReturnType<typeof runMeasuringPeak> {
  return runMeasuringPeak(args, { home: targets.home.path, scratch, timeoutMs });
}

/** The lengths of a file's first and last lines, newlines included, read without loading the file. */
async function measureEndLines(path: string, size: number): Promise<{ firstLineBytes: number; lastLineBytes: number }> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    await handle.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(4096);
    await handle.read(tail, 0, tail.length, size - tail.length);
    return { firstLineBytes: head.indexOf(0x0a) + 1, lastLineBytes: tail.length - tail.lastIndexOf(0x0a, tail.length - 2) - 1 };
  } finally {
    await handle.close();
  }
}

/** sha256 over every refusal line of a kept stream, each followed by one newline: the recorded digest's definition. */
async function digestRefusalLines(path: string): Promise<{ sha256: string; bytes: number; count: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let count = 0;
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) {
    const lines = (rest + (chunk as string)).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"type":"refusal"')) continue;
      hash.update(`${line}\n`);
      bytes += Buffer.byteLength(line) + 1;
      count += 1;
    }
  }
  return { sha256: hash.digest('hex'), bytes, count };
}

describe('a flood of valid refusal events is counted, digested and excerpted, never held whole (issue 9, R7.5, R8.4)', () => {
  it('a refusal flood is recorded as refused with its count, a digest of the refusal lines and the first few refusals; run show points at the stream for the rest', async () => {
    const { run } = await measured(['run', targets.repository.path, '--adapter', FLOOD_ADAPTER, '--prompt', 'refusals: 4', '--json']);
    expect(run.exitCode, run.stderr).toBe(1);
    const account = parseJson<Account>(run);
    expect(account).toMatchObject({ state: 'concluded', outcome: 'refused', cause: 'none' });
    expect(account.artifacts.stream).not.toBe('not-recorded');
    const stream = account.artifacts.stream as { path: string };

    const fromStream = await digestRefusalLines(stream.path);
    expect(fromStream.count).toBeGreaterThan(4000);
    expect(account.refusalCount).toBe(fromStream.count);
    expect(account.refusalDigest).toEqual({ sha256: fromStream.sha256, bytes: fromStream.bytes });
    // The excerpt: the first refusals of the stream, in order, verbatim (a ~1 KiB line is kept whole).
    expect(account.refusals.length).toBeGreaterThan(0);
    expect(account.refusals.length).toBeLessThanOrEqual(16);
    expect(account.refusals.map((refusal) => refusal.seq)).toEqual(account.refusals.map((_, index) => index + 1));
    expect(account.refusals[0]?.verbatim).toMatchObject({ tool: 'Bash', input: { command: 'git push --force' } });

    // A refused attempt is a finding (exit 1), as for `run`.
    const shown = await runStatecraft(['run', 'show', targets.repository.path, account.runId, '--posture'], { home: targets.home.path });
    expect(shown.exitCode, shown.stderr).toBe(1);
    expect(shown.stdout).toContain(`${fromStream.count} refusals; first ${account.refusals.length} shown; all in ${stream.path}`);
  });

  it('600 MiB of refusals: the supervisor stays under 150 MB, the outcome is recorded with its count, the chain stays small, and run list, run show and doctor stay fast and small', async () => {
    const flood = await measured(['run', targets.repository.path, '--adapter', FLOOD_ADAPTER, '--prompt', 'refusals: 600', '--json'], 240_000);
    console.log(`refusal flood of 600 MiB: supervisor peak RSS ${flood.peakMB.toFixed(1)} MB, ${(flood.elapsedMs / 1000).toFixed(1)} s`);
    expect(flood.run.exitCode, flood.run.stderr).toBe(1);
    expect(flood.peakMB).toBeLessThanOrEqual(150);

    const account = parseJson<Account>(flood.run);
    expect(account).toMatchObject({ state: 'concluded', outcome: 'refused', cause: 'none' });
    const stream = account.artifacts.stream as { path: string; bytes: number };
    expect(stream.bytes).toBeGreaterThanOrEqual(600 * MEBIBYTE);
    // Every refusal line is 1 KiB and the rest is one init and one result: the count accounts for every byte.
    const { firstLineBytes, lastLineBytes } = await measureEndLines(stream.path, stream.bytes);
    expect(account.refusalCount * REFUSAL_LINE_BYTES + firstLineBytes + lastLineBytes).toBe(stream.bytes);
    expect(account.refusalDigest).toMatchObject({ bytes: account.refusalCount * REFUSAL_LINE_BYTES });

    // The chain holds a count, a digest and an excerpt, not the refusals; the per-attempt TMPDIR is gone.
    const chain = await readFile(account.records.chain, 'utf8');
    expect((await stat(account.records.chain)).size).toBeLessThan(256 * 1024);
    const outcome = JSON.parse(chain.trim().split('\n').at(-1) ?? '{}') as { refusalCount: number; temporaryDirectory: unknown };
    expect(outcome).toMatchObject({ refusalCount: account.refusalCount, temporaryDirectory: 'removed' });

    const listed = await measured(['run', 'list', targets.repository.path, '--json']);
    expect(listed.run.exitCode, listed.run.stderr).toBe(0);
    const attempts = parseJson<{ attempts: { runId: string; outcome: string; refusalCount: number }[] }>(listed.run).attempts;
    expect(attempts.find((attempt) => attempt.runId === account.runId)).toMatchObject({ outcome: 'refused', refusalCount: account.refusalCount });
    expect(listed.peakMB).toBeLessThanOrEqual(150);
    expect(listed.elapsedMs).toBeLessThan(5_000);

    const shown = await measured(['run', 'show', targets.repository.path, account.runId, '--json']);
    expect(shown.run.exitCode, shown.run.stderr).toBe(1);
    expect(parseJson<Account>(shown.run)).toMatchObject({ outcome: 'refused', refusalCount: account.refusalCount });
    expect(shown.peakMB).toBeLessThanOrEqual(150);

    const doctor = await measured(['doctor', '--json']);
    expect(doctor.run.exitCode, doctor.run.stdout).toBe(0);
    expect(doctor.peakMB).toBeLessThanOrEqual(150);
  }, 300_000);

  it('an outcome record written before refusals were bounded (every refusal, no digest) is still read, its digest named not-recorded (R8.3)', async () => {
    const repository = await targets.fresh();
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: refuse', '--json'], { home: targets.home.path });
    const account = parseJson<Account>(run);
    // Rewrite the last record in the older shape: twelve refusals held whole, no refusalDigest. It
    // is the chain's tip, so no later link vouches for it and the chain stays whole.
    const lines = (await readFile(account.records.chain, 'utf8')).trimEnd().split('\n');
    const outcome = JSON.parse(lines.at(-1) ?? '{}') as { refusalCount: number; result: Record<string, unknown> & { refusals: { seq: number }[] } };
    const [first] = outcome.result.refusals;
    const older = Array.from({ length: 12 }, (_, index) => ({ ...first, seq: index + 1 }));
    delete outcome.result['refusalDigest'];
    outcome.result.refusals = older;
    outcome.result['refusalCount'] = older.length;
    outcome.refusalCount = older.length;
    lines[lines.length - 1] = JSON.stringify(outcome);
    await writeFile(account.records.chain, `${lines.join('\n')}\n`);

    const shown = await runStatecraft(['run', 'show', repository.path, account.runId, '--json'], { home: targets.home.path });
    expect(shown.exitCode, shown.stderr).toBe(1);
    expect(parseJson<Account>(shown)).toMatchObject({ outcome: 'refused', refusalCount: 12, refusalDigest: 'not-recorded' });
    expect(parseJson<Account>(shown).refusals).toHaveLength(12);
    const listed = await runStatecraft(['run', 'list', repository.path], { home: targets.home.path });
    expect(listed.exitCode, listed.stderr).toBe(0);
  });
});
