import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SampleRepository, useTestTargets } from '../../fixtures/sample-repository.js';
import { attemptDirectoriesOf } from '../../fixtures/attempt-directories.js';
import { spawnWitness } from '../../fixtures/spawn-witness.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Issue 5 through the built binary and the fixture adapter (requiresCommands: ["node"]):
// command coverage at planning (working tree) and at launch (base commit), R9.1-R9.4.

interface Coverage {
  verdict: string;
  readFrom?: { kind: string; commit?: string };
  commands?: { kind: string; text: string; program?: string; reason?: string }[];
  missing?: { program: string; commands: string[] }[];
  notChecked?: string[];
  allowance?: { entries: { program: string; sources: { kind: string }[] }[] };
  limits: string[];
}
interface Account {
  runId: string;
  baseCommit: string;
  posture: { coverage: Coverage };
}
interface Refusal {
  refused: { stage: string; reason: string; message: string; detail: unknown };
}

const targets = useTestTargets({ sharedRepository: false });

function spec(commands: readonly string[], prose = 'Do the work.'): string {
  return ['# Spec 004', '', prose, '', '## Verification', '', '```sh', ...commands, '```', ''].join('\n');
}

async function repositoryWith(files: Record<string, string>): Promise<SampleRepository> {
  const repository = await targets.fresh();
  await write(repository, files);
  await repository.git('add', '--all');
  await repository.git('commit', '--quiet', '--allow-empty', '-m', 'spec and declaration');
  return repository;
}

async function write(repository: SampleRepository, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(repository.path, name)), { recursive: true });
    await writeFile(join(repository.path, name), text);
  }
}

const declaration = (commands: unknown[]) => JSON.stringify({ project: { commands } });

const run = (target: string, ...extra: string[]) =>
  runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', ...extra], { home: targets.home.path });

/** The repository's worktrees and statecraft branches: a refused launch withdraws what it prepared. */
async function workspacesOf(repository: SampleRepository): Promise<{ worktrees: number; branches: string }> {
  const worktrees = (await repository.git('worktree', 'list', '--porcelain')).split('\n').filter((line) => line.startsWith('worktree ')).length;
  return { worktrees, branches: await repository.git('branch', '--list', 'statecraft/*') };
}

async function attemptCount(target: string): Promise<number> {
  const list = await runStatecraft(['run', 'list', target, '--json'], { home: targets.home.path });
  return parseJson<{ attempts: unknown[] }>(list).attempts.length;
}

describe('statecraft run compares command coverage at planning (R9.1-R9.3, R4 case 8)', () => {
  it('refuses a spec whose Verification names cargo with no declaration, naming cargo: exit 2, nothing appended', async () => {
    const repository = await repositoryWith({ 'specs/004.md': spec(['cargo test']) });
    // The fixture adapter writes its pid here first thing: the file's absence shows no adapter started.
    const witness = await spawnWitness();
    const spawnLog = witness.log;
    const answer = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', '--spec', '004', '--pass', 'STATECRAFT_FIXTURE_SPAWN_LOG'],
      { home: targets.home.path, env: witness.env },
    );
    expect(answer.exitCode).toBe(2);
    expect(existsSync(spawnLog)).toBe(false);
    expect(existsSync(join(repository.path, '.statecraft', 'state'))).toBe(false);
    const { refused } = parseJson<Refusal>(answer);
    expect(refused).toMatchObject({ stage: 'plan', reason: 'coverage' });
    expect(refused.message).toContain('name cargo, which the allowance omits');
    expect(refused.message).toContain('missing: cargo, named by `cargo test`');
    expect(refused.message).toContain('is not seen');
    expect(refused.message).toContain('compared, not enforced');
    expect(await attemptCount(repository.path)).toBe(0);
    // The witness works: the same invocation without the spec does start the adapter.
    const control = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', '--pass', 'STATECRAFT_FIXTURE_SPAWN_LOG'],
      { home: targets.home.path, env: witness.env },
    );
    expect(control.exitCode).toBe(0);
    expect(existsSync(spawnLog)).toBe(true);
    await rm(spawnLog, { force: true });
  });

  it('runs the same spec once "project.commands" declares cargo, recording the launch reading as direct', async () => {
    const repository = await repositoryWith({
      'specs/004.md': spec(['cargo test']),
      '.statecraft/environment.json': declaration(['cargo']),
    });
    const answer = await run(repository.path, '--spec', '004');
    expect(answer.exitCode).toBe(0);
    const account = parseJson<Account>(answer);
    expect(account.posture.coverage).toMatchObject({
      verdict: 'direct',
      readFrom: { kind: 'commit', commit: account.baseCommit },
      commands: [{ kind: 'simple', text: 'cargo test', program: 'cargo' }],
      allowance: {
        entries: [
          { program: 'node', sources: [{ kind: 'adapter' }] },
          { program: 'cargo', sources: [{ kind: 'declared' }] },
        ],
      },
    });
    expect(account.posture.coverage.limits).toHaveLength(2);
  });

  it('reads a pipe, an assignment prefix and wrappers as unparsed, and ./x.sh as a path: verdict partial', async () => {
    const commands = ['node --test', 'node a.js | tee log', 'FOO=1 make', 'env cargo', 'sudo make install', "bash -c 'cargo test'", './x.sh'];
    const repository = await repositoryWith({ 'specs/004/spec.md': spec(commands) });
    const answer = await run(repository.path, '--spec', '004');
    expect(answer.exitCode).toBe(0);
    const coverage = parseJson<Account>(answer).posture.coverage;
    expect(coverage.verdict).toBe('partial');
    expect(coverage.commands?.map((command) => command.kind)).toEqual(['simple', 'unparsed', 'unparsed', 'unparsed', 'unparsed', 'unparsed', 'path']);
    expect(coverage.notChecked).toEqual(commands.slice(1, 6));
  });

  it('reads a command led by a program that runs another (setsid, stdbuf, flock, strace) as unparsed, not as that program: declared, it was read direct while cargo went unseen', async () => {
    const commands = ['setsid cargo test', 'stdbuf -oL cargo build', 'flock /tmp/lock cargo test', 'strace -f cargo test'];
    const repository = await repositoryWith({
      'specs/004/spec.md': spec(commands),
      '.statecraft/environment.json': declaration(['setsid', 'stdbuf', 'flock', 'strace']),
    });
    const answer = await run(repository.path, '--spec', '004');
    expect(answer.exitCode).toBe(0);
    const coverage = parseJson<Account>(answer).posture.coverage;
    expect(coverage.verdict).toBe('partial');
    expect(coverage.commands?.map((command) => command.kind)).toEqual(['unparsed', 'unparsed', 'unparsed', 'unparsed']);
    expect(coverage.commands?.[0]?.reason).toBe('"setsid" runs another program, which is not seen');
    expect(coverage.notChecked).toEqual(commands);
  });

  it('refuses a declared entry holding "/" or whitespace, naming it', async () => {
    const repository = await repositoryWith({
      'specs/004.md': spec(['node --test']),
      '.statecraft/environment.json': declaration(['./bin/cargo', 'cargo test']),
    });
    const answer = await run(repository.path, '--spec', '004');
    expect(answer.exitCode).toBe(2);
    const { refused } = parseJson<Refusal>(answer);
    expect(refused.message).toContain('.statecraft/environment.json: field "project.commands[0]": "./bin/cargo" contains "/"');
    expect(refused.message).toContain('field "project.commands[1]": "cargo test" contains whitespace');
    expect(await attemptCount(repository.path)).toBe(0);
  });

  it('records not-applicable for a run without --spec', async () => {
    const repository = await repositoryWith({});
    const answer = await run(repository.path);
    expect(answer.exitCode).toBe(0);
    expect(parseJson<Account>(answer).posture.coverage).toMatchObject({ verdict: 'not-applicable' });
  });

  it('shows the coverage and both limits in run show', async () => {
    const repository = await repositoryWith({ 'specs/004.md': spec(['node --test', 'a | b']) });
    const account = parseJson<Account>(await run(repository.path, '--spec', '004'));
    const shown = await runStatecraft(['run', 'show', repository.path, account.runId, '--posture'], { home: targets.home.path });
    expect(shown.stdout).toContain('coverage: partial — spec 004 (specs/004.md)');
    expect(shown.stdout).toContain('not checked: `a | b`');
    expect(shown.stdout).toContain(account.posture.coverage.limits[0]);
    expect(shown.stdout).toContain(account.posture.coverage.limits[1]);
  });
});

