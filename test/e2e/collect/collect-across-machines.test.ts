import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { signingKeyPaths } from '@statecraft/records';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import type { SampleRepository } from '../../fixtures/sample-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { relinkChain } from '../../fixtures/relink-chain.js';

// A run group spread over machines, simulated on this one: each "machine" its own product home,
// clone of the origin repository and signing key; one attempt on each with the group and index an
// engine would set; each exported; collected on a fresh home; the chosen candidate landed into the
// origin. Then bundles that must not be believed or ranked with the group are refused by name.

interface Collected {
  group: string;
  baseCommit: string;
  ranked: { bundle: string; digest: string; index: number; runId: string; attempt: number; key: { verdict: string }; chosen: boolean }[];
  refused: { bundle: string; why: string }[];
  record: { line: number; sha256: string };
}
interface Machine {
  home: string;
  clone: string;
  bundle: string;
  key: string;
}

const targets = useTestTargets({ sharedRepository: false });
let scratch: DirectoryResult;
let origin: SampleRepository;
const machines: Machine[] = [];
let base: string;

const git = async (cwd: string, ...args: string[]): Promise<string> =>
  (await execa('git', ['-c', 'user.name=machine', '-c', 'user.email=machine@example.invalid', ...args], { cwd })).stdout;

/** One machine: its home and key, a clone of `from`, one attempt of `group` writing `text`, exported. */
async function machine(name: string, from: string, text: string, group: readonly string[], env: Record<string, string> = {}): Promise<Machine> {
  const home = join(scratch.path, name, 'home');
  const clone = join(scratch.path, name, 'clone');
  await git(scratch.path, 'clone', '--quiet', from, clone);
  expect((await runStatecraft(['keys', 'generate'], { home })).exitCode).toBe(0);
  const ran = await runStatecraft(
    ['run', clone, '--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', text), ...group, '--json'],
    {
      home,
      env,
      timeoutMs: 120_000,
    },
  );
  expect([0, 1], ran.stderr).toContain(ran.exitCode);
  const bundle = join(scratch.path, `${name}.tar`);
  const exported = await runStatecraft(['export', clone, 'latest', '-o', bundle], { home });
  expect(exported.exitCode, exported.stderr).toBe(0);
  return { home, clone, bundle, key: signingKeyPaths(home).publicKey };
}

const trusting = (...of: readonly Machine[]): string[] => of.flatMap((one) => ['--trust', one.key]);

async function collect(bundles: readonly string[], trust: readonly Machine[], ...extra: string[]) {
  const home = join(scratch.path, `collector-${Math.random().toString(36).slice(2)}`);
  return runStatecraft(['collect', ...bundles, origin.path, ...trusting(...trust), ...extra, '--json'], { home, timeoutMs: 60_000 });
}

beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true });
  origin = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
  base = (await origin.git('rev-parse', 'HEAD')).trim();
  const group = (index: number) => ['--group', 'g', '--index', String(index), '--attempts', '3'];
  machines.push(await machine('machine-0', origin.path, 'forty-one', group(0)));
  machines.push(await machine('machine-1', origin.path, 'forty-two', group(1)));
  // The index as a Kubernetes Indexed Job gives it: JOB_COMPLETION_INDEX, no --index.
  machines.push(await machine('machine-2', origin.path, 'forty-three', ['--group', 'g', '--attempts', '3'], { JOB_COMPLETION_INDEX: '2' }));
}, 600_000);
afterAll(async () => scratch.cleanup());

