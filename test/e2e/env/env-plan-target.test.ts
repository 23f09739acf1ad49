import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const scratch = scratchDirectories();

describe('env plan accepts the targets run accepts, and refuses the others (R10.6, R11)', () => {
  it('a directory that is not a git repository is refused: exit 2, a refused document naming it, nothing written', async () => {
    const directory = await scratch.make('statecraft-not-a-repository');
    const answer = await runStatecraft(['env', 'plan', directory, '--adapter', 'fixture', '--json'], { home: targets.home.path });
    expect(answer.exitCode).toBe(2);
    const { refused } = parseJson<{ refused: { message: string } }>(answer);
    expect(refused.message).toContain(`${directory}: not a git repository`);
    expect(answer.stderr).toContain(`${directory}: not a git repository`);
    expect(await readdir(directory)).toEqual([]);
    expect(await readdir(targets.home.path)).toEqual([]);
  });

  it('a subdirectory of a repository plans for the repository top level, as run would work on it', async () => {
    const repository = await targets.fresh();
    await mkdir(join(repository.path, 'src'));
    const answer = await runStatecraft(['env', 'plan', join(repository.path, 'src'), '--adapter', 'fixture', '--json'], { home: targets.home.path });
    expect(answer.exitCode).toBe(0);
    expect(parseJson<{ target: string; verdict: string }>(answer)).toMatchObject({ target: repository.path, verdict: 'claimed' });
  });
});
