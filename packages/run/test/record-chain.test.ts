import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRecord, openChain, openChainSummaries, type ChainPosition, type UnlinkedRecord } from '@statecraft/run';
import { sampleIntent } from './sample-records.js';

let directory: string;
let chain: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'statecraft-chain-'));
  chain = join(directory, 'targets', 'k', 'chain.jsonl');
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function appendIntents(count: number): Promise<ChainPosition> {
  let position: ChainPosition = { head: 'genesis', nextSeq: 0, torn: 'none' };
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
    expect(summaries.entries.map((entry) => [entry.record.runId, entry.record.attempt, entry.digest])).toEqual(
      whole.entries.map((entry) => [entry.record.runId, entry.record.attempt, entry.digest]),
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

  it('a repeated summary field that disagrees with the field it repeats is not a record', async () => {
    const record = { ...sampleIntent(1), qualification: 'qualified' };
    await appendRecord(chain, { head: 'genesis', nextSeq: 0, torn: 'none' }, record as UnlinkedRecord);
    expect(await openChain(chain)).toMatchObject({ kind: 'broken', reason: 'not-a-record', lineNumber: 1 });
  });
});
