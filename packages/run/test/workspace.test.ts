import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareWorkspace } from '@statecraft/run';
import { resolveTarget, type ResolvedTarget } from '@statecraft/records';
import { createSampleRepository, type SampleRepository } from '../../../test/fixtures/sample-repository.js';

let repository: SampleRepository;
let target: ResolvedTarget;
beforeEach(async () => {
  repository = await createSampleRepository();
  const resolution = await resolveTarget(repository.path);
  if (resolution.kind !== 'resolved') throw new Error(resolution.message);
  target = resolution.target;
});
afterEach(async () => {
  await repository.remove();
});

async function base(revision = 'HEAD'): Promise<string> {
  const resolution = await resolveTarget(repository.path, revision);
  if (resolution.kind !== 'resolved') throw new Error(resolution.message);
  if (resolution.base === 'not-asked' || resolution.base.kind === 'refused') throw new Error(`no base for ${revision}`);
  return resolution.base.commit;
}

describe('the workspace is an isolated git worktree at a recorded base commit (R8.6)', () => {
  it("is created on the run's own branch under .statecraft/state, leaving the operator's status and HEAD unchanged", async () => {
    const statusBefore = await repository.git('status', '--porcelain', '--untracked-files=all', '--ignored');
    const headBefore = await repository.git('rev-parse', 'HEAD');
    const commit = await base();
    const prepared = await prepareWorkspace({ target, runId: '20261130T040000Z-abcdef', baseCommit: commit, mode: 'new-run' });
    expect(prepared.kind).toBe('prepared');
    if (prepared.kind !== 'prepared') return;
    expect(prepared.workspace.path).toBe(join(repository.path, '.statecraft', 'state', 'workspaces', '20261130T040000Z-abcdef'));
    expect(prepared.workspace.branch).toBe('statecraft/20261130T040000Z-abcdef');
    expect(await repository.git('-C', prepared.workspace.path, 'rev-parse', 'HEAD')).toBe(commit);
    expect(await repository.git('rev-parse', 'HEAD')).toBe(headBefore);
    // Not even as an ignored path: the exclude lives in info/exclude, which status does not list.
    const statusAfter = await repository.git('status', '--porcelain', '--untracked-files=all');
    expect(statusAfter).toBe(
      statusBefore
        .split('\n')
        .filter((line) => !line.startsWith('!!'))
        .join('\n'),
    );
    expect(await readFile(join(repository.path, '.git', 'info', 'exclude'), 'utf8')).toContain('/.statecraft/state/');
  });

  it("a retry reuses the run's workspace, found in place", async () => {
    const commit = await base();
    const runId = '20261130T040000Z-abcdef';
    await prepareWorkspace({ target, runId, baseCommit: commit, mode: 'new-run' });
    const again = await prepareWorkspace({ target, runId, baseCommit: commit, mode: 'retry' });
    expect(again).toMatchObject({ kind: 'prepared', workspace: { how: 'reused' } });
  });

  it('a foreign directory where the workspace goes is refused by name and left alone', async () => {
    const path = join(repository.path, '.statecraft', 'state', 'workspaces', '20261130T040000Z-abcdef');
    await mkdir(path, { recursive: true });
    await writeFile(join(path, 'precious.txt'), 'keep me\n');
    const prepared = await prepareWorkspace({ target, runId: '20261130T040000Z-abcdef', baseCommit: await base(), mode: 'retry' });
    expect(prepared).toMatchObject({ kind: 'refused', reason: 'foreign-directory', path });
    if (prepared.kind === 'refused') expect(prepared.message).toContain(path);
    expect(await readFile(join(path, 'precious.txt'), 'utf8')).toBe('keep me\n');
  });

  it('resolves the base revision in the same call as the target: a commit by its full name, or a refusal naming the revision', async () => {
    expect(await base()).toBe(await repository.git('rev-parse', 'HEAD^{commit}'));
    const tag = await repository.git('rev-parse', 'HEAD');
    await repository.git('tag', '-a', '-m', 'annotated', 'v1');
    // An annotated tag peels to its commit: the workspace is based on a commit, never a tag object.
    expect(await base('v1')).toBe(tag);
    const unknown = await resolveTarget(repository.path, 'no-such-revision');
    expect(unknown).toMatchObject({ kind: 'resolved', target: { path: target.path }, base: { kind: 'refused' } });
    if (unknown.kind === 'resolved' && unknown.base !== 'not-asked')
      expect(unknown.base).toMatchObject({ message: expect.stringContaining('revision no-such-revision does not name a commit') as unknown });
    // A revision that looks like an option is a revision, never an option to git.
    expect(await resolveTarget(repository.path, '--all')).toMatchObject({ kind: 'resolved', base: { kind: 'refused' } });
    expect(await resolveTarget(repository.path)).toMatchObject({ kind: 'resolved', base: 'not-asked' });
  });

  it("names the base commit's tree in the same call, and refuses a revision that names more or less than one commit", async () => {
    const resolution = await resolveTarget(repository.path, 'HEAD');
    expect(resolution).toMatchObject({
      kind: 'resolved',
      base: { kind: 'resolved', commit: await repository.git('rev-parse', 'HEAD'), tree: await repository.git('rev-parse', 'HEAD^{tree}') },
    });
    // A range and a negation print other lines than one commit and one tree; `@{upstream}` with none
    // configured makes git stop with an error after naming the repository, which is still named.
    for (const revision of ['HEAD..HEAD', '^HEAD', '@{upstream}', 'HEAD:']) {
      expect(await resolveTarget(repository.path, revision)).toMatchObject({ kind: 'resolved', target: { path: target.path }, base: { kind: 'refused' } });
    }
  });

  it('a target that is not a git repository is refused naming it', async () => {
    const resolution = await resolveTarget(join(repository.path, '.git', 'objects'));
    // Inside .git is not a working tree: git answers no top level.
    expect(resolution.kind).toBe('refused');
    expect((await resolveTarget('/nonexistent/statecraft-target')).kind).toBe('refused');
  });
});
