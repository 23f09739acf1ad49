import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeFiles, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Acceptance {
  verdict: string;
  record: { line: number };
  checks: { command: string; exitCode: number | null; survivors: unknown[]; stdout: { path: string } }[];
}
interface ChainAcceptance {
  environment: { names: { name: string; value: { recorded?: string } }[] };
  boundary: { mechanism: string };
}

const targets = useTestTargets({ sharedRepository: false });
const SUITE = ['true', 'printenv STATECRAFT_ATTEMPT_TAG', 'true'];

/**
 * A suite sets each check up once the one before it has ended (packages/acceptance/src/judge/
 * run-suite.ts): under the boundary its sandbox waits at the closer's gate carrying no attempt
 * tag, which the closer exports only as the check starts (GATED_CLOSER_SCRIPT). So no sweep finds
 * anything of a check that has not started (R7.3), and every check still receives exactly the
 * tag the acceptance records (R5.1, R13.3). Without the boundary there is no gate: the same
 * suite, the same answers.
 */
describe('the next check of a suite', () => {
  for (const boundary of ['bwrap', 'none'] as const) {
    it(`is no leftover of the check before it, and starts with the recorded attempt tag (--boundary ${boundary})`, async () => {
      const repository = await targets.fresh();
      await writeFiles(repository, {
        '.statecraft/environment.json': `${JSON.stringify({ project: { commands: ['true', 'printenv'] }, acceptance: { checks: SUITE } })}\n`,
      });
      await repository.git('add', '-A');
      await repository.git('commit', '--quiet', '-m', 'declare the acceptance suite');
      const home = targets.home.path;
      // Some work: an attempt that changed nothing is not judged (R13.2).
      const prompt = writePrompt('write', 'work.txt', 'some work');
      const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', prompt, '--boundary', boundary, '--json'], {
        home,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const account = parseJson<{ runId: string; records: { chain: string } }>(run);

      const accepted = await runStatecraft(['accept', repository.path, account.runId, '--boundary', boundary, '--json'], { home, timeoutMs: 120_000 });
      const acceptance = parseJson<Acceptance>(accepted);
      expect(acceptance.verdict, accepted.stdout).toBe('accepted');
      expect(acceptance.checks.map((check) => [check.command, check.exitCode, check.survivors])).toEqual(SUITE.map((command) => [command, 0, []]));

      const record = JSON.parse(readFileSync(account.records.chain, 'utf8').split('\n')[acceptance.record.line - 1] ?? '') as ChainAcceptance;
      expect(record.boundary.mechanism).toBe(boundary);
      const tag = record.environment.names.find((entry) => entry.name === 'STATECRAFT_ATTEMPT_TAG')?.value.recorded;
      expect(tag).toMatch(/^statecraft-/);
      expect(readFileSync(acceptance.checks[1]?.stdout.path ?? '', 'utf8')).toBe(`${tag}\n`);
    });
  }
});
