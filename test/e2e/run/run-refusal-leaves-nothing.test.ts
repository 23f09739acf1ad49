import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCustomAdapter } from '../../fixtures/custom-adapter.js';
import { createProductHome, useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft, type CliRun } from '../../fixtures/statecraft-cli.js';

// A refusal before anything is recorded leaves nothing in the product home: no target's directory
// (which `doctor` would then list as a target with an empty chain), no `targets/` made for it, no
// `attempts/`. The home's caches (adapter digests, tool versions) are not records: they stay.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

interface Refusal {
  refused: { stage: string; reason: string; message: string };
}

/** Every path under the home but its caches, relative to it: what `doctor` and `run list` could read. */
async function recordsIn(home: string): Promise<string[]> {
  if (!existsSync(home)) return [];
  const found: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (relative(home, path) === 'cache') continue;
      found.push(relative(home, path));
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(home);
  return found.sort();
}

async function freshHome(): Promise<string> {
  const home = await createProductHome();
  scratch.keep(home);
  return home.path;
}

const spec = ['# Spec 004', '', 'Do the work.', '', '## Verification', '', '```sh', 'cargo test', '```', ''].join('\n');

/** A repository whose spec names cargo, committed; `declared` adds the allowance to the working tree only (drift at launch). */
async function repositoryWithSpec(declared: boolean): Promise<SampleRepository> {
  const repository = await targets.fresh();
  await mkdir(join(repository.path, 'specs'));
  await writeFile(join(repository.path, 'specs', '004.md'), spec);
  await repository.git('add', '--all');
  await repository.git('commit', '--quiet', '-m', 'spec');
  if (declared) {
    await mkdir(join(repository.path, '.statecraft'));
    await writeFile(join(repository.path, '.statecraft', 'environment.json'), JSON.stringify({ project: { commands: ['cargo'] } }));
  }
  return repository;
}

/** A directory holding only node and git: a PATH without bwrap, so the boundary is refused at launch. */
async function pathWithoutBwrap(): Promise<string> {
  const directory = await scratch.make('statecraft-no-bwrap');
  for (const program of ['node', 'git']) {
    await symlink(execFileSync('/bin/sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim(), join(directory, program));
  }
  return directory;
}

async function expectRefusedLeavingNothing(answer: CliRun, home: string, stage: string, reason: string): Promise<void> {
  expect(answer.exitCode, answer.stderr).toBe(2);
  expect(parseJson<Refusal>(answer).refused).toMatchObject({ stage, reason });
  expect(await recordsIn(home)).toEqual([]);
  const doctor = await runStatecraft(['doctor', '--json'], { home });
  expect(doctor.exitCode, doctor.stdout).toBe(0);
  expect(parseJson<{ targets: unknown[]; findings: unknown[] }>(doctor)).toMatchObject({ targets: [], findings: [] });
}

describe('a refusal before the intent leaves nothing in the product home', () => {
  it('coverage that drifted between planning and launch (refused at launch): no target directory, nothing for doctor to list', async () => {
    const home = await freshHome();
    const repository = await repositoryWithSpec(true);
    const answer = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--spec', '004', '--json'], { home });
    await expectRefusedLeavingNothing(answer, home, 'launch', 'coverage');
  });

  it('the boundary refused at launch (no bwrap on PATH): no target directory', async () => {
    const home = await freshHome();
    const repository = await targets.fresh();
    const answer = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home,
      env: { PATH: await pathWithoutBwrap() },
    });
    await expectRefusedLeavingNothing(answer, home, 'launch', 'boundary');
  });

  it('coverage refused at planning, a target that is not a repository, a required capability not declared: nothing at all', async () => {
    const home = await freshHome();
    const repository = await repositoryWithSpec(false);
    const coverage = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--spec', '004', '--json'], {
      home,
    });
    await expectRefusedLeavingNothing(coverage, home, 'plan', 'coverage');
    const notRepository = await scratch.make('statecraft-not-a-repository');
    const target = await runStatecraft(['run', notRepository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home });
    await expectRefusedLeavingNothing(target, home, 'plan', 'target');
    // A capability required that the adapter does not declare.
    const adapter = await createCustomAdapter({ capabilities: [] });
    scratch.keep(adapter);
    const required = await runStatecraft(
      ['run', repository.path, '--adapter', adapter.executable, '--prompt', 'scenario: complete', '--require', 'tool-allowlist', '--json'],
      { home },
    );
    await expectRefusedLeavingNothing(required, home, 'plan', 'negotiation');
  });

  it("a refusal on a target whose records exist leaves them, and only them; another target's directory made for a refusal goes", async () => {
    const home = await freshHome();
    const recorded = await targets.fresh();
    const ran = await runStatecraft(['run', recorded.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home });
    expect(ran.exitCode, ran.stderr).toBe(0);
    const before = await recordsIn(home);
    const drifted = await repositoryWithSpec(true);
    const answer = await runStatecraft(['run', drifted.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--spec', '004', '--json'], { home });
    expect(answer.exitCode, answer.stderr).toBe(2);
    expect(await recordsIn(home)).toEqual(before);
    // The recorded target refused at launch (no bwrap) keeps its records as they were.
    const refusedAgain = await runStatecraft(['run', recorded.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home,
      env: { PATH: await pathWithoutBwrap() },
    });
    expect(refusedAgain.exitCode, refusedAgain.stderr).toBe(2);
    expect(await recordsIn(home)).toEqual(before);
  });

  it('accept of a run a target never recorded: refused, no target directory left', async () => {
    const home = await freshHome();
    const repository = await targets.fresh();
    const answer = await runStatecraft(['accept', repository.path, '20261202T024107Z-5e36a1', '--json'], { home });
    expect(answer.exitCode, answer.stderr).toBe(2);
    expect(await recordsIn(home)).toEqual([]);
  });
});
