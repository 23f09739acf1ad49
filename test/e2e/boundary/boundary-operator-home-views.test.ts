import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { STATECRAFT_BIN, parseJson, statecraftEnvironment, type CliRun } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

// Hostile pass (the operator's secrets): the boundary hides the operator's home (and /root, each of
// /home) by its path only. Where the home is also reached under another path — a bind mount of the
// home or of a parent elsewhere, as a server's `/srv/home` bound at `/home` or a Docker volume makes —
// bwrap's `--ro-bind / /` carries that mount into the sandbox, and the agent read a file planted in
// the operator's home whole through it, while the probe passed. (The product home has been hidden
// through such mounts since decision 0281; the homes were not.) The mounts are real, made in a mount
// namespace of each run (`unshare --user --map-root-user --mount`), as boundary-home-views.test.ts
// makes them where the host refuses.

const scratch = scratchDirectories();
const base = realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-operator-home-views-')));
const source = join(base, 'srv');
const alias = join(base, 'alias');
const operatorHome = join(source, 'alice');
const secret = 'the operator secret, never to be read inside\n';

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function statecraftWithAlias(args: readonly string[], productHome: string): Promise<CliRun> {
  const command = [
    '--user',
    '--map-root-user',
    '--mount',
    '/bin/sh',
    '-c',
    'mount --bind "$1" "$2" && shift 2 && exec "$@"',
    'bind',
    source,
    alias,
    STATECRAFT_BIN,
    ...args,
  ];
  const ran = await execa('unshare', command, {
    env: statecraftEnvironment(productHome, { HOME: operatorHome }),
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  return { args, exitCode: ran.exitCode ?? -1, stdout: String(ran.stdout), stderr: String(ran.stderr) };
}

describe('statecraft run: the operator’s home stays hidden under every path that reaches it', () => {
  it('a file planted in the operator’s home is not read through a bind mount of its parent elsewhere', async () => {
    mkdirSync(join(operatorHome, '.ssh'), { recursive: true });
    mkdirSync(alias, { recursive: true });
    writeFileSync(join(operatorHome, '.ssh', 'id_ed25519'), secret);
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const productHome = await createProductHome();
    scratch.keep(productHome);
    const through = join(alias, 'alice', '.ssh', 'id_ed25519');
    const prompt = ['scenario: attack', `read: ${through}`, `read: ${join(operatorHome, '.ssh', 'id_ed25519')}`].join('\n');
    const answer = await statecraftWithAlias(['run', repository.path, '--adapter', 'fixture', '--json', '--prompt', prompt], productHome.path);
    const value = parseJson<{ outcome: string; workspace: string; posture: { boundary: { mechanism: string } } }>(answer);
    expect(value.posture.boundary.mechanism).toBe('bwrap');
    expect(value.outcome, answer.stderr).toBe('completed');
    const stolen = join(value.workspace, 'statecraft-stolen.txt');
    expect(existsSync(stolen) ? 'read' : 'not read').toBe('not read');
  }, 150_000);
});
