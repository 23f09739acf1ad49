import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFiles } from '../../fixtures/acceptance-repository.js';
import { PASSES_HOME } from '../../fixtures/managed-path-adapters.js';
import { commitRepositoryAt, useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, rowsRejoined, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Issue 29 item 15, through the built CLI: inside the boundary the operator's home is an empty
// tmpfs (their credential files out of reach), and so are root's home and every home in /home;
// only the workspace, what the adapter declares and what the operator exposes (--expose,
// read-only) show through. An ordinary session still works: the home is writable for caches, the
// operator's git identity reaches the agent, a repository inside the home can be worked on. The
// same reads under --boundary none succeed, which shows each assertion can fail.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

/** The operator's credential files, planted in the temporary home a test points HOME at. */
const CREDENTIAL_FILES = [
  '.ssh/id_rsa',
  '.netrc',
  '.aws/credentials',
  '.config/gh/hosts.yml',
  '.docker/config.json',
  '.kube/config',
  '.local/share/keyrings/login.keyring',
  '.git-credentials',
];

const OPERATOR = { name: 'Operator Person', email: 'operator@example.invalid' };

/** Places outside the operator's home: root's home (HOME is elsewhere) and another user's, planted for the file. */
const nonce = randomUUID().slice(0, 8);
const ROOT_FILE = `/root/.statecraft-test-secret-${nonce}`;
const OTHER_USER = `/home/statecraft-test-user-${nonce}`;
const OTHER_USER_FILE = join(OTHER_USER, '.ssh', 'id_ed25519');

beforeAll(async () => {
  await writeFile(ROOT_FILE, 'root secret\n');
  await mkdir(join(OTHER_USER, '.ssh'), { recursive: true });
  await writeFile(OTHER_USER_FILE, 'another user secret\n');
});
afterAll(async () => {
  await rm(ROOT_FILE, { force: true });
  await rm(OTHER_USER, { recursive: true, force: true });
});

/** A fresh operator home with credential files, a git identity and a tool's configuration. */
async function operatorHome(): Promise<string> {
  const home = await scratch.make('statecraft-operator-home');
  for (const file of CREDENTIAL_FILES) {
    await mkdir(join(home, file, '..'), { recursive: true });
    await writeFile(join(home, file), `secret of ${file}\n`);
  }
  await writeFile(join(home, '.gitconfig'), `[user]\n\tname = ${OPERATOR.name}\n\temail = ${OPERATOR.email}\n[credential]\n\thelper = store\n`);
  await mkdir(join(home, '.config', 'tool'), { recursive: true });
  await writeFile(join(home, '.config', 'tool', 'settings'), 'tool settings\n');
  return home;
}

interface Report {
  reads: Record<string, string>;
  cache: string;
  exposedWrite: string;
  identity: string;
  gitStatus: string;
}

/** An adapter whose agent tries each read, writes a cache in HOME, asks git for its identity and status, and reports. */
async function probingAdapter(reads: readonly string[], exposed: string): Promise<string> {
  const body = `
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const report = { reads: {} };
for (const file of ${JSON.stringify(reads)}) {
  try { fs.readFileSync(file); report.reads[file] = 'read'; } catch (error) { report.reads[file] = error.code; }
}
try {
  fs.mkdirSync(path.join(process.env.HOME, '.cache', 'tool'), { recursive: true });
  fs.writeFileSync(path.join(process.env.HOME, '.cache', 'tool', 'entry'), 'cached');
  report.cache = 'written';
} catch (error) { report.cache = error.code; }
try { fs.appendFileSync(${JSON.stringify(exposed)}, 'changed'); report.exposedWrite = 'written'; } catch (error) { report.exposedWrite = error.code; }
const git = (...args) => spawnSync('git', args, { encoding: 'utf8' });
const name = git('config', 'user.name'), email = git('config', 'user.email');
report.identity = name.status === 0 ? name.stdout.trim() + ' <' + email.stdout.trim() + '>' : 'none: ' + name.stderr.trim();
const status = git('status', '--porcelain');
report.gitStatus = status.status === 0 ? 'ok' : 'failed: ' + status.stderr.trim();
fs.writeFileSync('probe-report.json', JSON.stringify(report));
init();
emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });
`;
  const adapter = await createScriptedAdapter('home-probe', body);
  scratch.keep(adapter);
  const manifestFile = `${adapter.executable}.manifest.json`;
  await writeFile(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), ...PASSES_HOME }));
  return adapter.executable;
}

