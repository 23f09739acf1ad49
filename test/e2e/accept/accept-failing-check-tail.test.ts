import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { runMeasuringPeak } from '../../fixtures/peak-memory.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

/** 300 MiB on stdout, ending in a line of its own, then exit 1: a failing check that printed a lot. */
const LOUD_FAILURE = [
  "const block = 'x'.repeat(1024 * 1024);",
  'for (let index = 0; index < 300; index += 1) process.stdout.write(block);',
  "process.stdout.write('\\nthe last words of the check\\n');",
  'process.exitCode = 1;',
  '',
].join('\n');

describe("the tail of a failing check's output (R13, R11)", () => {
  it('is read as a tail: what `accept` shows of 300 MiB of output costs the tail, not the file', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['node loud.mjs'] }, { 'loud.mjs': LOUD_FAILURE });
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'], {
      home: targets.home.path,
    });
    expect(run.exitCode).toBe(0);
    const runId = parseJson<{ runId: string }>(run).runId;
    // The human answer: it is the one that shows the failing check's tail.
    const accepted = await runMeasuringPeak(['accept', repository.path, runId, '--verbose'], { home: targets.home.path, scratch, timeoutMs: 180_000 });
    expect(accepted.run.exitCode, accepted.run.stderr).toBe(1);
    expect(accepted.run.stdout).toContain('`node loud.mjs` exited 1');
    expect(accepted.run.stdout).toMatch(/stdout of the failing check \(.*check-1\.stdout\), its tail:/);
    expect(accepted.run.stdout).toContain('| the last words of the check');
    // Read whole, the output alone was 300 MiB of the answer's memory (720 MB at 600 MiB).
    expect(accepted.peakMB).toBeLessThan(200);
    // The summary of run show says the verdict with the check's last words too, read as a tail.
    const summary = await runMeasuringPeak(['run', 'show', repository.path, runId], { home: targets.home.path, scratch, timeoutMs: 180_000 });
    expect(summary.run.stdout).toMatch(/^ {2}acceptance {5}failed — `node loud\.mjs` exited 1$/m);
    expect(summary.run.stdout).toContain('\n    | the last words of the check\n');
    expect(summary.peakMB).toBeLessThan(200);
  });
});
