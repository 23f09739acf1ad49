import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkQualification } from '@statecraft/records';
import { digestFile, fixtureAdapterPath, sidecarManifestPath, type ProtocolEvent } from '@statecraft/adapter';
import { findTaggedProcesses, reportedDescendant } from '@statecraft/run';
import { freshDirectory, ran, runFixtureOnce, writeManifest } from './suite-helpers.js';

// The seam rows of the negative cases (R2.3, R3.2, R7), run through `runAdapterOnce` — the same
// path the suite and the run package take — against the fixture adapter, a real executable.

const PATH = process.env.PATH ?? '/usr/bin:/bin';

describe('preferred capabilities (R2.3)', () => {
  it('a preferred token the manifest lacks runs the attempt and records the degradation', async () => {
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: complete', preferred: ['workspace-write', 'cost-report'] }));
    expect(attempt.result.outcome).toBe('completed');
    expect(attempt.result.capabilities.degraded).toEqual(['workspace-write']);
    expect(attempt.result.capabilities.preferred).toEqual(['workspace-write', 'cost-report']);
    expect(attempt.result.unverifiableRefusalAccount).toBe(false);
  });

  it('structured-refusals preferred and absent labels the attempt as carrying an unverifiable refusal account', async () => {
    const manifestPath = writeManifest({ capabilities: ['tool-allowlist', 'turn-limit', 'hook-enforcement', 'cost-report'] });
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: complete', manifestPath, preferred: ['structured-refusals'] }));
    expect(attempt.result.capabilities.degraded).toEqual(['structured-refusals']);
    expect(attempt.result.unverifiableRefusalAccount).toBe(true);
  });
});

describe('an unqualified adapter (R3.2)', () => {
  it('runs, and is labelled unqualified rather than refused', async () => {
    const home = freshDirectory('statecraft-home');
    const digest = await digestFile(fixtureAdapterPath());
    const manifest = { path: sidecarManifestPath(fixtureAdapterPath()), digest: `sha256:${'0'.repeat(64)}` };
    const verdict = await checkQualification({ home, manifest, adapter: { name: 'fixture', version: '1.0.0', digest } });
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain('no qualification record for an adapter named fixture');
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: complete' }));
    expect(attempt.result.outcome).toBe('completed');
  });
});

describe('the workspace (R7.1)', () => {
  it('a workspace that does not exist is refused before spawn, naming the path', async () => {
    const workspace = join(freshDirectory(), 'not-here');
    const spawnLog = join(freshDirectory(), 'spawned');
    const answer = await runFixtureOnce({ prompt: 'scenario: complete', workspace, environment: { PATH, STATECRAFT_FIXTURE_SPAWN_LOG: spawnLog } });
    if (answer.kind !== 'refused' || answer.stage !== 'supervision') throw new Error(`expected a refusal before spawn, got ${answer.kind}`);
    expect(answer.answer.reason).toBe('workspace-missing');
    expect(answer.message).toContain(workspace);
    expect(existsSync(spawnLog)).toBe(false);
  });

  it('a workspace that is a file is refused before spawn, naming the path', async () => {
    const workspace = join(freshDirectory(), 'a-file');
    writeFileSync(workspace, 'not a directory');
    const answer = await runFixtureOnce({ prompt: 'scenario: complete', workspace });
    if (answer.kind !== 'refused' || answer.stage !== 'supervision') throw new Error(`expected a refusal before spawn, got ${answer.kind}`);
    expect(answer.answer.reason).toBe('workspace-not-directory');
    expect(answer.message).toContain(workspace);
  });

  it('the child runs in the workspace: a relative write lands there and the reported cwd is the workspace', async () => {
    const workspace = freshDirectory('statecraft-workspace');
    const events: ProtocolEvent[] = [];
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: report-cwd', workspace, onEvent: (event) => events.push(event) }));
    expect(attempt.result.outcome).toBe('completed');
    const reported = events
      .flatMap((event) => (event.type === 'progress' ? [event.detail as { cwd?: string }] : []))
      .find((detail) => detail.cwd !== undefined);
    expect(reported?.cwd).toBe(workspace);
    expect(readFileSync(join(workspace, 'statecraft-fixture-marker.txt'), 'utf8')).toBe('test-run\n');
  });
});

describe('the stream and the deadline (R7.4)', () => {
  it('a descendant left holding stdout does not release the supervisor early, and is killed at the deadline (process group)', async () => {
    const events: ProtocolEvent[] = [];
    const attempt = ran(
      await runFixtureOnce({ prompt: 'scenario: linger', deadlineMs: 1_500, containment: 'process-group', onEvent: (event) => events.push(event) }),
    );
    expect(attempt.result.timedOut).toBe(true);
    expect(attempt.result.durationMs).toBeGreaterThanOrEqual(1_450);
    // The result the child emitted before leaving is kept: the trusted prefix survives the kill.
    expect(attempt.result.terminal).toBe('completed');
    expect(events.some((event) => event.type === 'progress' && (event.detail as { holderPid?: number }).holderPid !== undefined)).toBe(true);
    expect(findTaggedProcesses(attempt.attemptTag)).toEqual([]);
  });

  it('a lingering descendant leaves no survivor whichever containment the platform offers', async () => {
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: linger', deadlineMs: 1_500 }));
    expect(attempt.result.terminal).toBe('completed');
    expect(attempt.result.survivors).toEqual([]);
    expect(findTaggedProcesses(attempt.attemptTag)).toEqual([]);
  });

  it('a child that never reads its prompt cannot delay enforcement, however large the prompt', async () => {
    const prompt = `scenario: complete\n${'x'.repeat(8 * 1024 * 1024)}`;
    const started = Date.now();
    const attempt = ran(await runFixtureOnce({ prompt, deadlineMs: 1_500, environment: { PATH, STATECRAFT_FIXTURE_SCENARIO: 'never-read' } }));
    expect(attempt.result.timedOut).toBe(true);
    expect(attempt.result.outcome).toBe('interrupted');
    expect(Date.now() - started).toBeLessThan(1_500 + 10_000);
    expect(findTaggedProcesses(attempt.attemptTag)).toEqual([]);
  });

  it('the hang scenario reports the pid of a descendant that called setsid', async () => {
    const events: ProtocolEvent[] = [];
    ran(await runFixtureOnce({ prompt: 'scenario: hang', deadlineMs: 1_500, onEvent: (event) => events.push(event) }));
    expect(events.map(reportedDescendant).find((pid) => pid !== undefined)).toBeGreaterThan(0);
  });
});

describe('terminal states the adapter reports are read by the supervisor, never as completion (R10.4)', () => {
  it.each([
    ['turn-limit', 'turn-limit'],
    ['provider-error', 'provider-error'],
    ['unmapped', 'unmapped-terminal'],
  ])('scenario %s reads interrupted with cause %s, whatever the exit status', async (scenario, cause) => {
    const attempt = ran(await runFixtureOnce({ prompt: `scenario: ${scenario}` }));
    expect(attempt.result.outcome).toBe('interrupted');
    expect(attempt.result.cause).toBe(cause);
  });

  it('an unknown scenario is a clear adapter error, interrupted, not a crash', async () => {
    const attempt = ran(await runFixtureOnce({ prompt: 'scenario: no-such-thing' }));
    expect(attempt.result).toMatchObject({ outcome: 'interrupted', cause: 'adapter-error', terminal: 'adapter-error' });
    expect(attempt.result.streamDiagnostic).toBe('none');
  });
});
