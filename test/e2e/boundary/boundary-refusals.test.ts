import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureAdapterPath } from '@statecraft/adapter';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { attemptDirectoriesOf } from '../../fixtures/attempt-directories.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { STATECRAFT_BIN, parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R12: the boundary fails closed. Each path where it cannot be established — no bwrap
// on the constructed PATH, user namespaces refused, a probe that finds the profile broken — is
// refused with exit 2 and a remedy, nothing appended and the workspace withdrawn; each test also
// runs the control that shows which path ran.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

interface Refusal {
  refused: { stage: string; reason: string; message: string; detail: { reason: string; probe: { check: string; held: boolean }[] | 'not-run' } };
}

/** A directory holding only node and git (and the shells the closer and probe use): a PATH without bwrap. */
async function pathWithoutBwrap(): Promise<string> {
  const directory = await scratch.make('statecraft-no-bwrap');
  for (const program of ['node', 'git']) {
    const found = execFileSync('/bin/sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim();
    await symlink(found, join(directory, program));
  }
  return directory;
}

async function expectNothingAppended(target: string): Promise<void> {
  const list = await runStatecraft(['run', 'list', target, '--json'], { home: targets.home.path });
  expect(parseJson<{ attempts: unknown[] }>(list).attempts).toEqual([]);
  // Withdrawn: no workspace is left under .statecraft/state/workspaces.
  const workspaces = join(target, '.statecraft', 'state', 'workspaces');
  expect(existsSync(workspaces) ? await readdir(workspaces) : []).toEqual([]);
  // Nor any attempt's files in the product home.
  expect(await attemptDirectoriesOf(targets.home.path, target)).toEqual([]);
}

describe('the evidence boundary fails closed (R12)', () => {
  it('a launch with no bwrap on the constructed PATH is refused (exit 2) naming bubblewrap and --boundary none; nothing appended', async () => {
    const target = await targets.fresh();
    const bin = await pathWithoutBwrap();
    const refusedRun = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { PATH: bin },
    });
    expect(refusedRun.exitCode).toBe(2);
    const { refused } = parseJson<Refusal>(refusedRun);
    expect(refused).toMatchObject({ stage: 'launch', reason: 'boundary', detail: { reason: 'bwrap-missing', probe: 'not-run' } });
    expect(refused.message).toContain(`no bwrap on the constructed PATH (${bin})`);
    expect(refused.message).toContain('apt-get install bubblewrap');
    expect(refused.message).toContain('--boundary none');
    expect(refused.message).toContain('nothing appended');
    expect(refusedRun.stderr).toContain('install bubblewrap');
    await expectNothingAppended(target.path);

    // The control: the same PATH with --boundary none runs, and the posture says none.
    const without = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', '--boundary', 'none'], {
      home: targets.home.path,
      env: { PATH: bin },
    });
    expect(without.exitCode).toBe(0);
    expect(parseJson<{ posture: { boundary: { mechanism: string; chosenBy: string } } }>(without).posture.boundary).toMatchObject({
      mechanism: 'none',
      chosenBy: '--boundary none',
    });
    // And with bwrap back on that PATH, the boundary runs: the refusal above was the missing bwrap.
    await symlink('/usr/bin/bwrap', join(bin, 'bwrap'));
    const within = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { PATH: bin },
    });
    expect(within.exitCode).toBe(0);
    expect(parseJson<{ posture: { boundary: { mechanism: string } } }>(within).posture.boundary.mechanism).toBe('bwrap');
  });

  it('a probe that finds the profile broken (a test-only bind over the product home) refuses the launch (exit 2), naming each failed check; nothing appended, no canary left', async () => {
    const target = await targets.fresh();
    const answer = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { STATECRAFT_BOUNDARY_TEST_BIND: targets.home.path },
    });
    expect(answer.exitCode).toBe(2);
    const { refused } = parseJson<Refusal>(answer);
    expect(refused).toMatchObject({ stage: 'launch', reason: 'boundary', detail: { reason: 'probe-failed' } });
    const failed = refused.detail.probe === 'not-run' ? [] : refused.detail.probe.filter((check) => !check.held).map((check) => check.check);
    expect(failed).toEqual(['canary-by-path', 'canary-by-proc-root', 'write-product-home']);
    expect(refused.message).toContain('canary-by-path');
    expect(refused.message).toContain('unset STATECRAFT_BOUNDARY_TEST_BIND');
    expect(refused.message).toContain('--boundary none');
    await expectNothingAppended(target.path);
    const leftovers = (await readdir(targets.home.path)).filter((name) => name.startsWith('.statecraft-boundary-'));
    expect(leftovers).toEqual([]);
    // The control: without the bad bind the same launch runs under the boundary, its probe held in full.
    const control = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path });
    expect(control.exitCode).toBe(0);
    const probe = parseJson<{ posture: { boundary: { probe: { held: boolean }[] } } }>(control).posture.boundary.probe;
    expect(probe.length).toBe(11);
    expect(probe.every((check) => check.held)).toBe(true);
  });

  it('refused user namespaces (max_user_namespaces 0 in a user namespace of the test) refuse the launch (exit 2) with the sysctl and AppArmor remedy', async () => {
    const target = await targets.fresh();
    // A real refusal, not a simulated one: a user namespace whose limit for further namespaces is 0.
    const script = 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"';
    const answer = await execa(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '/bin/sh',
        '-c',
        script,
        'limit',
        STATECRAFT_BIN,
        'run',
        target.path,
        '--adapter',
        'fixture',
        '--prompt',
        'scenario: complete',
        '--json',
      ],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', STATECRAFT_HOME: targets.home.path },
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      },
    );
    expect(answer.exitCode).toBe(2);
    const { refused } = parseJson<Refusal>({ args: ['run'], exitCode: answer.exitCode ?? -1, stdout: String(answer.stdout), stderr: String(answer.stderr) });
    expect(refused).toMatchObject({ stage: 'launch', reason: 'boundary', detail: { reason: 'namespaces-refused' } });
    expect(refused.message).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
    expect(refused.message).toContain('--boundary none');
    await expectNothingAppended(target.path);
  });

  it('a --boundary or STATECRAFT_BOUNDARY value other than bwrap or none is a usage error (exit 3), never read as on or off', async () => {
    const target = await targets.fresh();
    const flag = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--boundary', 'off'], {
      home: targets.home.path,
    });
    expect(flag.exitCode).toBe(3);
    expect(flag.stderr).toContain('--boundary "off"');
    const variable = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'], {
      home: targets.home.path,
      env: { STATECRAFT_BOUNDARY: 'off' },
    });
    expect(variable.exitCode).toBe(3);
    expect(variable.stderr).toContain('STATECRAFT_BOUNDARY=off');
    await expectNothingAppended(target.path);
  });

  it('a run that requires workspace-write with --boundary none is refused before spawn (R2.3); with the boundary it is launched', async () => {
    const target = await targets.fresh();
    // The fixture's manifest, declaring workspace-write as well, so negotiation alone would accept it.
    const manifestDir = await scratch.make('statecraft-ww-manifest');
    const manifest = JSON.parse(await readFile(`${fixtureAdapterPath()}.manifest.json`, 'utf8')) as { capabilities: string[] };
    manifest.capabilities.push('workspace-write');
    const manifestPath = join(manifestDir, 'fixture.manifest.json');
    await writeFile(manifestPath, JSON.stringify(manifest));
    const args = [
      'run',
      target.path,
      '--adapter',
      fixtureAdapterPath(),
      '--manifest',
      manifestPath,
      '--prompt',
      'scenario: complete',
      '--require',
      'workspace-write',
      '--json',
    ];
    const without = await runStatecraft([...args, '--boundary', 'none'], { home: targets.home.path });
    expect(without.exitCode).toBe(2);
    const { refused } = parseJson<Refusal>(without);
    expect(refused).toMatchObject({ stage: 'plan', reason: 'negotiation' });
    expect(refused.message).toContain('workspace-write is required, but the evidence boundary is off (--boundary none)');
    await expectNothingAppended(target.path);
    // The same request with the boundary on is launched (the fixture then does not apply the token: recorded as observed).
    const within = await runStatecraft(args, { home: targets.home.path });
    expect(within.exitCode).not.toBe(2);
    const account = parseJson<{ posture: { boundary: { mechanism: string }; capabilities: { notApplied: string[] } } }>(within);
    expect(account.posture.boundary.mechanism).toBe('bwrap');
    expect(account.posture.capabilities.notApplied).toContain('workspace-write');
  });

  it('doctor and env plan say whether the boundary can be established here, and why not when bwrap is missing', async () => {
    const target = await targets.fresh();
    const here = parseJson<{ boundary: { available: boolean } }>(await runStatecraft(['doctor', '--json'], { home: targets.home.path }));
    expect(here.boundary).toMatchObject({ available: true });
    const bin = await pathWithoutBwrap();
    const doctor = await runStatecraft(['doctor'], { home: targets.home.path, env: { PATH: bin } });
    expect(doctor.stdout).toContain('boundary: cannot be established here (bwrap-missing)');
    const plan = parseJson<{ boundary: { available: boolean; reason: string; message: string } }>(
      await runStatecraft(['env', 'plan', target.path, '--adapter', 'fixture', '--json'], { home: targets.home.path, env: { PATH: bin } }),
    );
    expect(plan.boundary).toMatchObject({ available: false, reason: 'bwrap-missing' });
    expect(plan.boundary.message).toContain('install bubblewrap');
  });
});
