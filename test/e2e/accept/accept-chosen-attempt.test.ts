import { describe, expect, it } from 'vitest';
import { operatorRepository } from '../../fixtures/operator-repository.js';
import { createPerAttemptAdapter } from '../../fixtures/per-attempt-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `accept <run>` of a run of several attempts judges, by default, the attempt its selection chose:
// the one `run show` shows and `land <run>` takes, not whichever attempt was started last.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 180_000 });

describe('accept <run> after run --attempts, without --accept', () => {
  it('judges the chosen attempt, not the latest; --attempt still names any other', async () => {
    const repository = await operatorRepository(targets);
    // One at a time, so attempt 2 is the latest; attempt 1 changes less, so it is chosen.
    const adapter = await createPerAttemptAdapter('smaller-first', {
      1: { write: { path: 'answer.txt', text: 'forty-two' } },
      2: { write: { path: 'answer.txt', text: 'forty-two' }, also: { path: 'extra.txt', text: 'more' } },
    });
    try {
      const ran = await runStatecraft(
        ['run', repository.path, '--adapter', adapter.executable, '--attempts', '2', '--parallel', '1', '--prompt', 'answer', '--json'],
        home(),
      );
      expect(ran.exitCode, ran.stderr).toBe(0);
      const many = parseJson<{ runId: string; selection: { chosen: number } | 'none' }>(ran);
      expect(many.selection !== 'none' && many.selection.chosen).toBe(1);

      const judged = await runStatecraft(['accept', repository.path, many.runId, '--json'], home());
      expect(judged.exitCode, judged.stderr).toBe(0);
      expect(parseJson<{ attempt: number; verdict: string }>(judged)).toMatchObject({ attempt: 1, verdict: 'accepted' });
      const other = await runStatecraft(['accept', repository.path, many.runId, '--attempt', '2', '--json'], home());
      expect(parseJson<{ attempt: number }>(other).attempt).toBe(2);

      const landed = await runStatecraft(['land', repository.path, many.runId, '--json'], home());
      expect(landed.exitCode, landed.stderr).toBe(0);
      expect(parseJson<{ attempt: number }>(landed).attempt).toBe(1);
    } finally {
      await adapter.remove();
    }
  });
});
