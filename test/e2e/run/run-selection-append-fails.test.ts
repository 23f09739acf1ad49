import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readChainRecords } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

/**
 * `run --attempts N` appends its selection once every attempt has ended. A disk that refuses that
 * last append is an i/o failure (exit 4) naming the chain: the attempts' records stand, linked and
 * whole, the partial selection is withdrawn, nothing is chosen, and the next run appends after them
 * (R8.4, R11). The disk is a real per-file size limit (util-linux `prlimit --fsize`), set so the
 * attempts' four records fit and the selection does not.
 */

interface Many {
  runId: string;
  chain: string;
  attempts: { attempt: number; outcome: string; problem?: { kind: string } }[];
  selection: 'none' | { failed: { path: string; message: string } } | { line: number; chosen: number };
}

const targets = useTestTargets({ sharedRepository: false });
const home = (fileSizeLimit?: number) => ({ home: targets.home.path, timeoutMs: 120_000, fileSizeLimit });
const runTwo = (target: string, fileSizeLimit?: number) =>
  runStatecraft(['run', target, '--adapter', 'fixture', '--attempts', '2', '--prompt', 'scenario: complete', '--json'], home(fileSizeLimit));

/** The chain's records, each checked to link to the line before it, the file ending with a whole line. */
async function linkedLines(chain: string): Promise<{ kind: string; runId?: string }[]> {
  expect(readFileSync(chain, 'utf8').endsWith('\n')).toBe(true);
  const records = await readChainRecords(chain);
  records.forEach(({ record }, seq) => expect({ seq: record.seq, prev: record.prev }).toEqual({ seq, prev: records[seq - 1]?.digest ?? 'genesis' }));
  return records.map(({ record }) => record as { kind: string; runId?: string });
}

describe('a selection the disk refuses (R8.4)', () => {
  it('exits 4 naming the chain; the attempts stand, linked and whole, none is chosen, and the next run appends after them', async () => {
    const target = await targets.fresh();
    // Unlimited runs, until the chain is past the outcome reserve every attempt writes (64 KiB),
    // which the limit must let through; the last measures what a run of two fixture attempts appends.
    const measureOnce = async () => {
      const measured = await runTwo(target.path);
      expect(measured.exitCode, measured.stderr).toBe(0);
      const { chain } = parseJson<Many>(measured);
      return { chain, lines: readFileSync(chain, 'utf8').split('\n').slice(0, -1) };
    };
    let { chain, lines } = await measureOnce();
    while (readFileSync(chain).length < 96 * 1024) ({ chain, lines } = await measureOnce());
    const bytes = (line: string) => Buffer.byteLength(line) + 1;
    const last = lines.slice(-5);
    const selection = last.find((line) => line.includes('"kind":"selection"')) ?? '';
    expect(selection).not.toBe('');
    const attemptsBytes = last.filter((line) => line !== selection).reduce((sum, line) => sum + bytes(line), 0);
    const before = readFileSync(chain).length;
    const earlier = lines.length;

    // Room for the second run's four records (a duration's digits may differ) and half a selection.
    const cut = await runTwo(target.path, before + attemptsBytes + Math.floor(bytes(selection) / 2));
    expect(cut.exitCode, cut.stderr).toBe(4);
    const many = parseJson<Many>(cut);
    expect(many.attempts.map((row) => [row.attempt, row.outcome, row.problem])).toEqual([
      [1, 'completed', undefined],
      [2, 'completed', undefined],
    ]);
    if (many.selection === 'none' || !('failed' in many.selection)) throw new Error(`the selection was not refused: ${JSON.stringify(many.selection)}`);
    expect(many.selection.failed.path).toBe(chain);
    expect(many.selection.failed.message).toContain("cannot append the run's selection");
    expect(many.selection.failed.message).toContain('none was chosen: name one with --attempt');

    // The attempts' records stand and link; the partial selection is gone, not left as a torn tail.
    const records = await linkedLines(chain);
    expect(records.slice(earlier - 1, earlier).map((record) => record.kind)).toEqual(['selection']);
    const appended = records.slice(earlier);
    expect(appended.map((record) => record.kind).sort()).toEqual(['intent', 'intent', 'outcome', 'outcome']);
    expect(appended.every((record) => record.runId === many.runId)).toBe(true);
    const listed = await runStatecraft(['run', 'list', target.path, '--json'], home());
    expect(listed.exitCode, listed.stderr).toBe(0);
    const list = parseJson<{ tornTail: string; attempts: { runId: string }[] }>(listed);
    expect(list.tornTail).toBe('none');
    expect(list.attempts.filter((attempt) => attempt.runId === many.runId)).toHaveLength(2);
    const shown = await runStatecraft(['run', 'show', target.path, many.runId, '--attempt', '2', '--json'], home());
    expect(shown.exitCode, shown.stderr).toBe(0);

    // The next run appends after them, its selection included.
    const next = await runTwo(target.path);
    expect(next.exitCode, next.stderr).toBe(0);
    expect((await linkedLines(chain)).map((record) => record.kind)).toHaveLength(earlier + 4 + 5);
  });
});
