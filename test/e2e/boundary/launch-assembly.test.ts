import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { superviseAdapter, superviseCheck } from '@statecraft/run';
import type { EstablishedBoundary } from '@statecraft/environment';
import { fixtureAdapterPath } from '@statecraft/adapter';
import { describe, expect, it } from 'vitest';
import { establishedLaunch } from '../../fixtures/established-boundary.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

// R12: bwrap binds each path by descriptor and dies when what it mounted is not what it was handed
// (a path it binds changed under it while it assembled the sandbox). The probe's sandbox held; the
// launch's, assembled beside it, may not. Such a launch started nothing, and says so before its
// gate opens: `run` refuses it before its intent, and a check is one that could not be started —
// never an attempt that ran and crashed, nor a check that ran and failed. A sandbox bwrap cannot
// assemble is made here by one bind whose source is not there.
const scratch = scratchDirectories();
const PROMPT = 'scenario: complete';

/** The same sandbox, less assemblable: one more bind, of a source that is not there. */
function unassemblable(boundary: EstablishedBoundary): EstablishedBoundary {
  return { ...boundary, args: [...boundary.args, '--ro-bind', '/statecraft-no-such-source', '/statecraft-no-such-source'] };
}

describe("a launch's sandbox that bwrap could not assemble (R12)", () => {
  it.each([
    ['is told as not assembled, with what bwrap said, before its gate opens; withdrawn, the adapter never ran', 'not'],
    ['is told as assembled once its closer waits at the gate; the adapter then runs to its end', 'assembled'],
  ])(
    'an adapter %s',
    async (_, how) => {
      const set = await establishedLaunch(scratch, 'statecraft-launch-assembly-', PROMPT);
      const boundary = how === 'not' ? unassemblable(set.boundary) : set.boundary;
      let settle: (go: boolean) => void = () => undefined;
      const gate = new Promise<boolean>((resolve) => {
        settle = resolve;
      });
      let told: Promise<unknown> | undefined;
      const supervising = superviseAdapter({
        executable: fixtureAdapterPath(),
        args: ['run', '--request', set.requestFile],
        workspace: set.workspace,
        environment: set.environment,
        prompt: PROMPT,
        deadlineMs: 30_000,
        attemptTag: `statecraft-assembly-test-${Date.now()}`,
        streamFile: join(set.records, 'stream.ndjson'),
        stderrFile: join(set.records, 'stderr.log'),
        boundary,
        gate,
        onAssembly: (assembled) => {
          told = assembled;
        },
      });
      for (let waited = 0; told === undefined && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const assembly = await told;
      if (how === 'not') {
        expect(assembly).toMatchObject({ assembled: false });
        expect((assembly as { said: string }).said).toContain('/statecraft-no-such-source');
        settle(false);
        expect((await supervising).kind).toBe('withdrawn');
        expect(existsSync(join(set.records, 'stream.ndjson'))).toBe(false);
      } else {
        expect(assembly).toEqual({ assembled: true });
        settle(true);
        const answer = await supervising;
        expect(answer.kind).toBe('supervised');
        if (answer.kind === 'supervised') expect(answer.attempt.terminal).toMatchObject({ type: 'result', terminal: 'completed' });
      }
    },
    60_000,
  );

  it('a check is one that could not be started, naming what bwrap said; no output file is left', async () => {
    const set = await establishedLaunch(scratch, 'statecraft-check-assembly-', PROMPT);
    const outputs = { stdoutFile: join(set.records, 'check-1.stdout'), stderrFile: join(set.records, 'check-1.stderr') };
    const checking = superviseCheck({
      file: '/bin/sh',
      args: ['-c', 'exit 0'],
      cwd: set.workspace,
      environment: set.environment,
      deadlineMs: 30_000,
      attemptTag: `statecraft-assembly-check-${Date.now()}`,
      ...outputs,
      boundary: unassemblable(set.boundary),
    });
    await expect(checking).rejects.toThrow(/its sandbox could not be assembled \(.*\/statecraft-no-such-source/);
    expect([existsSync(outputs.stdoutFile), existsSync(outputs.stderrFile)]).toEqual([false, false]);
  }, 60_000);
});
