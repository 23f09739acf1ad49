import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChainMovedError, openChain, SerialAppender, type UnlinkedRecord } from '@statecraft/records';
import { sampleIntent } from './sample-records.js';

let scratch: DirectoryResult;
let chain: string;

beforeEach(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-appender' });
  chain = join(scratch.path, 'targets', 'k', 'chain.jsonl');
});
afterEach(async () => {
  await scratch.cleanup();
});

const genesis = { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' } as const;

describe('the serialised appender of a run of several attempts', () => {
  it('appends asked for all at once land one after another, each linked to the one before: no fork', async () => {
    const appender = new SerialAppender(chain, genesis);
    const appended = await Promise.all(Array.from({ length: 40 }, (_, index) => appender.append(() => sampleIntent(index + 1) as UnlinkedRecord)));
    expect(appended.map((entry) => entry.record.seq)).toEqual(Array.from({ length: 40 }, (_, index) => index));
    const opened = await openChain(chain);
    expect(opened.kind).toBe('opened');
    if (opened.kind === 'opened') expect(opened.entries.map((entry) => entry.digest)).toEqual(appended.map((entry) => entry.digest));
  });

  it('a read waits for the appends before it and holds back those after it', async () => {
    const appender = new SerialAppender(chain, genesis);
    const first = appender.append(() => sampleIntent(1) as UnlinkedRecord);
    const seen = appender.read(async () => {
      const opened = await openChain(chain);
      return opened.kind === 'opened' ? opened.entries.length : -1;
    });
    const second = appender.append(() => sampleIntent(2) as UnlinkedRecord);
    expect(await seen).toBe(1);
    await Promise.all([first, second]);
    const opened = await openChain(chain);
    expect(opened.kind === 'opened' && opened.entries.length).toBe(2);
  });

  it('a record that cannot be built appends nothing, and the next links where the last one left', async () => {
    const appender = new SerialAppender(chain, genesis);
    await appender.append(() => sampleIntent(1) as UnlinkedRecord);
    await expect(
      appender.append(() => {
        throw new Error('not built');
      }),
    ).rejects.toThrow('not built');
    const next = await appender.append(() => sampleIntent(2) as UnlinkedRecord);
    expect(next.record.seq).toBe(1);
    expect((await openChain(chain)).kind).toBe('opened');
  });

  it('a chain written behind its back refuses every later append (ChainMovedError), never forks it', async () => {
    const appender = new SerialAppender(chain, genesis);
    await appender.append(() => sampleIntent(1) as UnlinkedRecord);
    await appendFile(chain, `${JSON.stringify({ written: 'elsewhere' })}\n`);
    await expect(appender.append(() => sampleIntent(2) as UnlinkedRecord)).rejects.toBeInstanceOf(ChainMovedError);
    await expect(appender.append(() => sampleIntent(3) as UnlinkedRecord)).rejects.toBeInstanceOf(ChainMovedError);
  });
});