describe('statecraft run reads coverage again at the base commit, and refuses drift (R9.4)', () => {
  it('refuses an allowance declared in the working tree but absent at the base, naming the allowance', async () => {
    const repository = await repositoryWith({ 'specs/004.md': spec(['cargo test']) });
    await write(repository, { '.statecraft/environment.json': declaration(['cargo']) });
    const answer = await run(repository.path, '--spec', '004');
    expect(answer.exitCode).toBe(2);
    const { refused } = parseJson<Refusal>(answer);
    expect(refused).toMatchObject({ stage: 'launch', reason: 'coverage', detail: { inputs: ['allowance'] } });
    expect(refused.message).toContain('drifted between planning and launch: allowance');
    expect(await attemptCount(repository.path)).toBe(0);
    // The workspace prepared beside the reading was withdrawn: the operator's repository is as found.
    expect(await workspacesOf(repository)).toEqual({ worktrees: 1, branches: '' });
    // And the attempt's files written meanwhile: the product home holds nothing of it.
    expect(await attemptDirectoriesOf(targets.home.path, repository.path)).toEqual([]);
  });

  it('refuses an uncommitted edit to the Verification block, naming the suite plan', async () => {
    const repository = await repositoryWith({ 'specs/004.md': spec(['node --test']) });
    await write(repository, { 'specs/004.md': spec(['node --test', 'node lint.js']) });
    const answer = await run(repository.path, '--spec', '004');
    expect(answer.exitCode).toBe(2);
    expect(parseJson<Refusal>(answer).refused).toMatchObject({ stage: 'launch', reason: 'coverage', detail: { inputs: ['suite plan'] } });
    expect(await attemptCount(repository.path)).toBe(0);
    expect(await workspacesOf(repository)).toEqual({ worktrees: 1, branches: '' });
  });

  it('does not refuse an uncommitted edit elsewhere in the spec', async () => {
    const repository = await repositoryWith({ 'specs/004.md': spec(['node --test']) });
    await write(repository, { 'specs/004.md': spec(['node --test'], 'Do the work, reworded.') });
    const answer = await run(repository.path, '--spec', '004');
    expect(answer.exitCode).toBe(0);
    expect(parseJson<Account>(answer).posture.coverage.verdict).toBe('direct');
  });
});

describe('statecraft run --spec without a prompt (issue 5, item 2)', () => {
  it("sends the spec's text as the prompt", async () => {
    const { readFile } = await import('node:fs/promises');
    const text = spec(['node --test']);
    const repository = await repositoryWith({ 'specs/004.md': text });
    const answer = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--spec', '004', '--json'], { home: targets.home.path });
    const account = parseJson<Account & { artifacts: { prompt: { path: string } } }>(answer);
    expect(account.posture.coverage.verdict).toBe('direct');
    expect(await readFile(account.artifacts.prompt.path, 'utf8')).toBe(text);
  });
});