interface Account {
  outcome: string;
  workspace: string;
  posture: {
    boundary: {
      mechanism: string;
      profile?: { hidden: { path: string; role: string }[]; readOnly: { path: string; role: string }[] };
      probe?: { check: string; held: boolean; detail: string }[];
    };
    environment: { names: { name: string }[] };
  };
}

async function runProbe(home: string, repository: string, boundary: 'bwrap' | 'none', extra: string[] = []) {
  const reads = [
    ...CREDENTIAL_FILES.map((file) => join(home, file)),
    join(home, '.gitconfig'),
    ROOT_FILE,
    OTHER_USER_FILE,
    join(home, '.config', 'tool', 'settings'),
  ];
  const adapter = await probingAdapter(reads, join(home, '.config', 'tool', 'settings'));
  const ran = await runStatecraft(['run', repository, '--adapter', adapter, '--prompt', 'probe the home', '--json', ...extra], {
    home: targets.home.path,
    env: { HOME: home, STATECRAFT_BOUNDARY: boundary },
  });
  expect(ran.exitCode, ran.stderr).toBe(0);
  const account = parseJson<Account>(ran);
  const report = JSON.parse(readFileSync(join(account.workspace, 'probe-report.json'), 'utf8')) as Report;
  return { account, report, reads };
}

