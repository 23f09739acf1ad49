import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { doctorSteps } from '../../fixtures/doctor-findings.js';

const targets = useTestTargets({ sharedRepository: false });
const { attempt, doctor, findingsOf } = doctorSteps(() => targets.home.path);

describe("doctor reports a chain's checkpoint gone or not a regular file, and records cut with it", () => {
  it('a checkpoint removed, or a directory in its place, is a finding naming it (exit 1)', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path);
    const checkpoint = join(dirname(account.records.chain), 'chain.checkpoint.json');
    await rm(checkpoint);

    const gone = await doctor();
    expect(gone.run.exitCode).toBe(1);
    expect(findingsOf(gone.value, account)).toEqual([expect.objectContaining({ kind: 'checkpoint-missing', path: checkpoint })]);
    expect(findingsOf(gone.value, account)[0]?.message).toContain('no checkpoint beside a chain of 2 records');

    await mkdir(checkpoint);
    const directory = await doctor();
    expect(directory.run.exitCode).toBe(1);
    expect(findingsOf(directory.value, account)).toEqual([expect.objectContaining({ kind: 'checkpoint-missing', path: checkpoint })]);
    expect(findingsOf(directory.value, account)[0]?.message).toContain('the checkpoint is a directory, not the regular file every append writes');
  });

  it("an attempt's records cut from the chain with its checkpoint are reported as missing records, not as a supervisor stopped before its intent", async () => {
    const target = await targets.fresh();
    await attempt(target.path);
    const last = await attempt(target.path);
    const chain = last.records.chain;
    const lines = (await readFile(chain, 'utf8')).split('\n').filter((line) => line !== '');
    await writeFile(
      chain,
      lines
        .slice(0, 2)
        .map((line) => `${line}\n`)
        .join(''),
    );
    await rm(join(dirname(chain), 'chain.checkpoint.json'));

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const directory = dirname(last.artifacts.result.path);
    const found = findingsOf(value, last);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'checkpoint-missing' }),
        expect.objectContaining({ kind: 'missing-attempt-records', path: directory }),
      ]),
    );
    expect(found).toHaveLength(2);
    const missing = found.find((finding) => finding.kind === 'missing-attempt-records')?.message;
    expect(missing).toContain(`files of run ${last.runId} attempt 1 that no record names, though result.json and stream.ndjson`);
    expect(missing).toContain("the attempt's records are missing from the chain (removed, or the chain was cut)");
    expect(missing).not.toContain('stopped before its intent');
  });

  it('files a supervisor stopped before its intent can leave (under the boundary, an empty stream opened ahead) still read as that', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path);
    const left = join(dirname(account.records.chain), 'attempts', '20261201T000000Z-0d0e0f', '1');
    await mkdir(left, { recursive: true });
    for (const [name, text] of Object.entries({ 'request.json': '{}', 'prompt.txt': 'scenario: complete', 'stream.ndjson': '', 'stderr.log': '' })) {
      await writeFile(join(left, name), text);
    }
    const found = findingsOf((await doctor()).value, account);
    expect(found).toEqual([expect.objectContaining({ kind: 'unrecorded-attempt-files', path: left })]);
    expect(found[0]?.message).toContain('its supervisor stopped before its intent was written');
  });

  it("an unrecorded attempt n ≥ 2 of a recorded run is named with its own worktree and branch (<run>-<n>), offered for removal; the run's own stay", async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path);
    // Attempt 3 of the run, started beside the first, its supervisor killed before its intent: files and its own worktree left.
    const left = join(dirname(account.records.chain), 'attempts', account.runId, '3');
    await mkdir(left, { recursive: true });
    for (const [name, text] of Object.entries({ 'request.json': '{}', 'prompt.txt': 'scenario: complete', 'stream.ndjson': '', 'stderr.log': '' })) {
      await writeFile(join(left, name), text);
    }
    const branch = `statecraft/${account.runId}-3`;
    const worktree = join(target.path, '.statecraft', 'state', 'workspaces', `${account.runId}-3`);
    await execa('git', ['-C', target.path, 'worktree', 'add', '-q', '-b', branch, worktree, 'HEAD']);
    const found = findingsOf((await doctor()).value, account);
    expect(found).toEqual([expect.objectContaining({ kind: 'unrecorded-attempt-files', path: left })]);
    expect(found[0]?.message).toContain(`left in ${target.path}: the worktree ${worktree} and the branch ${branch} (remove with: `);
    expect(found[0]?.message).toContain(`git -C ${target.path} branch -D ${branch}`);

    // Gone, the run's own worktree is named as the recorded attempts', never for removal.
    await execa('git', ['-C', target.path, 'worktree', 'remove', '--force', worktree]);
    await execa('git', ['-C', target.path, 'branch', '-D', branch]);
    const after = findingsOf((await doctor()).value, account);
    expect(after[0]?.message).toContain(`are those of run ${account.runId}'s recorded attempts too, and stay`);
  });
});
