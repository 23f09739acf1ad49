import { describe, expect, it } from 'vitest';
import { acceptUnderWay, repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });

// A check that prints its pid (the sign that judging is under way) and lives 5 s, long enough for
// the refusals below, then ends 0.
const SLOW_CHECK = 'process.stdout.write(`${process.pid}\\n`);\nsetTimeout(() => process.exit(0), 5000);\n';

interface Refusal {
  refused: { reason: string; message: string };
}

describe('while statecraft accept judges an attempt, the target is held (R8.5, R13)', () => {
  it('a run and a second accept are refused naming the acceptance that holds it, not "a live attempt", and the judging ends accepted', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['node slow.mjs'] }, { 'slow.mjs': SLOW_CHECK });
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--json'], {
      home: targets.home.path,
    });
    expect(run.exitCode).toBe(0);
    const account = parseJson<{ runId: string; records: { chain: string } }>(run);
    const { judging, firstLine } = await acceptUnderWay(repository, targets.home.path, account);
    expect(firstLine).toMatch(/^\d+$/);

    const holder = `the acceptance of run ${account.runId} attempt 1 holds this target`;
    const second = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
    });
    expect(second.exitCode).toBe(2);
    expect(parseJson<Refusal>(second).refused).toMatchObject({ reason: 'live-attempt' });
    expect(parseJson<Refusal>(second).refused.message).toContain(holder);

    const again = await runStatecraft(['accept', repository.path, account.runId, '--json'], { home: targets.home.path });
    expect(again.exitCode).toBe(2);
    const message = parseJson<Refusal>(again).refused.message;
    expect(message).toContain(holder);
    expect(message.split('nothing appended')).toHaveLength(2);

    const judged = await finishedRun(judging);
    expect(judged.exitCode, judged.stderr).toBe(0);
    expect(parseJson<{ verdict: string }>(judged).verdict).toBe('accepted');
  });
});