describe('the boundary hides the homes (issue 29 item 15)', () => {
  it("the operator's credential files, root's home and another user's home are unreadable; the home stays writable and the git identity reaches the agent", async () => {
    const home = await operatorHome();
    const repository = await targets.fresh();
    const { account, report } = await runProbe(home, repository.path, 'bwrap');
    for (const file of [...CREDENTIAL_FILES.map((name) => join(home, name)), join(home, '.gitconfig'), ROOT_FILE, OTHER_USER_FILE]) {
      expect(report.reads[file], `${file} was readable inside the boundary`).toBe('ENOENT');
    }
    // Not exposed: the tool's configuration is hidden too.
    expect(report.reads[join(home, '.config', 'tool', 'settings')]).toBe('ENOENT');
    expect(report.cache).toBe('written');
    // The cache went to the tmpfs, never the operator's real home.
    expect(existsSync(join(home, '.cache'))).toBe(false);
    expect(report.identity).toBe(`${OPERATOR.name} <${OPERATOR.email}>`);
    expect(report.gitStatus).toBe('ok');
    const profile = account.posture.boundary.profile;
    expect(profile?.hidden).toEqual(
      expect.arrayContaining([
        { path: home, role: 'operator-home' },
        { path: '/root', role: 'other-home' },
        { path: OTHER_USER, role: 'other-home' },
      ]),
    );
    const probe = account.posture.boundary.probe?.find((check) => check.check === 'home-hidden');
    expect(probe?.held, probe?.detail).toBe(true);
    expect(probe?.detail).toContain(`cannot open ${home}/.statecraft-home-canary-`);
    expect(account.posture.environment.names.map((entry) => entry.name)).toContain('GIT_CONFIG_GLOBAL');
  });

  it('with --boundary none the same reads succeed: the boundary is what hid them', async () => {
    const home = await operatorHome();
    const repository = await targets.fresh();
    const { report } = await runProbe(home, repository.path, 'none');
    for (const file of [join(home, '.ssh/id_rsa'), join(home, '.netrc'), ROOT_FILE, OTHER_USER_FILE]) expect(report.reads[file]).toBe('read');
  });

  it('--expose shows a path of the home read-only, and the record names it', async () => {
    const home = await operatorHome();
    const repository = await targets.fresh();
    const exposed = join(home, '.config', 'tool');
    const { account, report } = await runProbe(home, repository.path, 'bwrap', ['--expose', exposed]);
    expect(report.reads[join(exposed, 'settings')]).toBe('read');
    expect(report.exposedWrite).toBe('EROFS');
    expect(readFileSync(join(exposed, 'settings'), 'utf8')).toBe('tool settings\n');
    expect(report.reads[join(home, '.ssh/id_rsa')]).toBe('ENOENT');
    expect(account.posture.boundary.profile?.readOnly).toContainEqual({ path: exposed, role: 'operator-exposed' });
  });

  it('--expose refuses a path that does not exist, one reaching the product home, and one under --boundary none (exit 3)', async () => {
    const home = await operatorHome();
    const repository = await targets.fresh();
    for (const [path, boundary, says] of [
      [join(home, 'absent'), 'bwrap', 'does not exist'],
      [targets.home.path, 'bwrap', 'reaches the product home'],
      [join(home, '.config', 'tool'), 'none', 'nothing is hidden'],
    ] as const) {
      const ran = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--expose', path, '--json'], {
        home: targets.home.path,
        env: { HOME: home, STATECRAFT_BOUNDARY: boundary },
      });
      expect(ran.exitCode, ran.stderr).toBe(3);
      expect(ran.stderr).toContain(says);
    }
  });

  it('a repository inside the home is worked on: its workspace and git directory show through the hidden home', async () => {
    const home = await operatorHome();
    const inside = join(home, 'src', 'project');
    await mkdir(inside, { recursive: true });
    await commitRepositoryAt(inside);
    const { account, report } = await runProbe(home, inside, 'bwrap');
    expect(account.outcome).toBe('completed');
    expect(report.gitStatus).toBe('ok');
    expect(report.reads[join(home, '.ssh/id_rsa')]).toBe('ENOENT');
    expect(account.posture.boundary.profile?.readOnly).toContainEqual({ path: join(inside, '.git'), role: 'git-directory' });
    expect(account.posture.boundary.probe?.every((check) => check.held)).toBe(true);
  });

  it('env plan shows the homes hidden, the PATH tools shown of them, and what an adapter exposes', async () => {
    const home = await operatorHome();
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', '.credentials.json'), '{}\n');
    await mkdir(join(home, '.tool', 'bin'), { recursive: true });
    const repository = await targets.fresh();
    const plan = await runStatecraft(['env', 'plan', repository.path, '--adapter', 'claude-code', '--json'], {
      home: targets.home.path,
      env: { HOME: home, PATH: `${join(home, '.tool', 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
    const value = parseJson<{
      homes: { hidden: { path: string; role: string }[]; exposed: { path: string; role: string }[] };
      adapters: { name: string; exposed: { path: string; role: string }[] }[];
    }>(plan);
    expect(value.homes.hidden).toEqual(
      expect.arrayContaining([
        { path: home, role: 'operator-home' },
        { path: '/root', role: 'other-home' },
        { path: OTHER_USER, role: 'other-home' },
      ]),
    );
    expect(value.homes.exposed).toContainEqual({ path: join(home, '.tool'), role: 'path-entry' });
    expect(value.adapters.find((adapter) => adapter.name === 'claude-code')?.exposed).toEqual([
      { path: join(home, '.claude', '.credentials.json'), role: 'adapter-exposed' },
    ]);
    const human = await runStatecraft(['env', 'plan', repository.path, '--adapter', 'claude-code'], { home: targets.home.path, env: { HOME: home } });
    const rows = rowsRejoined(human.stdout, 10, 17);
    expect(rows).toContain(`hidden    ${home} (your home, an empty writable tmpfs)`);
    expect(rows).toContain(`exposed        ${join(home, '.claude', '.credentials.json')} (read-only)`);
  });

  it("accept's checks run with the homes hidden too; with --boundary none the same check reads them", async () => {
    const home = await operatorHome();
    const secrets = [join(home, '.ssh/id_rsa'), join(home, '.netrc'), ROOT_FILE, OTHER_USER_FILE];
    const script = `for f in ${secrets.join(' ')}; do if cat "$f" >/dev/null 2>&1; then echo "read $f"; exit 1; fi; done\n`;
    const repository = await targets.fresh();
    await writeFiles(repository, {
      'check.sh': script,
      '.statecraft/environment.json': `${JSON.stringify({ project: { commands: ['sh'] }, acceptance: { checks: ['sh check.sh'] } }, null, 2)}\n`,
    });
    await repository.git('add', '-A');
    await repository.git('commit', '--quiet', '-m', 'a check that reads the homes');
    const prompt = 'scenario: write\npath: answer.txt\ntext: 42\n';
    for (const [boundary, verdict] of [
      ['bwrap', 'accepted'],
      ['none', 'failed'],
    ] as const) {
      const env = { HOME: home, STATECRAFT_BOUNDARY: boundary };
      const ran = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', prompt, '--json'], { home: targets.home.path, env });
      expect(ran.exitCode, ran.stderr).toBe(0);
      const runId = parseJson<{ runId: string }>(ran).runId;
      const accepted = await runStatecraft(['accept', repository.path, runId, '--json'], { home: targets.home.path, env, timeoutMs: 120_000 });
      expect(parseJson<{ verdict: string }>(accepted).verdict, accepted.stdout).toBe(verdict);
    }
  });
});
