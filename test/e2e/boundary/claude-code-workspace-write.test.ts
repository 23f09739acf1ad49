import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useLiveClaude } from '../../fixtures/live-claude.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Issue 11 item 4, through the built CLI: the real pinned claude behind the bundled adapter,
// talking only to the model double on 127.0.0.1, inside the evidence boundary (the default; bwrap
// is installed wherever these tests run, as CI does). Inside it the adapter asks claude for
// `acceptEdits`, so edits in the workspace need no --allow rule, and bwrap keeps every write there.

interface RunJson {
  outcome: string;
  refusalCount: number;
  workspace: string;
  artifacts: { stream: { path: string } };
  posture: { boundary: { mechanism: string }; capabilities: { applied: string[] | string; notApplied: string[] } };
}

const claude = useLiveClaude(scratch, 'statecraft-cc-ww-bin-');

async function run(scenario: string, extra: readonly string[]) {
  const repository = await createSampleRepository();
  scratch.keep(repository);
  const home = await createProductHome();
  scratch.keep(home);
  const operatorHome = await scratch.make('statecraft-cc-ww-operator-home-');
  // An operator who has used claude: its configuration directory exists; claude must write nothing
  // there, its state going to the attempt's private CLAUDE_CONFIG_DIR.
  await mkdir(join(operatorHome, '.claude'));
  const env = claude.environment(scenario, operatorHome);
  const answer = await runStatecraft(
    ['run', repository.path, '--adapter', claudeCodeAdapterPath(), '--prompt', 'Do the scripted work.', '--deadline', '120s', '--json', ...extra],
    { home: home.path, env, timeoutMs: 150_000 },
  );
  return { answer, value: parseJson<RunJson>(answer), repository, operatorHome };
}

describe('Claude Code under the evidence boundary (workspace-write, R12, R10.5)', () => {
  it('lets the Write tool create a file in the workspace with no --allow rule, and applies workspace-write', async () => {
    const { value, repository, operatorHome } = await run('write-answer', ['--require', 'workspace-write']);
    expect(value.posture.boundary.mechanism).toBe('bwrap');
    expect(value.outcome).toBe('completed');
    expect(value.refusalCount).toBe(0);
    expect(readFileSync(join(value.workspace, 'answer.txt'), 'utf8')).toBe('forty-two\n');
    expect(existsSync(join(repository.path, 'answer.txt'))).toBe(false);
    expect(value.posture.capabilities.applied).toContain('workspace-write');
    expect(value.posture.capabilities.notApplied).toEqual([]);
    // claude wrote its session state in its private configuration directory, nothing in the operator's.
    expect(readdirSync(join(operatorHome, '.claude'))).toEqual([]);
  });

  it('lets a shell redirection write in the workspace with no --allow rule (docs/facts.md item 13 needed one before)', async () => {
    const { value } = await run('bash-write-inside', []);
    expect(value.outcome).toBe('completed');
    expect(value.refusalCount).toBe(0);
    expect(readFileSync(join(value.workspace, 'statecraft-inside-marker.txt'), 'utf8')).toBe('written-inside\n');
  });

  it('stops a shell write beside the workspace even with Bash allowed outright: the boundary, not claude, refuses it', async () => {
    const { value, repository } = await run('bash-write-outside', ['--permissions', 'strict', '--allow', 'Bash']);
    expect(value.posture.boundary.mechanism).toBe('bwrap');
    expect(existsSync(join(dirname(value.workspace), 'statecraft-outside-marker.txt'))).toBe(false);
    expect(existsSync(join(dirname(repository.path), 'statecraft-outside-marker.txt'))).toBe(false);
    // The command ran (Bash was allowed) and the file system refused it.
    expect(readFileSync(value.artifacts.stream.path, 'utf8')).toContain('Read-only file system');
  });

  it('under the default sandboxed permissions claude runs the write beside the workspace, and the boundary stops it', async () => {
    const { value, repository } = await run('bash-write-outside', []);
    expect(value.outcome).toBe('completed');
    expect(value.refusalCount).toBe(0);
    expect(existsSync(join(dirname(value.workspace), 'statecraft-outside-marker.txt'))).toBe(false);
    expect(existsSync(join(dirname(repository.path), 'statecraft-outside-marker.txt'))).toBe(false);
    expect(readFileSync(value.artifacts.stream.path, 'utf8')).toContain('Read-only file system');
  });

  it('still turns a --deny rule into a refusal record: the call is refused and kept, the attempt refused (R10.3)', async () => {
    const { answer, value } = await run('bash-touch', ['--deny', 'Bash(touch:*)']);
    expect(value.outcome).toBe('refused');
    expect(value.refusalCount).toBe(1);
    expect(existsSync(join(value.workspace, 'statecraft-marker.txt'))).toBe(false);
    expect(answer.exitCode).toBe(1);
  });

  it('with --boundary none reports workspace-write not applied and keeps the default mode: the same shell write is refused (R2.4)', async () => {
    const { value } = await run('bash-write-inside', ['--boundary', 'none', '--prefer', 'workspace-write']);
    expect(value.posture.boundary.mechanism).toBe('none');
    expect(value.posture.capabilities.notApplied).toEqual(['workspace-write']);
    expect(value.outcome).toBe('refused');
    expect(existsSync(join(value.workspace, 'statecraft-inside-marker.txt'))).toBe(false);
  });

  it('refuses a run that requires workspace-write with --boundary none before spawn (R2.3)', async () => {
    const { answer } = await run('completed', ['--boundary', 'none', '--require', 'workspace-write']);
    expect(answer.exitCode).toBe(2);
    expect(answer.stdout).toContain('workspace-write is required, but the evidence boundary is off (--boundary none)');
  });
});
