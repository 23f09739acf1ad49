import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUITE_CASES, SUITE_VERSION, fixtureDriver, type SuiteDriver, type SuiteReport } from '@statecraft/adapter';
import { comparableResult, findTaggedProcesses } from '@statecraft/run';
import { freshDirectory, misbehavingDriver, onlyCase, ran, runFixtureOnce, runRows, writeManifest } from './suite-helpers.js';

// The negative suite (R4), one test per row, run against the shipped fixture adapter through the
// real supervisor. Each row also runs against a driver that provokes the wrong behaviour, so every
// row is shown able to fail.

describe('the negative suite table', () => {
  it('has nine rows, numbered 1 to 9, under a version string (R4)', () => {
    expect(SUITE_CASES.map((entry) => entry.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(SUITE_VERSION).toMatch(/^negative-suite\/\d+$/);
  });

  it('passes in full against the fixture adapter, every case resting on evidence', async () => {
    const report = await runRows([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(report.cases.map((entry) => [entry.row, entry.status])).toEqual(SUITE_CASES.map((entry) => [entry.row, 'pass']));
    expect(report.passed).toBe(true);
    expect(report.adapter).toMatchObject({ name: 'fixture', version: '1.0.0' });
    expect(report.adapter.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(report.cases.find((entry) => entry.row === 7)?.evidence).toBe('replayed');
  });

  it('a partial run is never a pass, even when every selected row passes', async () => {
    const report = await runRows([5]);
    expect(onlyCase(report).status).toBe('pass');
    expect(report.passed).toBe(false);
  });
});

describe('row 1: a refusal is retained beside a completed result (R1.4, R8.1, R8.2)', () => {
  it('row 1: a refusal beside a completed result reads refused, counted from the stream, the claim kept', async () => {
    const verdict = onlyCase(await runRows([1]));
    expect(verdict).toMatchObject({ status: 'pass', evidence: 'fixture' });

    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: refuse' }));
    const refusalLines = readFileSync(attempt.files.stream, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"refusal"'));
    expect(attempt.result.outcome).toBe('refused');
    expect(attempt.result.refusalCount).toBe(refusalLines.length);
    expect(attempt.result.terminal).toBe('completed');
    expect(attempt.result.providerClaim).toMatchObject({ status: 'success', isError: false });
    expect(attempt.result.exit).toEqual({ code: 0, signal: null });
  });

  it('row 1: fails against an adapter whose refusal never reaches the stream', async () => {
    const verdict = onlyCase(await runRows([1], { driver: misbehavingDriver({ refuse: 'complete' }) }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('outcome is completed, expected refused');
  });
});

describe('row 2: a required capability the manifest lacks is refused before spawn (R2.3)', () => {
  it('row 2: a missing required token is refused naming the token and version, and no process is created', async () => {
    expect(onlyCase(await runRows([2]))).toMatchObject({ status: 'pass' });

    const spawnLog = join(freshDirectory(), 'spawned');
    const answer = await runFixtureOnce({
      prompt: 'scenario: complete',
      required: ['workspace-write'],
      environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', STATECRAFT_FIXTURE_SPAWN_LOG: spawnLog },
    });
    expect(answer.kind).toBe('refused');
    if (answer.kind !== 'refused' || answer.stage !== 'negotiation') throw new Error('expected a negotiation refusal');
    expect(answer.message).toContain('workspace-write');
    expect(answer.message).toContain('1.0.0');
    expect(existsSync(spawnLog)).toBe(false);
    expect(existsSync(answer.files.request)).toBe(false);
    expect(findTaggedProcesses(answer.attemptTag)).toEqual([]);
  });

  it('row 2: the spawn witness does see a process when the token is declared, so its silence means something', async () => {
    const spawnLog = join(freshDirectory(), 'spawned');
    const answer = await runFixtureOnce({
      prompt: 'scenario: complete',
      required: ['cost-report'],
      environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', STATECRAFT_FIXTURE_SPAWN_LOG: spawnLog },
    });
    expect(ran(answer).result.outcome).toBe('completed');
    expect(readFileSync(spawnLog, 'utf8')).toMatch(/^\d+\n$/);
  });

  it('row 2: an adapter declaring all six tokens is still checked, against a copy of its manifest without one', async () => {
    const manifest = writeManifest({
      capabilities: ['tool-allowlist', 'turn-limit', 'workspace-write', 'hook-enforcement', 'cost-report', 'structured-refusals'],
    });
    expect(onlyCase(await runRows([2], { manifest }))).toMatchObject({ status: 'pass' });
  });
});

describe('row 3: a hung child is killed at the deadline with its descendants (R7.2, R7.3)', () => {
  it('row 3: a hung child and its setsid descendant are gone after the deadline; the attempt is interrupted', async () => {
    const verdict = onlyCase(await runRows([3]));
    expect(verdict.status).toBe('pass');
    expect(verdict.detail).toMatch(/setsid descendant \d+ reported/);
    expect(verdict.detail).toMatch(/[2-9] tagged process\(es\) seen while it hung/);
  });

  it('row 3: holds under the process-group fallback too (boundary none), where the setsid descendant has left the group', async () => {
    // The fallback runs only without the boundary, whose PID namespace is otherwise the containment.
    const report = await runRows([3], { containment: 'process-group', boundary: { kind: 'none' } });
    expect(report.boundary).toBe('none');
    const verdict = onlyCase(report);
    expect(verdict.status).toBe('pass');
    expect(verdict.detail).toContain('under process-group');
  });

  it('row 3: holds inside the evidence boundary, the default, and the report says which boundary the suite ran under (R12)', async () => {
    const report = await runRows([3]);
    expect(report.boundary).toBe('bwrap');
    const verdict = onlyCase(report);
    expect(verdict.status).toBe('pass');
    expect(verdict.detail).toContain('under bwrap');
  });

  it('a suite whose boundary cannot be made (no bwrap on PATH) fails its rows, naming the refusal; nothing runs outside it (R12)', async () => {
    const bin = freshDirectory('statecraft-suite-no-bwrap');
    symlinkSync(process.execPath, join(bin, 'node'));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    let report: SuiteReport;
    try {
      report = await runRows([1]);
    } finally {
      process.env.PATH = saved;
    }
    const verdict = onlyCase(report);
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('refused at boundary');
    expect(verdict.detail).toContain('no bwrap on the constructed PATH');
    expect(report.passed).toBe(false);
  });

  it('row 3: fails against an adapter that never hangs, since the deadline never fires', async () => {
    const verdict = onlyCase(await runRows([3], { driver: misbehavingDriver({ hang: 'complete' }) }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('timedOut is false');
  });
});

describe('row 4: a malformed event stream is reported as malformed (R7.5)', () => {
  it('row 4: malformed, read-failure and no-result streams are each interrupted, never completed', async () => {
    const verdict = onlyCase(await runRows([4]));
    expect(verdict.status).toBe('pass');
    expect(verdict.detail).toContain('malformed → malformed, interrupted');
    expect(verdict.detail).toContain('read-failure → read-failure, interrupted');
    expect(verdict.detail).toContain('no-result → no-result, interrupted');
  });

  it('row 4: fails against an adapter whose stream was clean after all', async () => {
    const verdict = onlyCase(await runRows([4], { driver: misbehavingDriver({ 'read-failure': 'complete' }) }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('read-failure: the diagnostic is none, expected read-failure');
  });
});

describe('row 5: an absent cost is reported as unknown (R8.3)', () => {
  it('row 5: a result without a cost records cost unknown, never zero', async () => {
    expect(onlyCase(await runRows([5]))).toMatchObject({ status: 'pass' });
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: no-cost' }));
    expect(attempt.result.cost).toBe('unknown');
    expect(attempt.result.outcome).toBe('completed');
  });

  it('row 5: fails when the result did carry a cost', async () => {
    const verdict = onlyCase(await runRows([5], { driver: misbehavingDriver({ 'no-cost': 'complete' }) }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('expected unknown');
  });
});

describe('row 6: a manifest declaring a token the adapter does not honor fails qualification (R2.4)', () => {
  it('row 6: the fixture applies every token its manifest declares', async () => {
    expect(onlyCase(await runRows([6]))).toMatchObject({ status: 'pass' });
  });

  it('row 6: an init that applies less than the manifest declares fails, naming the token, and is recorded as observed', async () => {
    const verdict = onlyCase(await runRows([6], { driver: misbehavingDriver({ complete: 'under-apply' }) }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('declares cost-report but the init event did not apply it');
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: under-apply' }));
    expect(attempt.result.capabilities.notApplied).toEqual(['cost-report']);
    expect(attempt.result.capabilities.applied).not.toContain('cost-report');
  });

  it('row 6: a manifest claiming workspace-write, which the fixture does not honor, fails', async () => {
    const manifest = writeManifest({
      capabilities: ['tool-allowlist', 'turn-limit', 'workspace-write', 'hook-enforcement', 'cost-report', 'structured-refusals'],
    });
    const verdict = onlyCase(await runRows([6], { manifest }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('workspace-write');
  });

  it("row 6: a driver's measurement that finds a declared token not honored fails the row", async () => {
    const driver = {
      ...fixtureDriver,
      measureDeclaredTokens: () =>
        Promise.resolve(
          ['tool-allowlist', 'turn-limit', 'hook-enforcement', 'cost-report', 'structured-refusals'].map((token) => ({
            token: token as 'turn-limit',
            honored: token !== 'turn-limit',
            detail: token === 'turn-limit' ? 'the cap of 1 turn let 3 turns run' : 'held',
            evidence: 'fixture' as const,
          })),
        ),
    };
    const verdict = onlyCase(await runRows([6], { driver }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('turn-limit is declared but not honored: the cap of 1 turn let 3 turns run');
  });
});

describe('row 7: records are identical whichever implementation produced them (R1.2)', () => {
  it('row 7: the live record and the record of its own stream replayed through a real child are equal', async () => {
    const verdict = onlyCase(await runRows([7]));
    expect(verdict).toMatchObject({ status: 'pass', evidence: 'replayed' });
  });

  it('row 7: the comparison ignores only identity, timing and stderr, so records of different behaviour differ', async () => {
    const first = ran(await runFixtureOnce({ prompt: 'scenario: refuse' })).result;
    const other = ran(await runFixtureOnce({ prompt: 'scenario: no-cost' })).result;
    expect(comparableResult(other)).not.toEqual(comparableResult(first));
    expect(comparableResult({ ...first, cost: 'unknown' })).not.toEqual(comparableResult(first));
    expect(comparableResult({ ...first, durationMs: 1, startedAt: new Date(0).toISOString() })).toEqual(comparableResult(first));
  });
});

describe('row 8: the posture declares every command the run will need (R9)', () => {
  it('row 8: a check suite invoking a program the allowance omits is refused at plan time, naming it', async () => {
    const verdict = onlyCase(await runRows([8]));
    expect(verdict.status).toBe('pass');
    expect(verdict.detail).toContain('refused at plan time naming statecraft-suite-unlisted-program');
  });
});

describe('row 9: an attempt that attacks the records is denied every move (R12, R5.3)', () => {
  it('row 9: inside the evidence boundary the fixture reads, appends, forges and signals in vain; the chain is unchanged', async () => {
    const report = await runRows([9]);
    const verdict = onlyCase(report);
    expect(report.boundary).toBe('bwrap');
    expect(verdict).toMatchObject({ status: 'pass', evidence: 'fixture' });
    expect(verdict.detail).toContain("the chain's bytes are unchanged");
  });

  it('row 9: with the boundary off every move succeeds and the row fails, naming each (so the row can fail)', async () => {
    const verdict = onlyCase(await runRows([9], { boundary: { kind: 'none' }, containment: 'process-group' }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('the chain changed');
    expect(verdict.detail).toContain("the chain's content was read and carried into the workspace");
    expect(verdict.detail).toContain('a qualification record was written');
    expect(verdict.detail).toContain("the operator's checkout was written");
    expect(verdict.detail).toContain('the supervisor received 1 SIGCONT');
  });

  it('row 9: fails when the hostile scenario never ran, so a silent adapter cannot pass it', async () => {
    const silent = { ...fixtureDriver, name: 'fixture-silent', attack: () => ({ prompt: 'scenario: complete\n', evidence: 'fixture' as const }) };
    const verdict = onlyCase(await runRows([9], { driver: silent }));
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toContain('the hostile scenario left no statecraft-attack-ran.txt in the workspace');
  });

  it("row 9: a driver that cannot provoke the attack gets the shipped fixture's attack in the same sandbox", async () => {
    // No `attack` method: a driver written before row 9, or one whose provider cannot be scripted to attack.
    const driver: SuiteDriver = { name: 'no-attack', provocation: (scenario) => fixtureDriver.provocation(scenario) };
    const verdict = onlyCase(await runRows([9], { driver }));
    expect(verdict).toMatchObject({ status: 'pass', evidence: 'fixture' });
    expect(verdict.detail).toContain("the shipped fixture's hostile scenario ran in the same sandbox");
  });
});
