import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `run list` tells its rows apart: each attempt's outcome, how long it took and its verdict lead
// its row, read from the very records the list already reads (no kept file is opened per row).

const targets = useTestTargets();

interface Listed {
  attempts: { runId: string; outcome: string; acceptance: string; startedAt: string; concludedAt: string }[];
}

describe('statecraft run list: outcome, time taken and verdict on each row', () => {
  it('two attempts of different outcomes read apart; each row fits 80 columns; the JSON holds when each was concluded', async () => {
    const repository = targets.repository.path;
    const options = { home: targets.home.path, timeoutMs: 120_000 };
    expect((await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: refuse'], options)).exitCode).toBe(1);
    expect((await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete'], options)).exitCode).toBe(0);
    const listed = parseJson<Listed>(await runStatecraft(['run', 'list', repository, '--json'], options));
    expect(listed.attempts.map((attempt) => [attempt.outcome, attempt.acceptance])).toEqual([
      ['refused', 'not-attempted'],
      ['completed', 'not-recorded'],
    ]);
    for (const attempt of listed.attempts) expect(Date.parse(attempt.concludedAt)).toBeGreaterThanOrEqual(Date.parse(attempt.startedAt));
    const text = await runStatecraft(['run', 'list', repository], options);
    expect(text.exitCode).toBe(0);
    const [first, second] = listed.attempts;
    expect(text.stdout).toMatch(new RegExp(`^ {2}${first?.runId ?? ''} {2}#1 {2}refused +\\d+(\\.\\d)?m?s {2}verdict not-attempted$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^ {2}${second?.runId ?? ''} {2}#1 {2}completed +\\d+(\\.\\d)?m?s {2}verdict not-recorded$`, 'm'));
    expect(text.stdout).toMatch(/^ {4}refusals 1 {2}cost \$[\d.]+ {2}fixture 1\.0\.0 \(unqualified\) {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    for (const line of text.stdout.split('\n').slice(1)) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
