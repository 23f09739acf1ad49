import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventSchema, digestFile, fixtureAdapterPath, readManifest, replayAdapterPath, sidecarManifestPath } from '@statecraft/adapter';
import { freshDirectory } from '../../run/test/suite-helpers.js';

// The fixture adapter is a real executable (R4): these tests start it directly, without the
// supervisor, and read its bytes — what any adapter author would check of their own binary.

function requestFor(prompt: string, workspace: string): string {
  const path = join(workspace, 'request.json');
  const bytes = Buffer.from(prompt);
  writeFileSync(
    path,
    JSON.stringify({
      protocol: 1,
      attempt: { runId: 'fixture-test', number: 1 },
      workspace,
      baseRevision: 'test',
      capabilities: { required: [], preferred: ['cost-report'] },
      limits: { maxTurns: null, allow: [], deny: [], removeTools: [], hooks: [] },
      deadline: { milliseconds: 60_000, at: new Date(Date.now() + 60_000).toISOString() },
      prompt: { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length },
      provider: null,
    }),
  );
  return path;
}

function runFixture(prompt: string, options: { env?: Record<string, string> } = {}) {
  const workspace = freshDirectory('statecraft-fixture');
  const request = requestFor(prompt, workspace);
  const child = spawnSync(fixtureAdapterPath(), ['run', '--request', request], {
    input: prompt,
    cwd: workspace,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env },
    timeout: 30_000,
  });
  return {
    status: child.status,
    stdout: child.stdout,
    lines: child.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== ''),
  };
}

describe('the fixture adapter executable (R4)', () => {
  it('is an executable file beside the package, resolved without the working directory', () => {
    const path = fixtureAdapterPath();
    expect(path.endsWith('/packages/adapter/fixture/statecraft-fixture-adapter')).toBe(true);
    expect(statSync(path).isFile()).toBe(true);
    expect(() => accessSync(path, constants.X_OK)).not.toThrow();
    expect(() => accessSync(replayAdapterPath(), constants.X_OK)).not.toThrow();
  });

  it('imports nothing but node: modules, so its content digest covers every line it runs (R3.1)', async () => {
    const source = readFileSync(fixtureAdapterPath(), 'utf8');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((name) => name?.startsWith('node:'))).toBe(true);
    expect(await digestFile(fixtureAdapterPath())).toBe(`sha256:${createHash('sha256').update(readFileSync(fixtureAdapterPath())).digest('hex')}`);
  });

  it('has a sidecar manifest naming fixture 1.0.0, protocol 1, five tokens and not workspace-write (R2.2)', async () => {
    const reading = await readManifest(sidecarManifestPath(fixtureAdapterPath()));
    if (reading.kind !== 'read') throw new Error(reading.message);
    expect(reading.manifest).toMatchObject({ name: 'fixture', version: '1.0.0', protocol: 1, requiresCommands: ['node'] });
    expect(reading.manifest.capabilities).toHaveLength(5);
    expect(reading.manifest.capabilities).not.toContain('workspace-write');
    const replay = await readManifest(sidecarManifestPath(replayAdapterPath()));
    expect(replay.kind).toBe('read');
  });

  it.each(['complete', 'refuse', 'no-cost', 'under-apply', 'report-cwd', 'dump-env', 'turn-limit', 'provider-error', 'unmapped', 'no-result'])(
    'scenario %s writes schema-valid events, each carrying protocol 1 and a rising seq from 0',
    (scenario) => {
      const { lines } = runFixture(`scenario: ${scenario}`);
      const events = lines.map((line) => EventSchema.parse(JSON.parse(line)));
      expect(events[0]?.type).toBe('init');
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
      expect(events.every((event) => event.protocol === 1)).toBe(true);
    },
  );

  it('scenario malformed writes a line that is not a protocol event', () => {
    const { lines } = runFixture('scenario: malformed');
    expect(lines).toContain('this line is not a protocol event');
  });

  it('scenario read-failure writes a line that is not valid UTF-8', () => {
    const { stdout } = runFixture('scenario: read-failure');
    const badLine = stdout.subarray(stdout.indexOf(0x0a) + 1, stdout.indexOf(0x0a, stdout.indexOf(0x0a) + 1));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(badLine)).toThrow();
  });

  it('an unknown scenario ends with a clear error event and a non-zero exit, not a crash', () => {
    const { status, lines } = runFixture('scenario: no-such-thing');
    expect(status).not.toBe(0);
    const last = EventSchema.parse(JSON.parse(lines.at(-1) ?? ''));
    expect(last).toMatchObject({ type: 'error', code: 'unknown-scenario' });
    expect(last.type === 'error' ? last.message : '').toContain('no-such-thing');
  });

  it('a prompt that is not the one the request describes is refused with an error event (R1.3)', () => {
    const workspace = freshDirectory('statecraft-fixture');
    const request = requestFor('scenario: complete', workspace);
    const child = spawnSync(fixtureAdapterPath(), ['run', '--request', request], { input: 'scenario: refuse', cwd: workspace, timeout: 30_000 });
    expect(child.status).toBe(2);
    expect(child.stdout.toString()).toContain('"code":"prompt-mismatch"');
  });

  it('a request of another protocol version is refused with an error event (R1.5)', () => {
    const workspace = freshDirectory('statecraft-fixture');
    const path = requestFor('scenario: complete', workspace);
    writeFileSync(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, 'utf8')) as object), protocol: 2 }));
    const child = spawnSync(fixtureAdapterPath(), ['run', '--request', path], { input: 'scenario: complete', cwd: workspace, timeout: 30_000 });
    expect(child.status).toBe(2);
    expect(child.stdout.toString()).toContain('"code":"bad-request"');
    expect(child.stdout.toString()).toContain('this adapter speaks 1');
  });

  it('the replay child writes the recorded bytes exactly and exits', () => {
    const dir = freshDirectory('statecraft-replay');
    const recording = join(dir, 'stream.ndjson');
    const bytes = Buffer.concat([Buffer.from('{"a":1}\n'), Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from('tail without newline')]);
    writeFileSync(recording, bytes);
    const request = requestFor('x', dir);
    const child = spawnSync(replayAdapterPath(), ['run', '--request', request], {
      input: 'x',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', STATECRAFT_REPLAY_FILE: recording, STATECRAFT_REPLAY_EXIT_CODE: '1' },
      timeout: 30_000,
    });
    expect(child.status).toBe(1);
    expect(Buffer.compare(child.stdout, bytes)).toBe(0);
  });
});
