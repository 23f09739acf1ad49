import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_TAG_VARIABLE, findAttemptProcesses } from '@statecraft/adapter';
import { superviseAdapter } from '@statecraft/run';
import type { ProtocolEvent } from '@statecraft/adapter';
import { baseEnvironment, fixture, freshDirectory, freshTag, isAlive, supervise } from './supervise-helpers.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('superviseAdapter', () => {
  it('refuses a workspace that does not exist before spawning anything, naming the path (R7.1)', async () => {
    const scratch = freshDirectory();
    const workspace = join(scratch, 'no-such-workspace');
    const marker = join(scratch, 'ran');
    const answer = await superviseAdapter({
      executable: fixture('report-env.mjs'),
      args: [],
      workspace,
      environment: { ...baseEnvironment, MARKER_FILE: marker },
      prompt: 'p',
      deadlineMs: 30_000,
      attemptTag: freshTag(),
      streamFile: join(scratch, 'stream.ndjson'),
    });
    expect(answer).toMatchObject({ kind: 'refused', reason: 'workspace-missing', path: workspace });
    expect(answer.kind === 'refused' && answer.message).toContain(workspace);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(scratch, 'stream.ndjson'))).toBe(false);
  });

  it('refuses a workspace that is a file, not a directory, before spawning anything (R7.1)', async () => {
    const scratch = freshDirectory();
    const workspace = join(scratch, 'a-file');
    writeFileSync(workspace, 'not a directory');
    const marker = join(scratch, 'ran');
    const answer = await superviseAdapter({
      executable: fixture('report-env.mjs'),
      args: [],
      workspace,
      environment: { ...baseEnvironment, MARKER_FILE: marker },
      prompt: 'p',
      deadlineMs: 30_000,
      attemptTag: freshTag(),
    });
    expect(answer).toMatchObject({ kind: 'refused', reason: 'workspace-not-directory', path: workspace });
    expect(existsSync(marker)).toBe(false);
  });

  it('gives the child exactly the constructed environment plus the attempt tag, the workspace as cwd, and the prompt on stdin, not argv (R1.3, R5.1, R7.1)', async () => {
    const workspace = freshDirectory();
    const tag = freshTag();
    const events: ProtocolEvent[] = [];
    const prompt = 'scenario: report\nwith a second line';
    const attempt = await supervise({
      executable: fixture('report-env.mjs'),
      args: ['run', '--request', 'request.json'],
      workspace,
      environment: { ...baseEnvironment, STATECRAFT_RUN_ID: 'run-1' },
      prompt,
      attemptTag: tag,
      onEvent: (event) => events.push(event),
    });
    expect(attempt.streamDiagnostic).toBe('none');
    const report = events.find((event) => event.type === 'progress' && event.kind === 'report');
    expect(report?.type === 'progress' && report.detail).toEqual({
      env: { ...baseEnvironment, STATECRAFT_RUN_ID: 'run-1', [ATTEMPT_TAG_VARIABLE]: tag },
      cwd: workspace,
      argv: ['run', '--request', 'request.json'],
      prompt,
    });
  });

  it('keeps the raw stdout and stderr bytes in files with their byte counts and sha256 (R8.4)', async () => {
    const scratch = freshDirectory();
    const streamFile = join(scratch, 'stream.ndjson');
    const stderrFile = join(scratch, 'stderr.log');
    const attempt = await supervise({ executable: fixture('report-env.mjs'), streamFile, stderrFile });
    const stream = readFileSync(streamFile);
    const stderr = readFileSync(stderrFile);
    expect(stream.toString()).toContain('"type":"result"');
    expect(attempt.stdout).toEqual({ bytes: stream.length, sha256: sha256(stream) });
    expect(stderr.toString()).toBe('diagnostics go to stderr\n');
    expect(attempt.stderr).toEqual({ bytes: stderr.length, sha256: sha256(stderr) });
  });

  it('records a non-zero exit as observed and still reads the stream on its own terms (R7.6)', async () => {
    const attempt = await supervise({ executable: fixture('speak.mjs'), args: ['2', '3'] });
    expect(attempt.exit).toEqual({ code: 3, signal: null });
    expect(attempt.streamDiagnostic).toBe('none');
    expect(attempt.terminal).toMatchObject({ type: 'result', terminal: 'completed' });
    expect(attempt.events).toMatchObject({ count: 4, progress: 2 });
    expect(attempt.timedOut).toBe(false);
  });

  it('calls onEvent for the trusted prefix in order and applies the line bound it is given (R7.5)', async () => {
    const seen: number[] = [];
    const attempt = await supervise({ executable: fixture('speak.mjs'), args: ['3'], onEvent: (event) => seen.push(event.seq) });
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    const bounded = await supervise({ executable: fixture('speak.mjs'), args: ['3'], maxLineBytes: 100 });
    expect(bounded.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 1 });
    expect(attempt.streamDiagnostic).toBe('none');
  });

  it('is not held up by a child that never reads a prompt larger than the pipe buffer (R7.4)', async () => {
    const attempt = await supervise({ executable: fixture('ignore-stdin.mjs'), args: ['finish'], prompt: 'p'.repeat(4 * 1024 * 1024) });
    expect(attempt.timedOut).toBe(false);
    expect(attempt.terminal).toMatchObject({ type: 'result' });
    expect(attempt.durationMs).toBeLessThan(10_000);
  });

  it('enforces the deadline on a hung child that never reads its prompt, and never before the deadline (R7.2, R7.4)', async () => {
    const deadlineMs = 1500;
    const attempt = await supervise({ executable: fixture('ignore-stdin.mjs'), args: ['hang'], prompt: 'p'.repeat(4 * 1024 * 1024), deadlineMs });
    expect(attempt.timedOut).toBe(true);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(deadlineMs);
    expect(attempt.durationMs).toBeLessThan(deadlineMs + 5_000);
    // What was read before the deadline is kept.
    expect(attempt.init).toMatchObject({ type: 'init' });
    expect(attempt.terminal).toBe('not-recorded');
    expect(attempt.survivors).toEqual([]);
  });

  it('is not released by end of file while the child still lives (R7.4)', async () => {
    const liveMs = 1500;
    const attempt = await supervise({ executable: fixture('close-pipes-then-live.mjs'), args: [String(liveMs)] });
    expect(attempt.terminal).toMatchObject({ type: 'result' });
    expect(attempt.timedOut).toBe(false);
    expect(attempt.exit).toEqual({ code: 0, signal: null });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(liveMs);
  });

  it('throws, naming the path, for an adapter executable that cannot be run; nothing is spawned (R7.1)', async () => {
    const missing = join(freshDirectory(), 'no-such-adapter');
    await expect(supervise({ executable: missing })).rejects.toThrow(missing);
  });

  it('kills the process tree and rethrows when the onEvent callback throws: a failing caller never leaves the child running (R7.3)', async () => {
    const tag = freshTag();
    const seen: number[] = [];
    const supervised = supervise({
      executable: fixture('hang-with-descendant.mjs'),
      attemptTag: tag,
      onEvent: (event) => {
        if (event.type !== 'progress') return;
        seen.push(...findAttemptProcesses(tag));
        throw new Error('a broken status line');
      },
    });
    await expect(supervised).rejects.toThrow('onEvent');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.filter(isAlive)).toEqual([]);
  });
});
