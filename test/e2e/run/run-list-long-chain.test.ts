import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKER_DIGEST_THRESHOLD } from '@statecraft/records';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface List {
  attempts: { runId: string; attempt: number; state: string; outcome: string }[];
}

const targets = useTestTargets({ sharedRepository: false });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A target whose chain is long enough to be hashed on a worker: one real attempt (fixture
 * `refuse`), its intent and outcome relinked as many times as it takes, each copy its own run.
 * Every link verifies exactly as in a chain `run` wrote.
 */
async function longChain(
  alter: (record: Record<string, unknown>, lineNumber: number) => Record<string, unknown> = (record) => record,
): Promise<{ target: string; chain: string; bytes: Buffer; attempts: number }> {
  const target = (await targets.fresh()).path;
  const first = await runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', 'scenario: refuse', '--json'], { home: targets.home.path });
  expect(first.exitCode).toBe(1);
  const chain = parseJson<{ records: { chain: string } }>(first).records.chain;
  const [intentLine, outcomeLine] = (await readFile(chain, 'utf8')).trimEnd().split('\n');
  const intent = JSON.parse(intentLine!) as Record<string, unknown>;
  const outcome = JSON.parse(outcomeLine!) as Record<string, unknown>;
  const lines: string[] = [];
  let prev = 'genesis';
  let length = 0;
  let attempts = 0;
  // A little past the threshold, so the reading spans several batches on the worker.
  while (length < WORKER_DIGEST_THRESHOLD + 2 * 1024 * 1024) {
    const runId = `20261130T000000Z-${attempts.toString(16).padStart(6, '0')}`;
    const intentText = JSON.stringify(alter({ ...intent, prev, seq: 2 * attempts, runId }, 2 * attempts + 1));
    const intentDigest = sha256(intentText);
    const outcomeText = JSON.stringify(alter({ ...outcome, prev: intentDigest, seq: 2 * attempts + 1, runId, intent: intentDigest }, 2 * attempts + 2));
    prev = sha256(outcomeText);
    lines.push(intentText, outcomeText);
    length += intentText.length + outcomeText.length + 2;
    attempts += 1;
  }
  const bytes = Buffer.from(`${lines.join('\n')}\n`);
  await writeFile(chain, bytes);
  // The checkpoint named the real attempt's tip, which is gone: without it, nothing is skipped.
  await rm(join(dirname(chain), 'chain.checkpoint.json'), { force: true });
  return { target, chain, bytes, attempts };
}

/**
 * The offset of a letter inside line `lineNumber`'s posture (in the first recorded environment
 * value): far from its leading fields and still a valid record when changed, so only the next
 * record's link can tell.
 */
function insidePosture(bytes: Buffer, lineNumber: number): number {
  let start = 0;
  for (let line = 1; line < lineNumber; line += 1) start = bytes.indexOf(0x0a, start) + 1;
  const at = bytes.indexOf('"recorded":"/', start) + '"recorded":"/'.length;
  expect(at).toBeLessThan(bytes.indexOf(0x0a, start));
  return at;
}

describe('a chain long enough to be hashed on a worker is verified link by link (issue 10 item 6, R8.4)', () => {
  it('run list over it lists every attempt; a byte flipped in a body anywhere is refused by run list and run show (exit 2) and doctor (exit 1), naming the record', async () => {
    const { target, chain, bytes, attempts } = await longChain();
    expect(bytes.length).toBeGreaterThan(WORKER_DIGEST_THRESHOLD);
    const list = await runStatecraft(['run', 'list', target, '--json'], { home: targets.home.path });
    expect(list.exitCode).toBe(0);
    const listed = parseJson<List>(list).attempts;
    expect(listed).toHaveLength(attempts);
    expect(listed.every((attempt) => attempt.state === 'concluded' && attempt.outcome === 'refused')).toBe(true);
    // Over a thousand summaries: printed in parts (json-in-parts.ts), byte for byte the one
    // document (execa takes off its final newline).
    expect(attempts).toBeGreaterThan(1000);
    expect(list.stdout).toBe(JSON.stringify(JSON.parse(list.stdout), null, 2));

    // The first intent, one in the middle (another batch), and the last: its link is the last line's.
    const records = 2 * attempts;
    for (const alteredLine of [1, 2 * Math.floor(attempts / 2) + 1, records - 1]) {
      const altered = Buffer.from(bytes);
      const at = insidePosture(altered, alteredLine);
      altered[at] = altered[at] === 0x78 ? 0x79 : 0x78;
      await writeFile(chain, altered);
      const refused = await runStatecraft(['run', 'list', target], { home: targets.home.path });
      expect({ alteredLine, exitCode: refused.exitCode }).toEqual({ alteredLine, exitCode: 2 });
      expect(refused.stderr).toContain(`broken link: record at line ${alteredLine} `);
      const show = await runStatecraft(['run', 'show', target, '20261130T000000Z-000000'], { home: targets.home.path });
      expect(show.exitCode).toBe(2);
      expect(show.stderr).toContain(`broken link: record at line ${alteredLine} `);
      // Nothing was repaired.
      expect((await readFile(chain)).equals(altered)).toBe(true);
    }
    const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
    expect(doctor.exitCode).toBe(1);
    expect(doctor.stdout).toContain(`record at line ${records - 1} `);
  });

  it('a record whose leading fields the schema refuses, relinked so every digest matches, is refused by run list wherever it lies, as when one thread read every line (R8.4)', async () => {
    // Lines 1 and 2 are read by the worker (it takes the first lines of each batch), the others
    // lie in later batches, read by either thread; each must be refused in the same words.
    const sample = await longChain();
    const records = 2 * sample.attempts;
    const cases: { line: number; change: Record<string, unknown>; says: string }[] = [
      { line: 1, change: { attempt: 0 }, says: 'is not a valid chain record (field "attempt"' },
      { line: 2, change: { cost: -1 }, says: 'is not a valid chain record (field "cost"' },
      { line: 2 * Math.floor(sample.attempts / 3) + 1, change: { qualification: 'trusted' }, says: 'is not a valid chain record (field "qualification"' },
      { line: 2 * Math.floor(sample.attempts / 2) + 2, change: { refusalCount: 1.5 }, says: 'is not a valid chain record (field "refusalCount"' },
      { line: records - 3, change: { seq: records + 7 }, says: `carries seq ${records + 7}, expected ${records - 4}` },
    ];
    for (const { line, change, says } of cases) {
      const { target } = await longChain((record, lineNumber) => (lineNumber === line ? { ...record, ...change } : record));
      const refused = await runStatecraft(['run', 'list', target, '--json'], { home: targets.home.path });
      expect({ line, exitCode: refused.exitCode }).toEqual({ line, exitCode: 2 });
      expect(refused.stderr).toContain(`record at line ${line} ${says}`);
    }
  });
});
