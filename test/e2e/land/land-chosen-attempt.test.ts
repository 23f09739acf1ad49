import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operatorRepository } from '../../fixtures/operator-repository.js';
import { createPerAttemptAdapter } from '../../fixtures/per-attempt-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `run --attempts N --accept` then `land <run>`: the attempt the selection chose is the one landed.

interface Many {
  runId: string;
  attempts: { attempt: number; verdict: string; branch: string }[];
  selection: 'none' | { chosen: number; ranked: { attempt: number; key: { verdict: string } }[] };
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 180_000 });

describe('land <run> after run --attempts --accept', () => {
  it.each([1, 2])('the attempt that passes the check (attempt %i) is chosen over a quicker one that fails it, and land <run> lands it', async (passing) => {
    const repository = await operatorRepository(targets);
    const failing = passing === 1 ? 2 : 1;
    // The failing attempt ends first: a shorter duration ranks only after the verdict.
    const adapter = await createPerAttemptAdapter('pass-or-fail', {
      [failing]: { waitMs: 100, write: { path: 'answer.txt', text: 'wrong' } },
      [passing]: { waitMs: 900, write: { path: 'answer.txt', text: 'forty-two' } },
    });
    try {
      const ran = await runStatecraft(
        ['run', repository.path, '--adapter', adapter.executable, '--attempts', '2', '--accept', '--prompt', 'answer', '--json'],
        home(),
      );
      expect(ran.exitCode, ran.stderr).toBe(0);
      const many = parseJson<Many>(ran);
      expect(many.attempts.map((row) => [row.attempt, row.verdict])).toEqual(
        [
          [passing, 'accepted'],
          [failing, 'failed'],
        ].sort((a, b) => Number(a[0]) - Number(b[0])),
      );
      expect(many.selection !== 'none' && many.selection.chosen).toBe(passing);
      expect(many.selection !== 'none' && many.selection.ranked.map((entry) => [entry.attempt, entry.key.verdict])).toEqual([
        [passing, 'accepted'],
        [failing, 'failed'],
      ]);

      const landed = await runStatecraft(['land', repository.path, many.runId, '--json'], home());
      expect(landed.exitCode, landed.stdout + landed.stderr).toBe(0);
      expect(parseJson<{ runId: string; attempt: number }>(landed)).toMatchObject({ runId: many.runId, attempt: passing });
      expect(readFileSync(join(repository.path, 'answer.txt'), 'utf8')).toBe('forty-two\n');
      // The failing attempt is still refused by name, as any failed attempt is.
      const other = await runStatecraft(['land', repository.path, many.runId, '--attempt', String(failing), '--json'], home());
      expect(other.exitCode).toBe(2);
    } finally {
      await adapter.remove();
    }
  });

  it('the text answer marks the chosen attempt and says to land it, within 80 columns', async () => {
    const repository = await operatorRepository(targets);
    const adapter = await createPerAttemptAdapter('pass-or-fail-text', {
      1: { write: { path: 'answer.txt', text: 'wrong' } },
      2: { write: { path: 'answer.txt', text: 'forty-two' } },
    });
    try {
      const ran = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--attempts', '2', '--accept', '--prompt', 'answer'], home());
      expect(ran.exitCode, ran.stderr).toBe(0);
      const lines = ran.stdout.split('\n').filter((line) => line !== '');
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
      expect(lines.find((line) => line.startsWith('* '))).toMatch(/^\* 2 .* accepted /);
      expect(lines.find((line) => line.startsWith('  1 '))).toMatch(/ failed /);
      expect(ran.stdout).toContain(`next: statecraft land ${repository.path} `);
    } finally {
      await adapter.remove();
    }
  });
});
