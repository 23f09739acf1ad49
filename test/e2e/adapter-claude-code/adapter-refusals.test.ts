import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { baseEnvironment, eventsOfType, runAdapter, sandboxMaker } from '../../fixtures/claude-code-adapter-process.js';

const makeSandbox = sandboxMaker();

// Before claude starts, the adapter still speaks the protocol: an init that applied nothing,
// then an error naming the cause, so the supervisor records why (R5.4: fails visibly).

async function runRaw(args: string[], stdin: string, cwd: string, env: Record<string, string>) {
  const child = spawn(claudeCodeAdapterPath(), args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
  return { stdout, stderr, code };
}

describe('the adapter before claude starts', () => {
  it('refuses a prompt on stdin that does not match the request digest, starting nothing (R1.3)', async () => {
    const sandbox = await makeSandbox();
    const run = await runAdapter({ sandbox, environment: baseEnvironment(sandbox), prompt: 'the prompt the request names', stdinPrompt: 'another prompt' });
    expect(run.events.map((event) => event.type)).toEqual(['init', 'error']);
    expect(eventsOfType(run, 'error')[0]?.code).toBe('prompt-mismatch');
  });

  it('refuses a named provider given as a relative path, which would resolve against the workspace (issue 4 item 1)', async () => {
    const sandbox = await makeSandbox();
    const run = await runAdapter({ sandbox, environment: baseEnvironment(sandbox), provider: 'bin/claude' });
    expect(run.events.map((event) => event.type)).toEqual(['init', 'error']);
    expect(eventsOfType(run, 'error')[0]).toMatchObject({ code: 'provider-not-found', message: 'the named provider bin/claude is not an absolute path' });
  });

  it('reports a provider that cannot be started as an init and a provider-spawn-failed error, never a hang (R5.4)', async () => {
    const sandbox = await makeSandbox();
    const broken = join(sandbox.bin, 'claude-with-no-interpreter');
    await writeFile(broken, '#!/nonexistent/interpreter\n', { mode: 0o755 });
    const run = await runAdapter({ sandbox, environment: baseEnvironment(sandbox), provider: broken });
    expect(run.events.map((event) => event.type)).toEqual(['init', 'error']);
    expect(eventsOfType(run, 'error')[0]?.code).toBe('provider-spawn-failed');
  });

  it('answers a request that is not valid with an init and an error naming the field (R1.2)', async () => {
    const sandbox = await makeSandbox();
    const request = join(sandbox.root, 'bad-request.json');
    await writeFile(request, JSON.stringify({ protocol: 1, workspace: 'relative/path' }));
    const run = await runRaw(['run', '--request', request], 'prompt', sandbox.workspace, baseEnvironment(sandbox));
    const types = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(['init', 'error']);
    expect(run.stdout).toContain('request-invalid');
    expect(run.stdout).toContain('workspace');
  });

  it('prints usage and exits 3 without an event when not invoked as run --request <file> (R11)', async () => {
    const sandbox = await makeSandbox();
    const run = await runRaw(['run'], '', sandbox.workspace, baseEnvironment(sandbox));
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('usage');
  });
});
