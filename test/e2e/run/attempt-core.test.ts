import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_FILE_NAMES } from '@statecraft/records';
import { fixtureAdapterPath } from '@statecraft/adapter';
import { runAdapterOnce } from '@statecraft/run';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Issue 10 item 1: a qualification vouches for what a run does only if both go through one
// attempt core. The same fixture scenario, once through `statecraft run` and once through the
// negative suite's runAdapterOnce, must yield the same request and the same result from the same
// functions — equal up to the attempt's identity, its paths and its timing.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

/** What legitimately differs between two attempts: who they are, where they ran, and when. */
function withoutIdentityAndTiming(document: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(document);
  // `stdout`: the digest of a stream whose init echoes the attempt's workspace path.
  for (const key of ['attempt', 'workspace', 'baseRevision', 'startedAt', 'endedAt', 'durationMs', 'stdout']) delete copy[key];
  const deadline = copy['deadline'] as { at?: string } | undefined;
  if (deadline !== undefined) delete deadline.at;
  return copy;
}

describe('run and qualify share one attempt core', () => {
  it.each(['complete', 'refuse'])(
    'scenario %s: the request and the result of a run equal those of a suite attempt, up to identity and timing',
    async (scenario) => {
      const prompt = `scenario: ${scenario}`;
      const repository = await targets.fresh();
      // Both sides without the evidence boundary: the suite attempt below is given no boundary profile.
      const ran = await runStatecraft(
        ['run', repository.path, '--adapter', 'fixture', '--prompt', prompt, '--deadline', '60s', '--json', '--boundary', 'none'],
        { home: targets.home.path },
      );
      const account = parseJson<{ records: { chain: string }; runId: string; attempt: number }>(ran);
      const attemptDirectory = join(account.records.chain, '..', 'attempts', account.runId, String(account.attempt));
      const runRequest = JSON.parse(await readFile(join(attemptDirectory, ATTEMPT_FILE_NAMES.request), 'utf8')) as Record<string, unknown>;
      const runResult = JSON.parse(await readFile(join(attemptDirectory, ATTEMPT_FILE_NAMES.result), 'utf8')) as Record<string, unknown>;

      const workspace = await scratch.make('statecraft-core-workspace');
      const suiteDirectory = await scratch.make('statecraft-core-attempt');
      const suite = await runAdapterOnce({
        executable: fixtureAdapterPath(),
        workspace,
        baseRevision: 'HEAD',
        attempt: { runId: 'suite-run', number: 1 },
        required: [],
        preferred: [],
        prompt,
        deadlineMs: 60_000,
        environment: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        attemptDir: suiteDirectory,
      });
      if (suite.kind !== 'ran') throw new Error(suite.message);
      const suiteRequest = JSON.parse(await readFile(suite.files.request, 'utf8')) as Record<string, unknown>;
      // The request written to disk is the one the suite built and handed back.
      expect(suiteRequest).toEqual(suite.request);

      expect(withoutIdentityAndTiming(runRequest)).toEqual(withoutIdentityAndTiming(suiteRequest));
      expect(withoutIdentityAndTiming(runResult)).toEqual(withoutIdentityAndTiming(suite.result as unknown as Record<string, unknown>));
      expect(runResult['outcome']).toBe(scenario === 'complete' ? 'completed' : 'refused');
    },
  );
});