describe('statecraft collect: a run group over three machines', () => {
  it('ranks the three attempts, records the selection in a fresh home, and lands the chosen one into the origin', async () => {
    const home = join(scratch.path, 'collector');
    const bundles = machines.map((one) => one.bundle);
    const collected = await runStatecraft(['collect', ...bundles, origin.path, ...trusting(...machines), '--json'], { home, timeoutMs: 60_000 });
    expect(collected.exitCode, collected.stderr).toBe(0);
    const value = parseJson<Collected>(collected);
    expect(value.group).toBe('g');
    expect(value.baseCommit).toBe(base);
    expect(value.refused).toEqual([]);
    const rows = value.ranked.map((attempt) => [attempt.index, attempt.key.verdict, attempt.chosen]);
    expect(rows[0]).toEqual([1, 'accepted', true]);
    // The two that failed differ only in time taken: their order is the rule's, not asserted here.
    expect(rows.slice(1).sort()).toEqual([
      [0, 'failed', false],
      [2, 'failed', false],
    ]);
    // The selection is the collecting home's record, for the origin.
    const [directory] = readdirSync(join(home, 'targets'));
    const lines = readFileSync(join(home, 'targets', directory ?? '', 'chain.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const selection = JSON.parse(lines.at(-1) ?? '') as { kind: string; runId: string; chosen: { runId: string }; ranked: { bundle?: { index: number } }[] };
    expect(selection.kind).toBe('selection');
    expect(selection.runId).toBe('g');
    expect(selection.chosen.runId).toBe(value.ranked[0]?.runId);
    expect(selection.ranked.map((entry) => entry.bundle?.index)).toEqual(value.ranked.map((attempt) => attempt.index));
    expect(value.record.line).toBe(lines.length);

    const text = await runStatecraft(['collect', ...bundles, origin.path, ...trusting(...machines)], { home: join(scratch.path, 'collector-text') });
    expect(text.stdout).toContain('group g: 3 attempts ranked, 0 bundles refused');
    for (const line of text.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    const landed = await runStatecraft(
      ['land', origin.path, '--group', 'g', ...bundles.flatMap((bundle) => ['--bundle', bundle]), ...trusting(...machines), '--json'],
      {
        home,
        timeoutMs: 60_000,
      },
    );
    expect(landed.exitCode, landed.stderr).toBe(0);
    const land = parseJson<{ runId: string; candidate: string; commit: string }>(landed);
    expect(land.runId).toBe(value.ranked[0]?.runId);
    expect(readFileSync(join(origin.path, 'answer.txt'), 'utf8').trim()).toBe('forty-two');
    expect((await origin.git('rev-parse', 'HEAD')).trim()).toBe(land.commit);
    expect((await origin.git('merge-base', '--is-ancestor', land.candidate, 'HEAD')).trim()).toBe('');
    const again = await runStatecraft(['land', origin.path, '--group', 'g', '--bundle', machines[1]?.bundle ?? '', ...trusting(...machines)], { home });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already landed');
  });

  it('refuses, by its path, a bundle with one byte changed', async () => {
    const [zero, one] = machines as [Machine, Machine, Machine];
    const tampered = join(scratch.path, 'tampered.tar');
    const bytes = readFileSync(one.bundle);
    const at = bytes.indexOf('text: forty-two');
    expect(at).toBeGreaterThan(0);
    bytes[at + 'text: forty-'.length] = 'x'.charCodeAt(0);
    writeFileSync(tampered, bytes);
    const collected = await collect([zero.bundle, tampered], machines);
    expect(collected.exitCode, collected.stderr).toBe(1);
    const value = parseJson<Collected>(collected);
    expect(value.refused).toEqual([{ bundle: tampered, why: expect.stringMatching(/^does not verify: .*sha256/) as unknown }]);
    expect(value.ranked.map((attempt) => attempt.bundle)).toEqual([zero.bundle]);
  });

  it('refuses, by its path, a bundle of another base, and one of another repository', async () => {
    const [, one] = machines as [Machine, Machine, Machine];
    const moved = join(scratch.path, 'moved-origin');
    await git(scratch.path, 'clone', '--quiet', origin.path, moved);
    writeFileSync(join(moved, 'notes.txt'), 'another base\n');
    await git(moved, 'add', 'notes.txt');
    await git(moved, 'commit', '--quiet', '-m', 'another base');
    const otherBase = await machine('machine-other-base', moved, 'forty-two', ['--group', 'g', '--index', '0', '--attempts', '3']);
    const unrelated = join(scratch.path, 'unrelated');
    await git(scratch.path, 'init', '--quiet', unrelated);
    writeFileSync(join(unrelated, 'README.md'), 'unrelated\n');
    await git(unrelated, 'add', 'README.md');
    await git(unrelated, 'commit', '--quiet', '-m', 'unrelated');
    const otherRepository = await machine('machine-other-repository', unrelated, 'forty-two', ['--group', 'g', '--index', '2', '--attempts', '3']);

    const collected = await collect([one.bundle, otherBase.bundle], [one, otherBase]);
    expect(collected.exitCode, collected.stderr).toBe(1);
    expect(parseJson<Collected>(collected).refused).toEqual([
      { bundle: otherBase.bundle, why: `starts from base ${await git(moved, 'rev-parse', 'HEAD')}, not ${base} (the base of ${one.bundle})` },
    ]);

    // Alone, the unrelated bundle has no other to differ from: the target repository does not hold its base.
    const alone = await collect([otherRepository.bundle], [otherRepository]);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain(otherRepository.bundle);
    expect(alone.stderr).toContain('which is not a commit of');
  });

  it('refuses, by its path, a bundle of another group, and one that is no group attempt', async () => {
    const [zero, one] = machines as [Machine, Machine, Machine];
    const otherGroup = await machine('machine-other-group', origin.path, 'forty-two', ['--group', 'h', '--index', '2', '--attempts', '3']);
    const noGroup = await machine('machine-no-group', origin.path, 'forty-two', []);
    const collected = await collect([otherGroup.bundle, zero.bundle, one.bundle, noGroup.bundle], [zero, one, otherGroup, noGroup], '--group', 'g');
    expect(collected.exitCode, collected.stderr).toBe(1);
    const value = parseJson<Collected>(collected);
    expect(value.refused).toEqual([
      { bundle: otherGroup.bundle, why: 'belongs to group h, not g' },
      { bundle: noGroup.bundle, why: 'belongs to no group: its attempt was not run with --group' },
    ]);
    expect(value.ranked.map((attempt) => attempt.index)).toEqual([1, 0]);
    // The same index twice: one attempt per index.
    const twice = await collect([one.bundle, one.bundle], [one]);
    expect(parseJson<Collected>(twice).refused).toEqual([{ bundle: one.bundle, why: `is attempt 1 of the group, which ${one.bundle} already is` }]);
  });

  it('refuses, by its path, a bundle signed by a key that is not trusted, and lands nothing from it', async () => {
    const [zero, one, two] = machines as [Machine, Machine, Machine];
    const collected = await collect([zero.bundle, one.bundle, two.bundle], [zero, two]);
    expect(collected.exitCode, collected.stderr).toBe(1);
    const value = parseJson<Collected>(collected);
    expect(value.refused).toEqual([{ bundle: one.bundle, why: expect.stringContaining('which is not a trusted key') as unknown }]);
    expect(value.ranked.map((attempt) => attempt.key.verdict)).toEqual(['failed', 'failed']);

    // A copy of the chosen bundle under another name is the same bundle; an untrusted key still lands nothing.
    const home = join(scratch.path, 'collector-untrusted');
    expect((await runStatecraft(['collect', one.bundle, origin.path, ...trusting(one)], { home })).exitCode).toBe(0);
    const copy = join(scratch.path, 'copy-of-one.tar');
    copyFileSync(one.bundle, copy);
    const landed = await runStatecraft(['land', origin.path, '--group', 'g', '--bundle', copy, ...trusting(zero)], { home });
    expect(landed.exitCode).toBe(2);
    expect(landed.stderr).toContain(`${copy} does not verify`);
    expect(landed.stderr).toContain('nothing landed');

    // A group this home never collected, and --bundle without --group: nothing to take, said.
    const never = await runStatecraft(['land', origin.path, '--group', 'never', '--bundle', copy, ...trusting(one)], { home });
    expect(never.exitCode).toBe(2);
    expect(never.stderr).toContain('group never was never collected');
    const loose = await runStatecraft(['land', origin.path, 'latest', '--bundle', copy], { home });
    expect(loose.exitCode).toBe(3);
    expect(loose.stderr).toContain('--bundle and --trust apply only with --group');
  });

  it('names a git bundle that is not the candidate its records name, and collect refuses its bundle', async () => {
    const [zero, one] = machines as [Machine, Machine, Machine];
    const swapped = join(scratch.path, 'swapped');
    const donor = join(scratch.path, 'donor');
    for (const [from, to] of [
      [zero.bundle, swapped],
      [one.bundle, donor],
    ] as const) {
      mkdirSync(to);
      await execa('tar', ['-xf', from, '-C', to]);
    }
    // Another attempt's candidate, resealed into the manifest as a forger without the key would.
    const bytes = readFileSync(join(donor, 'candidate.bundle'));
    writeFileSync(join(swapped, 'candidate.bundle'), bytes);
    const manifest = JSON.parse(readFileSync(join(swapped, 'manifest.json'), 'utf8')) as { files: { path: string; sha256: string; bytes: number }[] };
    const entry = manifest.files.find((file) => file.path === 'candidate.bundle');
    expect(entry).toBeDefined();
    if (entry !== undefined) Object.assign(entry, { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
    writeFileSync(join(swapped, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    rmSync(join(swapped, 'manifest.sigstore.json'));
    const verified = await runStatecraft(['verify', swapped, '--json'], { home: join(scratch.path, 'no-home') });
    expect(verified.exitCode).toBe(1);
    expect(parseJson<{ findings: { check: string; file: string; message: string }[] }>(verified).findings).toContainEqual(
      expect.objectContaining({ check: 'candidate', file: 'candidate.bundle', message: expect.stringMatching(/not the candidate/) as unknown }),
    );
    const collected = await collect([one.bundle, swapped], machines);
    expect(parseJson<Collected>(collected).refused).toEqual([{ bundle: swapped, why: expect.stringMatching(/^does not verify: /) as unknown }]);
  });

  it('says what to do when the group, index and attempts do not go together (exit 3)', async () => {
    const [zero] = machines as [Machine, Machine, Machine];
    const cases: [string[], Record<string, string>, string][] = [
      [['--group', 'g', '--attempts', '3'], {}, '--group needs --index'],
      [['--group', 'g', '--index', '1'], {}, '--index needs --attempts'],
      [['--group', 'g', '--attempts', '3'], { JOB_COMPLETION_INDEX: '1' }, ''],
      [['--index', '1', '--attempts', '3'], {}, '--index needs --group'],
      [['--group', 'g', '--index', '3', '--attempts', '3'], {}, '--index 3: not below --attempts 3'],
      [['--group', 'g', '--attempts', '3'], { JOB_COMPLETION_INDEX: '7' }, 'JOB_COMPLETION_INDEX 7: not below --attempts 3'],
      [['--group', 'g/h', '--index', '0', '--attempts', '3'], {}, 'not a group id'],
    ];
    for (const [flags, env, said] of cases) {
      const ran = await runStatecraft(['run', zero.clone, '--adapter', 'fixture', '--prompt', 'scenario: refuse', ...flags], { home: zero.home, env });
      if (said === '') expect(ran.exitCode, ran.stderr).not.toBe(3);
      else {
        expect(ran.exitCode, `${flags.join(' ')}: ${ran.stderr}`).toBe(3);
        expect(ran.stderr).toContain(said);
      }
    }
  });

  it('a landing refused after it fetched the candidate (a dirty checkout, then one already holding it) leaves no branch of it behind', async () => {
    const bundles = machines.map((one) => one.bundle);
    const clone = join(scratch.path, 'operator-clone');
    await git(scratch.path, 'clone', '--quiet', origin.path, clone);
    // At the base, whatever an earlier test landed into the origin.
    await git(clone, 'reset', '--quiet', '--hard', base);
    const home = join(scratch.path, 'collector-refused-landing');
    expect((await runStatecraft(['collect', ...bundles, clone, ...trusting(...machines)], { home, timeoutMs: 60_000 })).exitCode).toBe(0);
    const branches = () => git(clone, 'for-each-ref', '--format=%(refname)', 'refs/heads/statecraft/');
    const land = () => runStatecraft(['land', clone, '--group', 'g', ...bundles.flatMap((bundle) => ['--bundle', bundle]), ...trusting(...machines)], { home });

    writeFileSync(join(clone, 'README.md'), 'the operator, mid-edit\n');
    const dirty = await land();
    expect(dirty.exitCode, dirty.stderr).toBe(2);
    expect(dirty.stderr).toContain('uncommitted changes');
    expect(await branches()).toBe('');

    await git(clone, 'checkout', '--quiet', '--', 'README.md');
    const landed = await land();
    expect(landed.exitCode, landed.stderr).toBe(0);
    const holding = await git(clone, 'rev-parse', 'HEAD');
    // Landed already, and this home's land record removed from sight by a fresh home: refused after the fetch.
    const other = join(scratch.path, 'collector-refused-landing-2');
    expect((await runStatecraft(['collect', ...bundles, clone, ...trusting(...machines)], { home: other, timeoutMs: 60_000 })).exitCode).toBe(0);
    const fetchedBefore = await branches();
    await git(clone, 'branch', '-D', fetchedBefore.replace('refs/heads/', ''));
    const again = await runStatecraft(['land', clone, '--group', 'g', ...bundles.flatMap((bundle) => ['--bundle', bundle]), ...trusting(...machines)], {
      home: other,
    });
    expect(again.exitCode, again.stderr).toBe(2);
    expect(await branches()).toBe('');
    expect(await git(clone, 'rev-parse', 'HEAD')).toBe(holding);
  });

  it("never moves a branch of the target's own: a trusted bundle whose records name one is refused by collect and land", async () => {
    // A signer the operator trusts, whose records name the target's `release` instead of the run's
    // own branch: before judging, the intent is rewritten and relinked, so the receipt and the
    // export's signature are over the rewritten records.
    const home = join(scratch.path, 'forger', 'home');
    const clone = join(scratch.path, 'forger', 'clone');
    await git(scratch.path, 'clone', '--quiet', origin.path, clone);
    await git(clone, 'reset', '--quiet', '--hard', base);
    expect((await runStatecraft(['keys', 'generate'], { home })).exitCode).toBe(0);
    const ran = await runStatecraft(
      [
        'run',
        clone,
        '--adapter',
        'fixture',
        '--prompt',
        writePrompt('write', 'answer.txt', 'forty-two'),
        '--group',
        'forged',
        '--index',
        '0',
        '--attempts',
        '1',
        '--json',
      ],
      { home, timeoutMs: 120_000 },
    );
    expect(ran.exitCode, ran.stderr).toBe(0);
    const runId = parseJson<{ runId: string }>(ran).runId;
    const chain = parseJson<{ records: { chain: string } }>(ran).records.chain;
    await git(clone, 'branch', 'release', `statecraft/${runId}`);
    await relinkChain(chain, (record) => (record.kind === 'intent' ? { ...record, branch: 'release' } : record));
    expect((await runStatecraft(['accept', clone, runId], { home })).exitCode).toBe(0);
    const bundle = join(scratch.path, 'forged.tar');
    expect((await runStatecraft(['export', clone, runId, '-o', bundle], { home })).exitCode).toBe(0);

    const target = join(scratch.path, 'operator-with-release');
    await git(scratch.path, 'clone', '--quiet', origin.path, target);
    await git(target, 'reset', '--quiet', '--hard', base);
    await git(target, 'branch', 'release', base);
    const key = ['--trust', signingKeyPaths(home).publicKey];
    const collector = join(scratch.path, 'collector-forged');
    const collected = await runStatecraft(['collect', bundle, target, ...key, '--json'], { home: collector, timeoutMs: 60_000 });
    expect(collected.stdout, collected.stderr).toContain('its records name the branch release');
    const landed = await runStatecraft(['land', target, '--group', 'forged', '--bundle', bundle, ...key], { home: collector });
    expect(landed.exitCode, landed.stdout).toBe(2);
    expect(await git(target, 'rev-parse', 'release')).toBe(base);
    expect(await git(target, 'rev-parse', 'HEAD')).toBe(base);
  });
});
