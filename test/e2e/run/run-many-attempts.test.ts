import { describe, expect, it } from 'vitest';
import { createCustomAdapter } from '../../fixtures/custom-adapter.js';
import { createPerAttemptAdapter } from '../../fixtures/per-attempt-adapter.js';
import { linkedChainRecords, readChainRecords } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

// `run --attempts N`: several attempts of one run, end to end through the built CLI.

interface Row {
  attempt: number;
  adapter: string;
  workspace: string;
  branch: string;
  outcome: string;
  cause: string;
  verdict: string;
  problem?: { kind: string; message: string };
}
interface Many {
  runId: string;
  chain: string;
  parallel: number;
  attempts: Row[];
  selection: 'none' | { line: number; sha256: string; chosen: number; rule: { version: number }; ranked: { attempt: number }[] };
}
interface ChainLine {
  prev: string;
  seq: number;
  kind: string;
  runId?: string;
  attempt?: number;
  adapter?: { name: string };
  intent?: string;
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 120_000 });

const linkedChain = (chain: string): ChainLine[] => linkedChainRecords<ChainLine>(chain);

const kinds = (records: readonly ChainLine[]) => records.map((record) => record.kind).sort();

describe('run --attempts N', () => {
  it('three attempts in parallel: each its own worktree and branch, one chain of 3 intents, 3 outcomes and 1 selection, every link in place', async () => {
    const target = await targets.fresh();
    const adapter = await createPerAttemptAdapter('staggered', { 1: { waitMs: 900 }, 2: { waitMs: 100 }, 3: { waitMs: 500 } });
    try {
      const ran = await runStatecraft(['run', target.path, '--adapter', adapter.executable, '--attempts', '3', '--prompt', 'work', '--json'], home());
      expect(ran.exitCode, ran.stderr).toBe(0);
      const many = parseJson<Many>(ran);
      expect(many.parallel).toBe(3);
      expect(many.attempts.map((row) => [row.attempt, row.outcome])).toEqual([
        [1, 'completed'],
        [2, 'completed'],
        [3, 'completed'],
      ]);
      // Each attempt has its own place: the run's for the first, <run>-<n> beside it for the others.
      expect(many.attempts.map((row) => row.branch)).toEqual([`statecraft/${many.runId}`, `statecraft/${many.runId}-2`, `statecraft/${many.runId}-3`]);
      expect(new Set(many.attempts.map((row) => row.workspace)).size).toBe(3);
      const branches = await target.git('branch', '--list', 'statecraft/*', '--format=%(refname:short)');
      expect(branches.split('\n').sort()).toEqual(many.attempts.map((row) => row.branch).sort());
      const worktrees = await target.git('worktree', 'list', '--porcelain');
      for (const row of many.attempts) expect(worktrees).toContain(`worktree ${row.workspace}`);

      const records = linkedChain(many.chain);
      expect(kinds(records)).toEqual(['intent', 'intent', 'intent', 'outcome', 'outcome', 'outcome', 'selection']);
      expect(records.at(-1)?.kind).toBe('selection');
      // Every outcome names its own attempt's intent.
      const digests = (await readChainRecords(many.chain)).map(({ digest }) => digest);
      for (const record of records) {
        if (record.kind !== 'outcome') continue;
        const intent = records[digests.indexOf(record.intent ?? '')];
        expect([intent?.kind, intent?.attempt]).toEqual(['intent', record.attempt]);
      }
      expect(many.selection !== 'none' && many.selection.line).toBe(7);
      // Same outcome, refusals, change and cost: the shortest attempt ranks first.
      expect(many.selection !== 'none' && many.selection.chosen).toBe(2);

      const doctor = await runStatecraft(['doctor'], home());
      expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
      for (const row of many.attempts) {
        const shown = await runStatecraft(['run', 'show', target.path, many.runId, '--attempt', String(row.attempt), '--json'], home());
        expect(shown.exitCode, shown.stderr).toBe(0);
        expect(parseJson<{ branch: string; artifactCheck: Record<string, string> }>(shown).branch).toBe(row.branch);
      }
      // A person reading attempt 2 is told the commands that name it, not the run's latest attempt.
      const told = await runStatecraft(['run', 'show', target.path, many.runId, '--attempt', '2'], home());
      expect(told.stdout.replace(/\\\n\s+/g, '')).toContain(`statecraft accept ${target.path} ${many.runId} --attempt 2`);
      // The table: one row per attempt, the chosen one marked, within 80 columns.
      const text = await runStatecraft(['run', target.path, '--adapter', adapter.executable, '--attempts', '2', '--prompt', 'work'], home());
      expect(text.exitCode, text.stderr).toBe(0);
      const lines = text.stdout.split('\n').filter((line) => line !== '');
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
      expect(lines.filter((line) => /^[* ] \d+ /.test(line))).toHaveLength(2);
      expect(lines.filter((line) => line.startsWith('* '))).toHaveLength(1);
      expect(text.stdout).toMatch(/next: statecraft run show /);
    } finally {
      await adapter.remove();
    }
  });

  it('--adapter A --adapter B --attempts 4 assigns A, B, A, B; a retry continues the run; prune removes every worktree and branch of it', async () => {
    const target = await targets.fresh();
    const other = await createCustomAdapter({ name: 'second' });
    try {
      const ran = await runStatecraft(
        [
          'run',
          target.path,
          '--adapter',
          'fixture',
          '--adapter',
          other.executable,
          '--attempts',
          '4',
          '--parallel',
          '2',
          '--prompt',
          'scenario: complete',
          '--json',
        ],
        home(),
      );
      expect(ran.exitCode, ran.stderr).toBe(0);
      const many = parseJson<Many>(ran);
      expect(many.parallel).toBe(2);
      expect(many.attempts.map((row) => row.adapter)).toEqual(['fixture', 'second', 'fixture', 'second']);
      const intents = linkedChain(many.chain).filter((record) => record.kind === 'intent');
      expect(intents.map((intent) => [intent.attempt, intent.adapter?.name]).sort()).toEqual([
        [1, 'fixture'],
        [2, 'second'],
        [3, 'fixture'],
        [4, 'second'],
      ]);
      // A retry is one more attempt of the run, in the run's own worktree, numbered after the four.
      const retried = await runStatecraft(['run', target.path, '--retry', many.runId, '--json'], home());
      expect(retried.exitCode, retried.stderr).toBe(0);
      expect(parseJson<{ runId: string; attempt: number; branch: string }>(retried)).toMatchObject({
        runId: many.runId,
        attempt: 5,
        branch: `statecraft/${many.runId}`,
      });
      linkedChain(many.chain);
      const pruned = await runStatecraft(['prune', target.path, '--older-than', '0s', '--json'], home());
      expect(pruned.exitCode, pruned.stderr).toBe(0);
      expect(await target.git('branch', '--list', 'statecraft/*')).toBe('');
      expect(await target.git('worktree', 'list', '--porcelain')).not.toContain('.statecraft/state/workspaces');
    } finally {
      await other.remove();
    }
  });

  it.each([
    [['--attempts', '0'], '--attempts'],
    [['--parallel', '2'], '--parallel applies only with --attempts'],
    [['--attempts', '1', '--adapter', 'fixture'], '--adapter is given 2 times for 1 attempts'],
    [['--attempts', '2', '--retry', 'latest'], '--attempts cannot be given with --retry'],
  ])('run … %j is a usage error (exit 3), nothing appended', async (flags, said) => {
    const target = await targets.fresh();
    const ran = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', ...flags], home());
    expect(ran.exitCode, ran.stderr).toBe(3);
    expect(ran.stderr).toContain(said);
  });

  it('the run holds the target for all its attempts; Ctrl-C cancels every attempt: each is recorded cancelled, and the run still appends its selection', async () => {
    const target = await targets.fresh();
    const adapter = await createPerAttemptAdapter('hanging', { 1: { hang: true }, 2: { hang: true }, 3: { hang: true } });
    try {
      const started = startStatecraft(
        ['run', target.path, '--adapter', adapter.executable, '--attempts', '3', '--deadline', '120s', '--prompt', 'work', '--json'],
        home(),
      );
      await untilIntents(target.path, 3);
      // The run holds the target, not one of its attempts: another run is refused naming it.
      const other = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], home());
      expect(other.exitCode, other.stderr).toBe(2);
      expect(parseJson<{ refused: { reason: string; message: string } }>(other).refused).toMatchObject({
        reason: 'live-attempt',
        message: expect.stringMatching(/^run \S+ \(3 attempts\) holds this target/) as unknown,
      });
      started.kill('SIGINT');
      const ran = await finishedRun(started);
      expect(ran.exitCode, ran.stderr).toBe(1);
      const many = parseJson<Many>(ran);
      expect(many.attempts.map((row) => row.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(kinds(linkedChain(many.chain))).toEqual(['intent', 'intent', 'intent', 'outcome', 'outcome', 'outcome', 'selection']);
    } finally {
      await adapter.remove();
    }
  });

  it('an attempt killed by its deadline while the others complete: interrupted, the others completed, one completed attempt chosen', async () => {
    const target = await targets.fresh();
    const adapter = await createPerAttemptAdapter('one-hangs', { 1: { waitMs: 200 }, 2: { hang: true }, 3: { waitMs: 400 } });
    try {
      const ran = await runStatecraft(
        ['run', target.path, '--adapter', adapter.executable, '--attempts', '3', '--deadline', '3s', '--prompt', 'work', '--json'],
        home(),
      );
      expect(ran.exitCode, ran.stderr).toBe(0);
      const many = parseJson<Many>(ran);
      expect(many.attempts.map((row) => [row.outcome, row.cause])).toEqual([
        ['completed', 'none'],
        ['interrupted', 'deadline'],
        ['completed', 'none'],
      ]);
      expect(many.selection !== 'none' && many.selection.ranked.map((entry) => entry.attempt).at(-1)).toBe(2);
      expect(kinds(linkedChain(many.chain))).toEqual(['intent', 'intent', 'intent', 'outcome', 'outcome', 'outcome', 'selection']);
    } finally {
      await adapter.remove();
    }
  });
});

/** Polls `run list` until the target has `count` attempts running (their intents appended), or 30 s pass. */
async function untilIntents(target: string, count: number): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const listing = await runStatecraft(['run', 'list', target, '--json'], home());
    if (
      listing.exitCode === 0 &&
      parseJson<{ attempts: { state: string }[] }>(listing).attempts.filter((attempt) => attempt.state === 'running').length >= count
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${target}: ${count} attempts were not running within 30 s`);
}
