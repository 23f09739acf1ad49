import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { worktreeChangeSpans } from '../../fixtures/counting-git.js';
import { readChainRecords } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

// Git dies reading a worktree registration another git is still writing ("failed to read
// .git/worktrees/<id>/commondir"): two attempts of a run adding their worktrees at once refused
// one of them at random, and the run went on without it.
describe('the attempts of a run change the worktree registrations one at a time', () => {
  it('--attempts 4 --parallel 4 --accept: no worktree add, remove, prune or branch deletion starts while another runs; every attempt ran and was judged', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
    const git = await worktreeChangeSpans(scratch);
    const ran = await runStatecraft(
      [
        'run',
        repository.path,
        '--adapter',
        'fixture',
        '--attempts',
        '4',
        '--parallel',
        '4',
        '--accept',
        '--prompt',
        writePrompt('write', 'answer.txt', 'forty-two'),
        '--json',
      ],
      { home: targets.home.path, timeoutMs: 120_000, env: { PATH: `${git.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } },
    );
    expect(ran.exitCode, ran.stderr).toBe(0);
    const many = parseJson<{ chain: string; attempts: { attempt: number; verdict: string; problem?: unknown }[] }>(ran);
    expect(many.attempts.map((row) => [row.attempt, row.verdict, row.problem])).toEqual([1, 2, 3, 4].map((attempt) => [attempt, 'accepted', undefined]));
    const kinds = (await readChainRecords(many.chain)).map(({ record }) => record.kind);
    expect(kinds.filter((kind) => kind === 'intent')).toHaveLength(4);

    const spans = (await readFile(git.log, 'utf8')).split('\n').filter((line) => line !== '');
    // Four worktrees added for the attempts, four for their checks, and those four removed by git or beside it.
    expect(spans.filter((line) => / worktree add /.test(line))).toHaveLength(8);
    let open: string | undefined;
    for (const line of spans) {
      const [edge, pid] = line.split(' ');
      if (edge === 'begin') {
        expect(open, `${line}\nbegan while ${open ?? ''} ran:\n${spans.join('\n')}`).toBeUndefined();
        open = line;
      } else {
        expect(open?.split(' ')[1]).toBe(pid);
        open = undefined;
      }
    }
  });
});
