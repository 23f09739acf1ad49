import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SampleRepository, useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Account {
  runId: string;
  records: { chain: string };
}
interface Examination {
  findings: { kind: string; path: string; message: string }[];
}

const targets = useTestTargets({ sharedRepository: false });

const run = (target: string, scenario: string) =>
  runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', `scenario: ${scenario}`, '--json'], { home: targets.home.path });

const checkpointOf = (chain: string) => join(dirname(chain), 'chain.checkpoint.json');

/** Flips one digit of the record's run id: still JSON, still a valid record, no longer the bytes the next link vouches for. */
async function alterRunIdOf(chain: string, runId: string): Promise<Buffer> {
  const bytes = await readFile(chain);
  const at = bytes.indexOf(Buffer.from(`"runId":"${runId}"`)) + '"runId":"'.length;
  bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31;
  await writeFile(chain, bytes);
  return bytes;
}

/** Two concluded attempts (four records): the checkpoint then names line 4. */
async function twoAttempts(): Promise<{ target: SampleRepository; first: Account; chain: string }> {
  const target = await targets.fresh();
  const first = parseJson<Account>(await run(target.path, 'complete'));
  expect((await run(target.path, 'refuse')).exitCode).toBe(1);
  return { target, first, chain: first.records.chain };
}

describe('an append verifies only what was appended since the last verified tip (issue 10 item 6, R8.4)', () => {
  it('after each append the checkpoint names the verified tip: its seq and the byte offset where it ends', async () => {
    const { chain } = await twoAttempts();
    const bytes = await readFile(chain);
    const checkpoint = JSON.parse(await readFile(checkpointOf(chain), 'utf8')) as Record<string, unknown>;
    expect(checkpoint).toMatchObject({ format: 1, seq: 3, offset: bytes.length });
  });

  it('a byte altered before the checkpoint is not read by run, which appends; run list (exit 2) and doctor (exit 1) still name the altered record', async () => {
    const { target, first, chain } = await twoAttempts();
    const altered = await alterRunIdOf(chain, first.runId);

    // `run` reads only the bytes after the checkpoint: the altered first line is never read, so it appends.
    const third = await run(target.path, 'complete');
    expect(third.exitCode).toBe(0);
    const after = await readFile(chain);
    expect(after.subarray(0, altered.length)).toEqual(altered);
    expect(after.toString('utf8').trimEnd().split('\n')).toHaveLength(6);

    // The readers that answer for the whole chain verify every link.
    const list = await runStatecraft(['run', 'list', target.path], { home: targets.home.path });
    expect(list.exitCode).toBe(2);
    expect(list.stderr).toContain('broken link: record at line 1');
    const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
    expect(doctor.exitCode).toBe(1);
    expect(parseJson<Examination>(doctor).findings).toEqual([
      expect.objectContaining({ kind: 'broken-chain', path: chain, message: expect.stringContaining('record at line 1') as unknown }),
    ]);
  });

  it('a checkpoint that is missing or torn is not used: the append verifies from the beginning; one the chain contradicts refuses it as cut (exit 2)', async () => {
    const variants: Record<string, (checkpoint: Record<string, unknown>, chainBytes: number) => string | undefined> = {
      missing: () => undefined,
      torn: (checkpoint) => JSON.stringify(checkpoint).slice(0, 20),
      'another digest': (checkpoint) => JSON.stringify({ ...checkpoint, digest: 'a'.repeat(64) }),
      'another seq': (checkpoint) => JSON.stringify({ ...checkpoint, seq: 1 }),
      'an offset inside a line': (checkpoint) => JSON.stringify({ ...checkpoint, offset: (checkpoint.offset as number) - 10 }),
      'an offset past the end': (checkpoint, chainBytes) => JSON.stringify({ ...checkpoint, offset: chainBytes + 100 }),
    };
    for (const [name, edit] of Object.entries(variants)) {
      const { target, first, chain } = await twoAttempts();
      const checkpoint = JSON.parse(await readFile(checkpointOf(chain), 'utf8')) as Record<string, unknown>;
      const altered = await alterRunIdOf(chain, first.runId);
      const replaced = edit(checkpoint, altered.length);
      if (replaced === undefined) await rm(checkpointOf(chain));
      else await writeFile(checkpointOf(chain), replaced);
      const refusedRun = await run(target.path, 'complete');
      expect({ name, exitCode: refusedRun.exitCode }).toEqual({ name, exitCode: 2 });
      // A checkpoint a crash could leave (none, or torn) is a miss: every link is verified instead.
      // One naming a line the chain does not hold says the chain lost or changed verified records
      // (or the checkpoint was edited: the same tampering with the product home), and is refused.
      const said = name === 'missing' || name === 'torn' ? 'broken link: record at line 1' : 'records were cut or rewritten after they were verified';
      expect({ name, said: refusedRun.stderr.includes(said) }).toEqual({ name, said: true });
      expect(await readFile(chain)).toEqual(altered);
    }
  });

  it('a chain that lost its last newline, or its last records at a line end, is refused as cut, not truncated as a torn append; doctor names it (exit 1)', async () => {
    for (const cut of ['the last newline', 'the last two records'] as const) {
      const { target, first, chain } = await twoAttempts();
      const bytes = await readFile(chain);
      const lines = bytes.toString('utf8').split('\n');
      const kept = cut === 'the last newline' ? bytes.subarray(0, bytes.length - 1) : Buffer.from(`${lines.slice(0, 2).join('\n')}\n`);
      await writeFile(chain, kept);
      // Before: the next run cut the outcome record as a torn tail (or appended past the loss) and
      // exited 0, and doctor then found only a dangling intent, or nothing.
      const refused = await run(target.path, 'complete');
      expect({ cut, exitCode: refused.exitCode }).toEqual({ cut, exitCode: 2 });
      expect(refused.stderr).toContain('records were cut or rewritten after they were verified');
      expect(await readFile(chain)).toEqual(kept);
      // accept appends too: it refuses the same chain, and leaves it and its checkpoint as they are
      // (cutting and appending, it would have overwritten the checkpoint that shows the loss).
      const checkpoint = await readFile(checkpointOf(chain));
      const judged = await runStatecraft(['accept', target.path, first.runId, '--json'], { home: targets.home.path });
      expect({ cut, exitCode: judged.exitCode }).toEqual({ cut, exitCode: 2 });
      expect(judged.stderr).toContain('records were cut or rewritten after they were verified');
      expect(await readFile(chain)).toEqual(kept);
      expect(await readFile(checkpointOf(chain))).toEqual(checkpoint);
      const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
      expect(doctor.exitCode).toBe(1);
      expect(parseJson<Examination>(doctor).findings).toContainEqual(expect.objectContaining({ kind: 'chain-cut', path: chain }));
    }
  });

  it('a record altered after the checkpoint is refused by the append, naming it, as before checkpoints (exit 2)', async () => {
    const target = await targets.fresh();
    const first = parseJson<Account>(await run(target.path, 'complete'));
    const earlier = await readFile(checkpointOf(first.records.chain));
    const second = parseJson<Account>(await run(target.path, 'refuse'));
    // The checkpoint an append wrote after the first attempt: still true of the chain's bytes.
    await writeFile(checkpointOf(first.records.chain), earlier);
    const altered = await alterRunIdOf(first.records.chain, second.runId);
    const refusedRun = await run(target.path, 'complete');
    expect(refusedRun.exitCode).toBe(2);
    expect(refusedRun.stderr).toContain('broken link: record at line 3');
    expect(await readFile(first.records.chain)).toEqual(altered);
  });
});
