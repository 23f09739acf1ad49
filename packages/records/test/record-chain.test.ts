import { appendFile, mkdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendRecord,
  ChainMovedError,
  MAX_RECORD_BYTES,
  openChain,
  openChainForRun,
  UnreadableRecordError,
  openChainSummaries,
  type ChainPosition,
  type UnlinkedRecord,
} from '@statecraft/records';
import { sampleIntent } from './sample-records.js';

let scratch: DirectoryResult;
let directory: string;
let chain: string;

beforeEach(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-chain' });
  directory = scratch.path;
  chain = join(directory, 'targets', 'k', 'chain.jsonl');
});
afterEach(async () => {
  await scratch.cleanup();
});

async function appendIntents(count: number): Promise<ChainPosition> {
  let position: ChainPosition = { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
  for (let attempt = 1; attempt <= count; attempt += 1) {
    position = (await appendRecord(chain, position, sampleIntent(attempt) as UnlinkedRecord)).position;
  }
  return position;
}

describe('the record chain (R8.4)', () => {
  it('a missing chain opens as an empty one', async () => {
    expect(await openChain(chain)).toMatchObject({ kind: 'opened', entries: [], head: 'genesis', nextSeq: 0, torn: 'none' });
  });

  it('each record carries the digest of the previous line, and opening verifies every link', async () => {
    const position = await appendIntents(3);
    const opening = await openChain(chain);
    expect(opening.kind).toBe('opened');
    if (opening.kind !== 'opened') return;
    expect(opening.entries.map((entry) => entry.record.seq)).toEqual([0, 1, 2]);
    expect(opening.entries[0]?.record.prev).toBe('genesis');
    expect(opening.entries[1]?.record.prev).toBe(opening.entries[0]?.digest);
    expect(opening.entries[2]?.record.prev).toBe(opening.entries[1]?.digest);
    expect(opening.head).toBe(position.head);
  });

  it('an altered earlier record is refused as a broken link naming it; nothing is repaired', async () => {
    await appendIntents(3);
    const bytes = await readFile(chain);
    const at = bytes.indexOf(Buffer.from('"attempt":1'));
    bytes[at + '"attempt":'.length] = 0x37; // attempt 1 → 7: still valid JSON, still a valid record
    await writeFile(chain, bytes);
    const opening = await openChain(chain);
    expect(opening).toMatchObject({ kind: 'broken', reason: 'broken-link', lineNumber: 2 });
    if (opening.kind === 'broken') expect(opening.message).toContain('record at line 1');
    expect(await readFile(chain)).toEqual(bytes);
  });

  it('a complete line that is not JSON is corruption, named by its line', async () => {
    await appendIntents(2);
    const text = await readFile(chain, 'utf8');
    await writeFile(chain, text.replace('{"prev"', '{"prev"}'));
    expect(await openChain(chain)).toMatchObject({ kind: 'broken', reason: 'not-json', lineNumber: 1 });
  });

  it('a torn final line is reported, and the next append truncates it without touching earlier bytes', async () => {
    await appendIntents(2);
    const intact = await readFile(chain);
    await appendFile(chain, '{"prev":"0123');
    const opening = await openChain(chain);
    expect(opening).toMatchObject({ kind: 'opened', nextSeq: 2, torn: { offset: intact.length, bytes: 13 } });
    if (opening.kind !== 'opened') return;
    await appendRecord(chain, opening, sampleIntent(3) as UnlinkedRecord);
    const after = await readFile(chain);
    expect(after.subarray(0, intact.length)).toEqual(intact);
    const reopened = await openChain(chain);
    expect(reopened).toMatchObject({ kind: 'opened', nextSeq: 3, torn: 'none' });
  });

  it('an append is durable when it returns: the line is in the file, newline-terminated', async () => {
    await appendIntents(1);
    const text = await readFile(chain, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(2);
  });

  it('the summary reading used by run list verifies the same links and reads the same leading fields', async () => {
    await appendIntents(3);
    const whole = await openChain(chain);
    const summaries = await openChainSummaries(chain);
    expect(summaries.kind).toBe('opened');
    if (whole.kind !== 'opened' || summaries.kind !== 'opened') return;
    expect(summaries.head).toBe(whole.head);
    expect(
      summaries.entries.map((entry) => [
        entry.record.kind === 'prune' ? undefined : entry.record.runId,
        entry.record.kind === 'prune' || entry.record.kind === 'selection' ? undefined : entry.record.attempt,
        entry.digest,
      ]),
    ).toEqual(
      whole.entries.map((entry) => [
        entry.record.kind === 'prune' ? undefined : entry.record.runId,
        entry.record.kind === 'prune' || entry.record.kind === 'selection' ? undefined : entry.record.attempt,
        entry.digest,
      ]),
    );
  });

  it('leading fields longer than the prefix the summary reading decodes first are read whole, whatever character the prefix cuts', async () => {
    // Two-byte characters at both parities: one name's prefix ends between a character's bytes.
    let position: ChainPosition = { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
    for (const name of ['é'.repeat(500), `a${'é'.repeat(500)}`]) {
      const intent = sampleIntent(position.nextSeq + 1) as { adapter: { name: string }; posture: { adapter: { name: string } } };
      intent.adapter.name = name;
      intent.posture.adapter.name = name;
      position = (await appendRecord(chain, position, intent as unknown as UnlinkedRecord)).position;
    }
    const whole = await openChain(chain);
    const summaries = await openChainSummaries(chain);
    if (whole.kind !== 'opened' || summaries.kind !== 'opened') throw new Error(`not opened: ${whole.kind}, ${summaries.kind}`);
    expect(summaries.entries.map((entry) => entry.record)).toEqual(
      whole.entries.map(({ record }) => ({
        ...pick(record, ['prev', 'seq', 'format', 'at', 'kind', 'runId', 'attempt', 'adapter']),
        qualification: 'unqualified',
      })),
    );
  });

  it('an altered record is refused by the summary reading too, naming it', async () => {
    await appendIntents(3);
    const bytes = await readFile(chain);
    const at = bytes.indexOf(Buffer.from('"attempt":1'));
    bytes[at + '"attempt":'.length] = 0x37;
    await writeFile(chain, bytes);
    const summaries = await openChainSummaries(chain);
    expect(summaries).toMatchObject({ kind: 'broken', reason: 'broken-link', lineNumber: 2 });
  });

  it("accept's reading of one run verifies the same links, reads that run's intents whole and every other record by its leading fields", async () => {
    const judged = sampleIntent(1).runId as string;
    let position: ChainPosition = { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
    for (const intent of [{ ...sampleIntent(1), runId: 'another-run' }, sampleIntent(1), { ...sampleIntent(2), runId: 'another-run' }]) {
      position = (await appendRecord(chain, position, intent as UnlinkedRecord)).position;
    }
    const whole = await openChain(chain);
    const forRun = await openChainForRun(chain, judged);
    if (whole.kind !== 'opened' || forRun.kind !== 'opened') throw new Error('both readings open the chain');
    expect(forRun.head).toBe(whole.head);
    expect(forRun.entries.map((entry) => entry.digest)).toEqual(whole.entries.map((entry) => entry.digest));
    // The judged run's intent carries its body; the first other record only its leading fields; the last is read whole but kept as its summary.
    expect(forRun.entries.map((entry) => [entry.record.kind === 'prune' ? undefined : entry.record.runId, 'baseCommit' in entry.record])).toEqual([
      ['another-run', false],
      [judged, true],
      ['another-run', false],
    ]);
  });

  it("an altered record of another run is refused by accept's reading too, naming it", async () => {
    let position: ChainPosition = { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
    for (const intent of [{ ...sampleIntent(1), runId: 'another-run' }, sampleIntent(1)]) {
      position = (await appendRecord(chain, position, intent as UnlinkedRecord)).position;
    }
    const bytes = await readFile(chain);
    const at = bytes.indexOf(Buffer.from('"attempt":1'));
    bytes[at + '"attempt":'.length] = 0x37;
    await writeFile(chain, bytes);
    expect(await openChainForRun(chain, sampleIntent(1).runId as string)).toMatchObject({ kind: 'broken', reason: 'broken-link', lineNumber: 2 });
  });

  it('a repeated summary field that disagrees with the field it repeats is not a record', async () => {
    // Written by hand: appendRecord refuses to write it (below), but a chain edited by someone else may hold it.
    const record = { prev: 'genesis', seq: 0, format: 1, ...sampleIntent(1), qualification: 'qualified' };
    await mkdir(dirname(chain), { recursive: true });
    await writeFile(chain, `${JSON.stringify(record)}\n`);
    expect(await openChain(chain)).toMatchObject({ kind: 'broken', reason: 'not-a-record', lineNumber: 1 });
  });
});

describe('the writer cannot write what the reader refuses (issue 10 item 3, R8.4)', () => {
  it('a record the reader would refuse is not appended: the error names the field and the chain keeps its bytes', async () => {
    const position = await appendIntents(1);
    const before = await readFile(chain);
    // A branch name where the reader wants the commit it resolved to (R8.6).
    const unreadable = { ...sampleIntent(2), baseCommit: 'main' };
    const appending = appendRecord(chain, position, unreadable as UnlinkedRecord);
    await expect(appending).rejects.toThrow(UnreadableRecordError);
    await expect(appendRecord(chain, position, unreadable as UnlinkedRecord)).rejects.toThrow(
      `${chain}: a record the chain's reader would refuse was not appended`,
    );
    await expect(appendRecord(chain, position, unreadable as UnlinkedRecord)).rejects.toThrow('intent record: field "baseCommit": must be a git commit id');
    expect(await readFile(chain)).toEqual(before);
    expect(await openChain(chain)).toMatchObject({ kind: 'opened', nextSeq: 1 });
  });

  it('a record whose repeated summary disagrees with what it repeats is refused before it is written, so no chain is created', async () => {
    const record = { ...sampleIntent(1), qualification: 'qualified' };
    await expect(appendRecord(chain, { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' }, record as UnlinkedRecord)).rejects.toThrow(
      'a repeated summary field disagrees with the field it repeats',
    );
    await expect(readFile(chain)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('an append links only to the current tip (R8.4, R8.5)', () => {
  it('a position read before another writer appended is refused, and nothing is written', async () => {
    const position = await appendIntents(2);
    await appendRecord(chain, position, sampleIntent(3) as UnlinkedRecord);
    const before = await readFile(chain);
    await expect(appendRecord(chain, position, sampleIntent(4) as UnlinkedRecord)).rejects.toThrow(ChainMovedError);
    await expect(appendRecord(chain, position, sampleIntent(4) as UnlinkedRecord)).rejects.toThrow(`${chain}: the chain is ${before.length} bytes`);
    expect(await readFile(chain)).toEqual(before);
    expect(await openChain(chain)).toMatchObject({ kind: 'opened', nextSeq: 3 });
  });

  it('two writers with the same position: the second is refused rather than forking the chain', async () => {
    const opening = await openChain(chain);
    if (opening.kind !== 'opened') throw new Error('the empty chain did not open');
    await appendRecord(chain, opening, sampleIntent(1) as UnlinkedRecord);
    await expect(appendRecord(chain, opening, sampleIntent(2) as UnlinkedRecord)).rejects.toThrow(ChainMovedError);
    expect(await openChain(chain)).toMatchObject({ kind: 'opened', nextSeq: 1 });
  });

  it('a last record replaced by one of the same length is not the head the position links to: refused', async () => {
    const position = await appendIntents(2);
    const text = await readFile(chain, 'utf8');
    const edited = text.replace(/"attempt":2(?=,"adapter")/, '"attempt":9');
    expect(edited).not.toBe(text);
    expect(edited.length).toBe(text.length);
    await writeFile(chain, edited);
    await expect(appendRecord(chain, position, sampleIntent(3) as UnlinkedRecord)).rejects.toThrow(`the last record is not the head ${position.head}`);
    expect(await readFile(chain, 'utf8')).toBe(edited);
  });

  it('a torn tail that changed since it was read is not cut: refused', async () => {
    await appendIntents(1);
    await appendFile(chain, '{"prev":"0123');
    const opening = await openChain(chain);
    if (opening.kind !== 'opened') throw new Error('the chain did not open');
    const torn = await readFile(chain, 'utf8');
    await writeFile(chain, torn.replace(/0123$/, '4567'));
    await expect(appendRecord(chain, opening, sampleIntent(2) as UnlinkedRecord)).rejects.toThrow('the torn final line at byte');
  });
});

function pick(record: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => keys.includes(key)));
}

describe('no record is longer than the bound, and no reader reads past it (R8.4)', () => {
  it('a record over the bound is not appended: the error names its size and largest field, and the chain keeps its bytes', async () => {
    const position = await appendIntents(1);
    const before = await readFile(chain);
    const intent = sampleIntent(2);
    const posture = intent.posture as { qualification: { verdict: string; reason: string } };
    const huge = { ...intent, posture: { ...posture, qualification: { ...posture.qualification, reason: 'r'.repeat(MAX_RECORD_BYTES) } } };
    const appending = appendRecord(chain, position, huge as UnlinkedRecord);
    await expect(appending).rejects.toThrow(UnreadableRecordError);
    await expect(appendRecord(chain, position, huge as UnlinkedRecord)).rejects.toThrow(
      new RegExp(`the intent record is \\d+ bytes, over the chain's bound of ${MAX_RECORD_BYTES} bytes a record \\(largest fields: "posture"`),
    );
    expect(await readFile(chain)).toEqual(before);
  });

  it.each([
    ['a tail with no line end', `${'x'.repeat(MAX_RECORD_BYTES + 1)}`],
    ['a complete line followed by a record', `${'x'.repeat(MAX_RECORD_BYTES + 1)}\n{"prev":"x"}\n`],
  ])('%s longer than the bound is refused as overlong, naming its line; never a torn tail', async (_what, bytes) => {
    await appendIntents(2);
    const length = (await stat(chain)).size;
    await appendFile(chain, bytes);
    const opening = await openChain(chain);
    expect(opening).toMatchObject({ kind: 'broken', reason: 'overlong-line', lineNumber: 3 });
    if (opening.kind === 'broken') expect(opening.message).toContain(`line 3 (from byte ${length}) is longer than any record statecraft writes`);
    expect(await openChainSummaries(chain)).toMatchObject({ kind: 'broken', reason: 'overlong-line', lineNumber: 3 });
  });

  it('a tail of exactly the bound is still a torn tail (an append cut short can leave that much)', async () => {
    await appendIntents(1);
    const length = (await stat(chain)).size;
    await truncate(chain, length + MAX_RECORD_BYTES);
    expect(await openChain(chain)).toMatchObject({ kind: 'opened', nextSeq: 1, torn: { offset: length, bytes: MAX_RECORD_BYTES } });
  });
});
